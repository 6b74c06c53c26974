"""Deterministic git repositories: fixed names and dates, so the same build gives the same shas.

The builder writes each corpus repository through :class:`GitRepo`: commits on ``main`` with a
given author and time, side branches for injected bugs, patches computed by git itself between a
base commit and a set of file changes, and bundles for the committed sample.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from evals.corpus.errors import CorpusError

FileChanges = Mapping[str, str | None]
"""Repository-relative path -> new content, or None to delete the file."""


def _git_env(author: str, when: datetime) -> dict[str, str]:
    name, _, email = author.partition(" <")
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email.rstrip(">") or f"{name.lower()}@example.com",
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email.rstrip(">") or f"{name.lower()}@example.com",
        "GIT_COMMITTER_DATE": stamp,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "TZ": "UTC",
    }


def git(path: Path, *args: str, env: Mapping[str, str] | None = None, check: bool = True) -> str:
    """Run git in ``path``; raise :class:`CorpusError` with git's message when it fails."""
    base = ["git", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false",
            "-c", "init.defaultBranch=main", "-c", "user.useConfigOnly=false"]
    proc = subprocess.run(
        [*base, *args], cwd=path, env=dict(env or _git_env("Corpus Builder", datetime(2024, 1, 1))),
        capture_output=True, text=True,
    )
    if check and proc.returncode != 0:
        raise CorpusError(f"git {' '.join(args)} failed in {path}: {proc.stderr.strip()}")
    return proc.stdout


def write_files(root: Path, changes: FileChanges) -> None:
    """Apply ``changes`` to the files under ``root`` (None deletes)."""
    for rel, content in changes.items():
        target = root / rel
        if content is None:
            if target.exists():
                target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


class GitRepo:
    """A local git repository that the corpus builder grows commit by commit."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        self.name = name
        path.mkdir(parents=True, exist_ok=True)
        if not (path / ".git").exists():
            git(path, "init", "-q")
        self.files: dict[str, str] = {}
        """The content of ``main``'s head, path -> text (kept in memory for templates)."""

    @property
    def head(self) -> str:
        return git(self.path, "rev-parse", "HEAD").strip()

    def commit(self, changes: FileChanges, message: str, author: str, when: datetime) -> str:
        """Commit ``changes`` on ``main`` at ``when``; return the new sha."""
        write_files(self.path, changes)
        for rel, content in changes.items():
            if content is None:
                self.files.pop(rel, None)
            else:
                self.files[rel] = content
        env = _git_env(author, when)
        git(self.path, "add", "-A", env=env)
        git(self.path, "commit", "-q", "--allow-empty", "-m", message, env=env)
        return self.head

    def side_commit(
        self, branch: str, changes: FileChanges, message: str, author: str, when: datetime
    ) -> str:
        """Commit ``changes`` on a new branch off ``main``'s head, leaving ``main`` as it was."""
        env = _git_env(author, when)
        git(self.path, "checkout", "-q", "-b", branch, env=env)
        try:
            write_files(self.path, changes)
            git(self.path, "add", "-A", env=env)
            git(self.path, "commit", "-q", "-m", message, env=env)
            return self.head
        finally:
            git(self.path, "checkout", "-q", "-f", "main", env=env)
            git(self.path, "clean", "-qfdx", env=env)

    def read(self, sha: str, rel: str) -> str:
        """A file's text at commit ``sha``."""
        return git(self.path, "show", f"{sha}:{rel}")

    def patch(self, base: str, changes: FileChanges) -> str:
        """The unified diff (as ``git diff`` writes it) from ``base`` to ``base`` + ``changes``."""
        env = _git_env("Corpus Builder", datetime(2024, 1, 1))
        current = git(self.path, "rev-parse", "--abbrev-ref", "HEAD", env=env).strip()
        git(self.path, "checkout", "-q", "-f", "--detach", base, env=env)
        try:
            write_files(self.path, changes)
            git(self.path, "add", "-A", env=env)
            return git(self.path, "diff", "--cached", "--no-color", "--no-ext-diff", base, env=env)
        finally:
            git(self.path, "reset", "-q", "--hard", env=env)
            git(self.path, "checkout", "-q", "-f", current, env=env)
            git(self.path, "clean", "-qfdx", env=env)

    def bundle(self, target: Path) -> Path:
        """Write every ref of the repository to a git bundle at ``target``."""
        target.parent.mkdir(parents=True, exist_ok=True)
        git(self.path, "bundle", "create", "-q", str(target.resolve()), "--all")
        return target

def added_lines(patch: str) -> list[str]:
    """The text of a diff's added lines, without the leading ``+``."""
    return [line[1:] for line in patch.splitlines()
            if line.startswith("+") and not line.startswith("+++")]


def touched_paths(patch: str) -> list[str]:
    """Paths a diff touches, from its ``diff --git`` headers."""
    paths = []
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            paths.append(line.split(" b/", 1)[-1])
    return paths
