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
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
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


class WorkspacePool:
    """Working copies reused across attempts: at most one per task and attempt in hand (a suite
    holds two per worker: one under test, the next being readied).

    ``checkout(task)`` lends an idle copy of the task's repository, or makes one when every copy
    of the task is in use. A copy that comes back is restarted at its base commit (``git reset
    --hard`` + ``git clean -fdx``) in background threads (``workers`` of them), so the next
    attempt does not wait for it (one that asks meanwhile waits for the restart rather than
    cloning); a copy that cannot be restarted is deleted. ``prefetch(tasks, threads)`` makes
    each task's first copy ahead, in background threads, while earlier attempts run their tests.
    ``close()`` deletes them all. Cloning and deleting a copy per attempt cost more than the
    tests of small tasks.
    """

    AHEAD = 2
    """Copies per worker the prefetcher makes ahead of the attempts that take them: as many
    as a suite holds in use (bounds the disk a suite of large repositories holds before it
    needs it)."""

    def __init__(self, workers: int = 1) -> None:
        self._idle: dict[tuple[str, str, str | None], list[Workspace]] = {}
        self._all: list[Workspace] = []
        self._lock = threading.Condition()
        self._making: dict[tuple[str, str, str | None], threading.Event] = {}
        self._unclaimed: set[tuple[str, str, str | None]] = set()
        """Prefetched copies no attempt has taken yet."""
        self._unneeded: set[tuple[str, str, str | None]] = set()
        """Tasks no attempt will take a copy of: not prefetched."""
        self._restarting: dict[tuple[str, str, str | None], int] = {}
        """Copies back from an attempt and being restarted, by task."""
        # As many restarts at once as copies come back at once (a wave of ``workers`` tests).
        self._restarts = ThreadPoolExecutor(max(1, workers),
                                            thread_name_prefix="restart-workspaces")
        self._closed = False
        self._ahead: list[threading.Thread] = []
        self._workers = max(1, workers)

    @staticmethod
    def _key(task: Task) -> tuple[str, str, str | None]:
        return task.instance_id, task.base_commit, task.source.location

    @contextmanager
    def checkout(self, task: Task) -> Iterator[Workspace]:
        key = self._key(task)
        with self._lock:
            making = self._making.get(key)
        if making is not None:  # the prefetcher is making it: cheaper to wait than to clone
            making.wait()
        with self._lock:
            idle = self._idle.setdefault(key, [])
            while not idle and self._restarting.get(key) and not self._closed:
                self._lock.wait()  # a restart takes a few git calls; a new copy, a clone
            ws = idle.pop() if idle else None
            if key in self._unclaimed:
                self._unclaimed.discard(key)
                self._lock.notify_all()
        if ws is None:
            ws = Workspace.create(task)
            with self._lock:
                self._all.append(ws)
        try:
            yield ws
        finally:
            with self._lock:  # submitted under the lock: ``close`` shuts the restarts after
                if not self._closed:
                    self._restarting[key] = self._restarting.get(key, 0) + 1
                    self._restarts.submit(self._restart, key, ws)

    def _restart(self, key: tuple[str, str, str | None], ws: Workspace) -> None:
        """Put ``ws`` back at its base commit and among the idle copies (deleted if it fails)."""
        try:
            ws.restart()
        except Exception:
            restarted = False
        else:
            restarted = True
        with self._lock:
            self._restarting[key] -= 1
            if restarted:
                self._idle.setdefault(key, []).append(ws)
            else:
                self._all.remove(ws)
            self._lock.notify_all()
        if not restarted:
            ws.close()

    def prefetch(self, tasks: Sequence[Task], threads: int = 1) -> None:
        """Make the first copy of each of ``tasks`` (in that order; a task with a copy is
        skipped) in ``threads`` background threads (a suite's ``workers``: the first attempts of
        every worker need one at once), at most ``AHEAD`` per worker (or ``threads``) copies,
        made or being made, before attempts take them: a suite's first tests may need copies of
        as many tasks as it holds copies, and they need not come first in the order. A copy
        that fails is left to the attempt, which makes it again and reports the error."""
        pending = iter(tasks)
        ahead = max(self.AHEAD * self._workers, threads)

        def run() -> None:
            while True:
                with self._lock:
                    while (len(self._unclaimed) + len(self._making) >= ahead
                           and not self._closed):
                        self._lock.wait()
                    task = None if self._closed else next(pending, None)
                    if task is None:
                        return
                    key = self._key(task)
                    if key in self._idle or key in self._making or key in self._unneeded:
                        continue  # an attempt got there first, or none will take it
                    event = self._making[key] = threading.Event()
                ws: Workspace | None = None
                try:
                    with suppress(Exception):  # the attempt makes it again and reports it
                        ws = Workspace.create(task)
                finally:  # even when interrupted: an attempt may be waiting on the event
                    with self._lock:
                        if ws is not None:
                            self._all.append(ws)
                            self._idle.setdefault(key, []).append(ws)
                            self._unclaimed.add(key)
                        del self._making[key]
                        self._lock.notify_all()
                    event.set()

        with self._lock:
            if self._ahead or self._closed:
                raise RuntimeError("a pool prefetches once, before it is closed")
            self._ahead = [threading.Thread(target=run, name=f"prefetch-workspaces-{n}",
                                            daemon=True) for n in range(max(1, threads))]
        for thread in self._ahead:
            thread.start()

    def unneeded(self, tasks: Iterable[Task]) -> None:
        """``tasks`` no attempt will take a copy of: the prefetcher skips them, and a copy it
        made already no longer counts as ahead."""
        with self._lock:
            for task in tasks:
                key = self._key(task)
                self._unneeded.add(key)
                self._unclaimed.discard(key)
            self._lock.notify_all()

    def __len__(self) -> int:
        return len(self._all)

    def close(self, wait: bool = True) -> None:
        """Delete every copy; with ``wait=False`` in a background thread (the interpreter
        still waits for it at exit), so a suite's results do not wait on the deletion."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
            ahead = list(self._ahead)

        def delete() -> None:
            for thread in ahead:
                thread.join()  # it stops after the copy it is making, if any
            self._restarts.shutdown(wait=True)
            with self._lock:
                copies, self._all, self._idle = self._all, [], {}
            for ws in copies:
                ws.close()

        if wait:
            delete()
        else:
            threading.Thread(target=delete, name="delete-workspaces").start()

    def __enter__(self) -> WorkspacePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
