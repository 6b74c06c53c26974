"""A task's repository at its base state in an isolated copy; patches applied; tests run.

The copy holds the repository's history up to ``base_commit`` and nothing later: no later
commit, branch or tag, and no object of one, so nothing in it shows a fix that came after the
task. It is made in two steps, both cached under ``dreamer.settings.home()/cache/repos``:

1. a *mirror* of a bundle or remote source (a local git folder is read in place);
2. a bare *base repository* per (source, base commit) into which only ``base_commit`` and its
   ancestors are fetched (git sends the objects reachable from the wanted commit, nothing else);

and each working copy borrows the base repository's objects (as ``git clone --shared`` does),
checked out at ``base_commit``, with no remote and no ref but its detached HEAD. An archive
source is unpacked and committed as the base state. Patches apply in SWE-bench's order of
attempts, each on a clean tree: ``git apply --verbose``, ``git apply --verbose --3way``,
``git apply --verbose --reject`` (only when every hunk lands), then
``patch --batch --fuzz=5 -p1``. Tests run in their own session so a
timeout kills the whole process group.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from evals.errors import PatchApplyError, TestTimeoutError, WorkspaceError
from evals.tasks import Task

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "dreamer", "GIT_AUTHOR_EMAIL": "dreamer@localhost",
    "GIT_COMMITTER_NAME": "dreamer", "GIT_COMMITTER_EMAIL": "dreamer@localhost",
    "GIT_TERMINAL_PROMPT": "0",
}
APPLY_ATTEMPTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("git apply", ("git", "apply", "--verbose")),
    ("git apply --3way", ("git", "apply", "--verbose", "--3way")),
    ("git apply --reject", ("git", "apply", "--verbose", "--reject")),
    ("patch --fuzz", ("patch", "--batch", "--fuzz=5", "-p1", "-i")),
)
"""SWE-bench's order of attempts, by the name reports give them."""
_FULL_SHA = re.compile(r"[0-9a-f]{40}")


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git in ``cwd`` with a fixed identity and no prompts."""
    env = {**os.environ, **_GIT_ENV}
    result = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if check and result.returncode != 0:
        raise WorkspaceError(
            "repository unavailable", f"git {' '.join(args)} in {cwd}: {result.stderr.strip()}"
        )
    return result


@dataclass(frozen=True)
class ApplyResult:
    """How a patch went in: the attempt that worked and the log of every attempt."""

    method: str
    log: str


@dataclass(frozen=True)
class TestRun:
    """One run of a task's tests."""

    __test__ = False

    command: str
    output: str
    exit_code: int
    duration_s: float


@dataclass
class Workspace:
    """An isolated working copy of a task's repository at its base commit."""

    task: Task
    root: Path
    path: Path
    _cleanup: bool = field(default=True, repr=False)
    base_head: str = ""
    """The commit the copy started at (``base_commit``, or an archive's first commit)."""
    _pending: list[str] = field(default_factory=list, repr=False)
    """Labels of the patches applied but not committed yet."""

    @classmethod
    def create(cls, task: Task, parent: Path | None = None, keep: bool = False) -> Workspace:
        """Copy the task's repository into a fresh temporary folder, at ``base_commit``."""
        root = Path(tempfile.mkdtemp(prefix=f"dreamer-{_slug(task.instance_id)}-", dir=parent))
        path = root / "repo"
        try:
            head = _materialise(task, path)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return cls(task=task, root=root, path=path, _cleanup=not keep, base_head=head)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Remove the copy (unless it was made with ``keep=True``)."""
        if self._cleanup:
            shutil.rmtree(self.root, ignore_errors=True)

    def reset(self) -> None:
        """Back to the last applied state: drop every other change, tracked or not."""
        self._commit_pending()
        git(self.path, "reset", "--hard", "--quiet")
        git(self.path, "clean", "-fdxq")

    def restart(self) -> None:
        """Back to the copy's starting commit as if just made: applied patches, changes and
        untracked or ignored files (caches, build output) all gone."""
        git(self.path, "reset", "--hard", "--quiet", self.base_head)
        git(self.path, "clean", "-fdxq")
        self._pending.clear()
        for leftover in self.root.glob("*.diff"):
            leftover.unlink()

    def reset_files(self, paths: Sequence[str]) -> None:
        """Put ``paths`` back as they are at the starting commit (``git checkout``); a path
        that cannot be is left as it is (applying what comes next then says what is wrong)."""
        if paths:
            git(self.path, "checkout", self.base_head, "--", *paths, check=False)

    def apply(self, patch: str, label: str = "patch", commit: bool = True) -> ApplyResult:
        """Apply ``patch`` with SWE-bench's fallbacks; raise ``PatchApplyError`` if none works.

        The applied state is committed, so a later patch's failed attempt resets to it. With
        ``commit=False`` that commit is deferred until a later patch needs a fallback (or
        ``reset``): the common case, every patch going in with plain ``git apply``, then costs
        one git process per patch."""
        patch_file = self.root / f"{label}.diff"
        patch_file.write_text(patch if patch.endswith("\n") else patch + "\n", encoding="utf-8")
        log: list[str] = []
        before: set[str] | None = None
        for name, argv in APPLY_ATTEMPTS:
            if argv[0] == "patch" and shutil.which("patch") is None:
                log.append(f"$ {name}: skipped, the patch program is not installed")
                continue
            if argv != APPLY_ATTEMPTS[0][1] and before is None:
                # Plain `git apply` is all or nothing; the fallbacks may leave debris, and a
                # failed one resets to the last commit, which must hold the earlier patches.
                self._commit_pending()
                before = _untracked(self.path)
            result = subprocess.run(
                [*argv, str(patch_file)], cwd=self.path, capture_output=True, text=True,
                check=False, env={**os.environ, **_GIT_ENV},
            )
            log.append(f"$ {name} (exit {result.returncode})\n{result.stdout}{result.stderr}")
            if result.returncode == 0:
                if before is not None:
                    _drop_rejects(self.path, before)
                self._pending.append(label)
                if commit:
                    self._commit_pending()
                return ApplyResult(method=name, log="\n".join(log))
            if before is not None:
                _restore(self.path, before)
        raise PatchApplyError(f"{label} did not apply", "\n".join(log))

    def _commit_pending(self) -> None:
        """Commit the patches applied without a commit (``apply(commit=False)``)."""
        if self._pending:
            git(self.path, "add", "--all")
            git(self.path, "commit", "--quiet", "--allow-empty", "--no-verify", "-m",
                " + ".join(self._pending))
            self._pending.clear()

    def run(
        self, command: Sequence[str] | str, timeout: float, env: dict[str, str] | None = None
    ) -> TestRun:
        """Run ``command`` in the copy; on timeout kill its process group and raise."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        start = time.monotonic()
        proc = subprocess.Popen(
            argv, cwd=self.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace", start_new_session=True,
        )
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            output, _ = proc.communicate()
            raise TestTimeoutError(f"timeout after {timeout:g}s", output[-4000:]) from None
        return TestRun(
            command=shlex.join(argv), output=output, exit_code=proc.returncode,
            duration_s=time.monotonic() - start,
        )


def _materialise(task: Task, dest: Path) -> str:
    """Make the copy at ``dest``; return the commit it starts at."""
    source = task.source
    location = Path(source.location) if source.location else None
    if source.kind not in ("git", "bundle", "archive") or location is None:
        raise WorkspaceError(
            "repository unavailable",
            f"{task.instance_id}: source kind {source.kind!r} at {source.location!r} cannot be "
            "copied offline; give the task a local git repository, bundle or archive",
        )
    if "://" not in source.location and not location.exists():
        raise WorkspaceError(
            "repository unavailable", f"{task.instance_id}: {location} does not exist")
    if source.kind == "archive":
        _unpack_archive(location, dest)
        return git(dest, "rev-parse", "HEAD").stdout.strip()
    base = base_repository(source.kind, source.location, task.base_commit)
    commit = task.base_commit
    if not _FULL_SHA.fullmatch(commit):
        commit = git(base, "rev-parse", "--verify", f"{commit}^{{commit}}").stdout.strip()
    # What `git clone --shared` does, without its remote, refs and separate checkout: the
    # objects are borrowed from the base repository, HEAD is detached at the base commit.
    git(dest.parent, "init", "--quiet", "--template=", str(dest))  # no sample hooks to copy
    (dest / ".git" / "objects" / "info" / "alternates").write_text(
        f"{(base / 'objects').resolve()}\n", encoding="utf-8")
    (dest / ".git" / "HEAD").write_text(f"{commit}\n", encoding="utf-8")
    git(dest, "reset", "--hard", "--quiet")
    return commit


def cache_root() -> Path:
    """Where mirrors and base repositories are kept between runs."""
    from dreamer import settings

    return settings.home() / "cache" / "repos"


def base_repository(kind: str, location: str, commit: str) -> Path:
    """A bare repository holding ``commit`` and its ancestors only (cached; built once)."""
    key = hashlib.sha256(f"{kind}\0{_canonical(location)}".encode()).hexdigest()[:16]
    folder = cache_root() / key
    final = folder / f"base-{commit}.git"
    if (final / "HEAD").exists():
        return final
    source = _mirror(kind, location, folder)

    def build(tmp: Path) -> None:
        git(tmp.parent, "init", "--quiet", "--bare", "--template=", str(tmp))
        fetched = git(tmp, "fetch", "--quiet", "--no-tags", str(source),
                      f"{commit}:refs/heads/base", check=False)
        if fetched.returncode != 0:
            raise WorkspaceError(
                "repository unavailable",
                f"commit {commit} is not in {location}: {fetched.stderr.strip()[-400:]}")
        git(tmp, "symbolic-ref", "HEAD", "refs/heads/base")

    return _atomic(final, build)


def _mirror(kind: str, location: str, folder: Path) -> Path:
    """The repository to fetch from: a local git folder itself, else a cached mirror."""
    if kind == "git" and "://" not in location:
        return Path(location)
    path = Path(location)
    stamp = f"{path.stat().st_size}-{path.stat().st_mtime_ns}" if path.exists() else "remote"
    final = folder / f"mirror-{stamp}.git"
    if (final / "HEAD").exists():
        return final

    def build(tmp: Path) -> None:
        git(tmp.parent, "clone", "--quiet", "--mirror", location, str(tmp))

    return _atomic(final, build)


def _atomic(final: Path, build: Callable[[Path], None]) -> Path:
    """Build a folder under a temporary name and rename it into place: concurrent builders
    (threads or processes) never see a half-made one; the first to finish wins."""
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=final.parent))
    shutil.rmtree(tmp)
    try:
        build(tmp)
        try:
            os.rename(tmp, final)
        except OSError:
            if not (final / "HEAD").exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def _canonical(location: str) -> str:
    return location if "://" in location else str(Path(location).resolve())


def _unpack_archive(archive: Path, dest: Path) -> None:
    staging = dest.parent / "unpacked"
    try:
        shutil.unpack_archive(str(archive), str(staging))
    except (ValueError, OSError, shutil.ReadError) as exc:
        raise WorkspaceError("repository unavailable", f"cannot unpack {archive}: {exc}") from exc
    entries = list(staging.iterdir())
    top = entries[0] if len(entries) == 1 and entries[0].is_dir() else staging
    shutil.move(str(top), str(dest))
    git(dest, "init", "--quiet")
    git(dest, "add", "--all")
    git(dest, "commit", "--quiet", "--allow-empty", "-m", f"base state from {archive.name}")


def _untracked(path: Path) -> set[str]:
    """Untracked files present before an attempt, so a failed attempt's debris can be removed."""
    out = git(path, "ls-files", "--others", "--exclude-standard", "-z").stdout
    return {p for p in out.split("\0") if p}


def _restore(path: Path, untracked_before: set[str]) -> None:
    git(path, "reset", "--hard", "--quiet", check=False)
    for rel in _untracked(path) - untracked_before:
        (path / rel).unlink(missing_ok=True)


def _drop_rejects(path: Path, untracked_before: set[str]) -> None:
    for rel in _untracked(path) - untracked_before:
        if rel.endswith((".rej", ".orig")):
            (path / rel).unlink(missing_ok=True)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)[:60]
