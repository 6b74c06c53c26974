"""Pulling sessions from where agents write them, reading only what changed since last time.

A source is a folder, or the name of an agent's standard place:

| name | folder | what is there |
| --- | --- | --- |
| ``claude-code`` | ``~/.claude/projects`` | one JSONL per session, appended while it runs |
| ``openhands`` | ``~/.openhands/sessions`` | ``<sid>/events/<n>.json``, one file per event |
| ``swe-agent`` | ``./trajectories`` | ``<user>/<run>/<id>/<id>.traj``, rewritten as it runs |

Each source has a watermark in the store: the newest modification time it has given, but never
later than two seconds before the pull began (a file written again within the clock's
resolution must not hide behind it). A pull reads only the files modified after the watermark
(so a log that grew is read again, and becomes a new version of its session), then moves it.
Files not read count as ``unchanged``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from dreamer.ingest.driver import Defaults, IngestReport, ingest_file
from dreamer.ingest.files import collect, is_events_folder, shown_path
from dreamer.ingest.limits import Limits
from dreamer.store import Store

PLACES: dict[str, str] = {
    "claude-code": "~/.claude/projects",
    "openhands": "~/.openhands/sessions",
    "swe-agent": "trajectories",
}
"""Agents' standard places, by the name a nightly config or ``dreamer pull`` may give."""
CLOCK_SLACK_NS = 2 * 10**9
"""The watermark stays this far behind the pull's start (file clocks may tick in seconds)."""


@dataclass(frozen=True)
class Source:
    """A source to pull: its key in the watermark table and the folder it names."""

    key: str
    path: Path


def resolve(spec: str, base: Path | None = None) -> Source:
    """``spec`` as a source: a standard place's name, or a folder (relative to ``base``)."""
    if spec in PLACES:
        return Source(spec, Path(PLACES[spec]).expanduser())
    path = Path(spec).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return Source(str(path.resolve()) if path.exists() else str(path), path)


@dataclass
class PullReport:
    """What a pull did: the ingest report over every source, and per source what it read."""

    report: IngestReport = field(default_factory=IngestReport)
    sources: list[dict[str, object]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {**self.report.summary(), "sources": self.sources}


def pull(store: Store, specs: list[str], defaults: Defaults | None = None,
         base: Path | None = None, limits: Limits | None = None) -> PullReport:
    """Ingest what changed in each source since its watermark; then move the watermark."""
    import dreamer.ingest.adapters  # noqa: F401  (registers every adapter)

    defaults = defaults or Defaults()
    limits = limits or Limits.from_env()
    out = PullReport()
    for spec in specs:
        source = resolve(spec, base)
        if not source.path.exists():
            out.sources.append({"source": source.key, "path": shown_path(source.path),
                                "missing": True, "read": 0, "unchanged": 0})
            continue
        started = time.time_ns()
        files = collect([source.path], out.report.skipped)
        mark = store.watermarks.get(source.key)
        since = mark.mtime_ns if mark is not None else -1
        stamps = {path: _mtime_ns(path) for path in files}
        changed = [path for path in files if stamps[path] > since]
        for path in changed:
            ingest_file(store, path, defaults, "auto", out.report, limits)
        newest = min(max((stamps[p] for p in changed), default=since), started - CLOCK_SLACK_NS)
        store.watermarks.move(source.key, max(newest, since, 0), len(files))
        out.sources.append({"source": source.key, "path": shown_path(source.path),
                            "missing": False, "read": len(changed),
                            "unchanged": len(files) - len(changed)})
    return out


def _mtime_ns(path: Path) -> int:
    try:
        if is_events_folder(path):
            return max((os.stat(path / name).st_mtime_ns for name in os.listdir(path)),
                       default=0)
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0
