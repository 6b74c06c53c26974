"""Read a built corpus back: its summary, and its repositories as runnable git folders."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

from evals.corpus.errors import CorpusError
from evals.corpus.publish import noise_counts

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
"""The small prebuilt corpus committed with the project."""
DEFAULT_OUT = Path(".dreamer/corpus")


def default_corpus() -> Path:
    """The full build when there is one, else the committed sample."""
    return DEFAULT_OUT if (DEFAULT_OUT / "manifest.json").exists() else SAMPLE


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def corpus_info(folder: Path) -> dict[str, Any]:
    """Families, tasks, certified/uncertified counts, sessions and noise counts of a corpus.

    Counted from the corpus's files (tasks.jsonl, sessions.jsonl), not copied from the manifest,
    so that the summary is true of what is on disk.
    """
    if not (folder / "tasks.jsonl").exists():
        raise CorpusError(f"{folder} holds no corpus (no tasks.jsonl); run `dreamer corpus build`")
    tasks = _rows(folder / "tasks.jsonl")
    sessions = _rows(folder / "sessions.jsonl")
    families: dict[str, dict[str, Any]] = {}
    for task in tasks:
        entry = families.setdefault(task["family"], {"repo": task["repo"], "tasks": 0,
                                                     "certified": 0, "uncertified": 0})
        entry["tasks"] += 1
        if task.get("certified") is True:
            entry["certified"] += 1
        elif task.get("certified") is False:
            entry["uncertified"] += 1
    for row in sessions:
        if row.get("family") in families:
            families[row["family"]].setdefault("sessions", 0)
            families[row["family"]]["sessions"] += 1
    leaks_file = folder / "leaks.json"
    leaks = json.loads(leaks_file.read_text()) if leaks_file.exists() else []
    return {
        "path": str(folder),
        "families": len(families),
        "repos": sorted({t["repo"] for t in tasks}),
        "tasks": len(tasks),
        "certified": sum(1 for t in tasks if t.get("certified") is True),
        "uncertified": sum(1 for t in tasks if t.get("certified") is False),
        "unchecked": sum(1 for t in tasks if t.get("certified") is None),
        "uncertified_tasks": sorted(t["instance_id"] for t in tasks if t.get("certified") is False),
        "history_tasks": len(_rows(folder / "history.jsonl")),
        "sessions": len(sessions),
        "noise": noise_counts(sessions),
        "leaks": len(leaks),
        "by_family": dict(sorted(families.items())),
    }


def session_times(folder: Path) -> dict[str, datetime]:
    """When each recorded session ended, by trajectory instance id and ingest session id (the
    latter where the manifest gives it or the file's ``sha256``)."""
    from dreamer.models import Session

    times: dict[str, datetime] = {}
    for row in _rows(folder / "sessions.jsonl"):
        ended = datetime.fromisoformat(row["ended_at"])
        times[row["instance_id"]] = ended
        if row.get("session_id"):
            times[str(row["session_id"])] = ended
        if row.get("sha256"):  # a corpus built here records the file's hash; others may not
            times[Session.make_id(row["sha256"], 0)] = ended
    return times


def commit_times(folder: Path) -> dict[str, datetime]:
    """When each commit of the corpus's repositories was made (folders or bundles)."""
    times: dict[str, datetime] = {}
    for repo in sorted((folder / "repos").glob("*")):
        with _as_git(repo) as git_dir:
            log = subprocess.run(["git", "--git-dir", str(git_dir), "log", "--all",
                                  "--format=%H %cI"], capture_output=True, text=True, check=True)
        for line in log.stdout.splitlines():
            sha, stamp = line.split(" ", 1)
            times[sha] = datetime.fromisoformat(stamp).replace(tzinfo=None)
    return times


class _as_git:
    """A git directory for a repository folder, or a temporary bare clone of a bundle."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp: Path | None = None

    def __enter__(self) -> Path:
        if self.path.suffix != ".bundle":
            return self.path / ".git"
        import tempfile

        self.tmp = Path(tempfile.mkdtemp(prefix="corpus-bundle-"))
        subprocess.run(["git", "clone", "-q", "--bare", str(self.path), str(self.tmp / "r.git")],
                       check=True, capture_output=True)
        return self.tmp / "r.git"

    def __exit__(self, *exc: object) -> None:
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


def materialise(folder: Path, target: Path) -> Path:
    """Copy a corpus whose repositories are bundles to ``target`` with plain git folders."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("*.bundle", "hf", "parquet"))
    for bundle in sorted((folder / "repos").glob("*.bundle")):
        dest = target / "repos" / bundle.stem
        subprocess.run(["git", "clone", "-q", "--mirror", str(bundle), str(dest / ".git")],
                       check=True, capture_output=True)
        subprocess.run(["git", "--git-dir", str(dest / ".git"), "config", "core.bare", "false"],
                       check=True)
        subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=dest, check=True)
    for name in ("tasks.jsonl", "history.jsonl"):
        rows = _rows(target / name)
        for row in rows:
            location = row["source"]["location"]
            if location.endswith(".bundle"):
                row["source"] = {"kind": "git", "location": location[: -len(".bundle")]}
        (target / name).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    return target
