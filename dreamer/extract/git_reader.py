"""Files and history read with git from the repositories on this machine: working copies, bare
repositories or bundles, found by a session's repository name or commit.

Reads go through ``git_lines``, which answers None where git fails (an unknown commit, a missing
path, no git): a citation whose lines cannot be read keeps its path without a hash
(``dreamer.extract.citations``).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

REPOS_ENV = "DREAMER_REPOS"
"""``os.pathsep``-separated folders holding repositories (``<name>``, ``<owner>/<name>``,
``<owner>__<name>``, optionally ``.git`` or a ``.bundle``) for reading cited lines."""


class GitReader:
    """Reads files at commits from local repositories (working copies, bare repos or bundles).

    ``roots`` may name folders holding repositories, or repositories themselves: a working
    copy, a bare repository or a bundle file, each found by its name (``acme__shop.bundle``,
    ``shop/``, its ``origin`` URL) or, failing that, by holding the session's commit.
    """

    def __init__(
        self, roots: list[Path] | None = None, repos: dict[str, Path] | None = None
    ) -> None:
        env = [Path(p) for p in os.environ.get(REPOS_ENV, "").split(os.pathsep) if p]
        given = [*(roots or []), *env]
        self.direct = [p for p in given if _is_repository(p)]
        """Repositories named themselves (not folders of them)."""
        self.roots = [p for p in given if p not in self.direct]
        self.repos = dict(repos or {})
        self._bundles: dict[Path, Path] = {}
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    def locate(self, repo: str | None, hint: str | None = None,
               commits: tuple[str, ...] = ()) -> Path | None:
        """The git directory for ``repo``: an explicit mapping, a hint path, a repository given
        itself (by name, else by holding one of ``commits``), or one under a root."""
        if repo and repo in self.repos:
            return self._usable(self.repos[repo])
        if hint and (found := self._usable(Path(hint))) is not None:
            return found
        if (found := self._direct(repo, commits)) is not None:
            return found
        if not repo:
            return None
        owner_name = repo.strip("/")
        names = {owner_name, owner_name.replace("/", "__"), owner_name.split("/")[-1]}
        for root in self.roots:
            for name in sorted(names):
                for candidate in (root / name, root / f"{name}.git", root / f"{name}.bundle"):
                    if (found := self._usable(candidate)) is not None:
                        return found
            # One level of nesting, e.g. a sample's ``repos/`` folder of bundles.
            for child in sorted(root.glob("*/*")) if root.is_dir() else ():
                if child.name in names or child.stem in names:
                    if (found := self._usable(child)) is not None:
                        return found
        return None

    def _direct(self, repo: str | None, commits: tuple[str, ...]) -> Path | None:
        if not self.direct:
            return None
        if repo:
            names = _names(repo)
            for path in self.direct:
                if _repository_names(path) & names and (found := self._usable(path)):
                    return found
        for path in self.direct:
            found = self._usable(path)
            if found is not None and any(git_lines(str(found), "cat-file", "-e", f"{c}^{{commit}}")
                                         is not None for c in commits):
                return found
        if repo is None and len(self.direct) == 1:
            return self._usable(self.direct[0])
        return None

    def _usable(self, path: Path) -> Path | None:
        if path.is_file() and path.suffix == ".bundle":
            return self._clone_bundle(path)
        if (path / ".git").exists() or (path / "HEAD").is_file():
            return path
        return None

    def _clone_bundle(self, bundle: Path) -> Path | None:
        if bundle not in self._bundles:
            if self._tmp is None:
                self._tmp = tempfile.TemporaryDirectory(prefix="dreamer-bundles-")
            target = Path(self._tmp.name) / f"{len(self._bundles)}.git"
            done = subprocess.run(
                ["git", "clone", "--quiet", "--bare", str(bundle), str(target)],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            if done.returncode != 0:
                return None
            self._bundles[bundle] = target
        return self._bundles[bundle]

    def read_lines(self, git_dir: Path, commit: str, path: str) -> list[str] | None:
        """The lines of ``path`` at ``commit``, or None when either is missing."""
        return _show(str(git_dir), commit, path)

    def commits_adding(self, git_dir: Path, path: str, text: str) -> list[str]:
        """Commits (oldest first, any branch) that change how often ``text`` occurs in ``path``."""
        found = git_lines(str(git_dir), "log", "--all", "--format=%H", "-S", text, "--", path)
        return list(reversed(found or ()))

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def _is_repository(path: Path) -> bool:
    """A bundle file, a working copy or a bare repository (rather than a folder of them)."""
    if path.is_file():
        with path.open("rb") as handle:
            return path.suffix == ".bundle" or handle.read(16).startswith(b"# v2 git bundle")
    return (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir())


def _names(repo: str) -> set[str]:
    owner_name = repo.strip("/")
    return {owner_name, owner_name.replace("/", "__"), owner_name.split("/")[-1]}


def _repository_names(path: Path) -> set[str]:
    """What a given repository may be called: its file or folder name, and its origin's
    ``owner/name``."""
    stem = path.name.removesuffix(".bundle").removesuffix(".git")
    found = {stem, stem.replace("__", "/")}
    if not path.is_file():
        remote = git_lines(str(path), "config", "--get", "remote.origin.url")
        if remote:
            from dreamer.ingest.origin import repo_from_url

            named = repo_from_url(remote[0])
            if named:
                found |= {named, named.split("/")[-1]}
    return found


@lru_cache(maxsize=512)
def _show(git_dir: str, commit: str, path: str) -> list[str] | None:
    lines = git_lines(git_dir, "show", f"{commit}:{path}")
    return list(lines) if lines is not None else None


@lru_cache(maxsize=512)
def git_lines(git_dir: str, *args: str) -> tuple[str, ...] | None:
    """git's output lines, or None when git fails (unknown commit, missing path, no git)."""
    try:
        done = subprocess.run(
            ["git", "-C", git_dir, *args], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return tuple(done.stdout.decode("utf-8", errors="replace").splitlines())
