"""Build small real git repositories from file contents: the fixtures of tasks and tests.

Commits use a fixed identity and date, so the same files give the same commit ids on every run.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

_ENV = {
    "GIT_AUTHOR_NAME": "dreamer", "GIT_AUTHOR_EMAIL": "dreamer@localhost",
    "GIT_COMMITTER_NAME": "dreamer", "GIT_COMMITTER_EMAIL": "dreamer@localhost",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=repo, env={**os.environ, **_ENV}, capture_output=True, text=True, check=True,
    )
    return result.stdout


def write_files(repo: Path, files: Mapping[str, str | None]) -> None:
    """Write (or, for None, delete) files relative to ``repo``."""
    for rel, text in files.items():
        path = repo / rel
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def init_repo(repo: Path, files: Mapping[str, str | None], message: str = "initial") -> str:
    """A new repository at ``repo`` holding ``files``; returns the commit id."""
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "--quiet")
    return commit(repo, files, message)


def commit(repo: Path, files: Mapping[str, str | None], message: str) -> str:
    """Commit ``files`` on top of HEAD; returns the new commit id."""
    write_files(repo, files)
    _git(repo, "add", "--all")
    _git(repo, "commit", "--quiet", "--allow-empty", "-m", message)
    return _git(repo, "rev-parse", "HEAD").strip()


def diff_for(repo: Path, files: Mapping[str, str | None]) -> str:
    """The unified diff (``git diff`` format) that turns HEAD into HEAD plus ``files``.

    The repository is left as it was.
    """
    write_files(repo, files)
    _git(repo, "add", "--all")
    try:
        return _git(repo, "diff", "--cached", "HEAD")
    finally:
        _git(repo, "reset", "--quiet", "--hard", "HEAD")
