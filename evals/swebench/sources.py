"""Where a SWE-bench row's repository comes from: local mirrors in a ``--repos-dir`` folder.

A SWE-bench row names its repository (``owner/name``) but carries no way to fetch it offline. A
repos folder holds, for any row, the first of these found, in this order:

1. ``<instance_id>.tar.gz`` (or ``.tgz``, ``.tar``, ``.zip``): the tree at the row's
   ``base_commit``, as ``git archive`` makes it (a single top folder is unwrapped);
2. ``owner__name.git`` or ``owner__name``: a git repository, bare or not, holding ``base_commit``;
3. ``owner__name.bundle``: a git bundle holding ``base_commit``.

The folder comes from ``--repos-dir`` or, when that is not given, ``DREAMER_REPOS_DIR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from evals.errors import TaskLoadError
from evals.tasks import RepoSource, Task

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
REPOS_DIR_VARIABLE = "DREAMER_REPOS_DIR"


def repos_dir(given: str | Path | None = None) -> Path | None:
    """The repos folder: ``given``, else ``$DREAMER_REPOS_DIR``, else None; it must exist."""
    chosen = given if given is not None else os.environ.get(REPOS_DIR_VARIABLE) or None
    if chosen is None:
        return None
    path = Path(chosen).expanduser().resolve()
    if not path.is_dir():
        where = "--repos-dir" if given is not None else REPOS_DIR_VARIABLE
        raise TaskLoadError(f"{where} {path} is not a folder of repository mirrors")
    return path


def find_source(instance_id: str, repo: str, folder: Path) -> RepoSource | None:
    """The local source of one row in ``folder``, or None when the folder has none for it."""
    for suffix in ARCHIVE_SUFFIXES:
        archive = folder / f"{instance_id}{suffix}"
        if archive.is_file():
            return RepoSource(kind="archive", location=str(archive))
    slug = repo.replace("/", "__")
    for name in (f"{slug}.git", slug):
        candidate = folder / name
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return RepoSource(kind="git", location=str(candidate))
    bundle = folder / f"{slug}.bundle"
    if bundle.is_file():
        return RepoSource(kind="bundle", location=str(bundle))
    return None


def with_local_sources(tasks: list[Task], folder: Path | None) -> list[Task]:
    """``tasks`` with every row that has no offline source pointed at its mirror in ``folder``.

    Rows that already name a local source keep it; rows with no mirror in the folder keep their
    ``swe-bench`` source and become ``repository unavailable`` infrastructure errors when run,
    naming the files looked for.
    """
    if folder is None:
        return tasks
    out: list[Task] = []
    for task in tasks:
        if task.source.kind != "swe-bench":
            out.append(task)
            continue
        found = find_source(task.instance_id, task.repo, folder)
        if found is None:
            looked = expected_names(task.instance_id, task.repo)
            found = RepoSource(kind="swe-bench",
                               location=f"none of {', '.join(looked)} in {folder}")
        out.append(task.model_copy(update={"source": found}))
    return out


def expected_names(instance_id: str, repo: str) -> list[str]:
    """The file names a repos folder is searched for, for one row."""
    slug = repo.replace("/", "__")
    return [f"{instance_id}.tar.gz", f"{slug}.git", slug, f"{slug}.bundle"]
