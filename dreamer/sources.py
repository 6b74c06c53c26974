"""When each citable source existed: sessions and commits, for the leak check of replays."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path

from dreamer.store import Store


class SourceTimes(Mapping[str, datetime]):
    """When each citable source existed, by citation ref: sessions (``<id>`` or
    ``<id>:<seq>``) from the evidence store, else from a corpus manifest (``sessions.jsonl``:
    trajectory formats such as SWE-agent's carry no times), and commits from the repositories."""

    def __init__(self, store: Store, manifest: Path | None = None,
                 repo_roots: list[Path] | None = None) -> None:
        import json

        from dreamer.models import Session

        times: dict[str, datetime] = {}
        for root in repo_roots or []:
            times.update(commit_times(root))
        if manifest is not None and manifest.is_file():
            for line in manifest.read_text().splitlines():
                row = json.loads(line)
                if row.get("ended_at") and row.get("sha256"):
                    times[Session.make_id(row["sha256"], 0)] = datetime.fromisoformat(
                        row["ended_at"]
                    )
        for s in store.evidence.sessions():
            if s.ended_at or s.started_at:
                times[s.id] = s.ended_at or s.started_at  # type: ignore[assignment]
        self._times = times

    def __getitem__(self, ref: str) -> datetime:
        return self._times[ref.split(":", 1)[0]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._times)

    def __len__(self) -> int:
        return len(self._times)


def commit_times(root: Path) -> dict[str, datetime]:
    """Commit sha -> commit time of every git repository or bundle directly under ``root``."""
    import subprocess
    import tempfile

    times: dict[str, datetime] = {}
    for path in sorted(root.iterdir()) if root.is_dir() else []:
        with tempfile.TemporaryDirectory() as tmp:
            source = path
            if path.suffix == ".bundle":
                source = Path(tmp) / "repo.git"
                subprocess.run(["git", "clone", "-q", "--bare", str(path), str(source)],
                               check=True, capture_output=True)
            elif not (path / ".git").exists() and not (path / "HEAD").exists():
                continue
            log = subprocess.run(["git", "-C", str(source), "log", "--all", "--format=%H %cI"],
                                 check=True, capture_output=True, text=True).stdout
        for line in log.splitlines():
            sha, _, when = line.partition(" ")
            times[sha] = datetime.fromisoformat(when)
    return times
