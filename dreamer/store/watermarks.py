"""How far each pulled source has been read: one watermark per source (a folder, or an agent's
standard place such as ``claude-code``), so a nightly pull reads only what changed since."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from dreamer.store.schema import WatermarkRow


@dataclass(frozen=True)
class Watermark:
    """The newest modification time (ns since the epoch) of what a source has given, the
    number of files it had, and when it was pulled."""

    source: str
    mtime_ns: int
    files: int
    at: datetime


class WatermarkStore:
    """Read and move the per-source watermarks."""

    def __init__(self, sessions: sessionmaker[DbSession]) -> None:
        self._sessions = sessions

    def get(self, source: str) -> Watermark | None:
        with self._sessions() as db:
            row = db.get(WatermarkRow, source)
            return _mark(row) if row is not None else None

    def move(self, source: str, mtime_ns: int, files: int) -> Watermark:
        """Set ``source``'s watermark (it never moves back)."""
        now = datetime.now(UTC)
        with self._sessions.begin() as db:
            row = db.get(WatermarkRow, source, with_for_update=True)
            if row is None:
                row = WatermarkRow(source=source, mtime_ns=mtime_ns, files=files, at=now)
                db.add(row)
            else:
                row.mtime_ns, row.files, row.at = max(row.mtime_ns, mtime_ns), files, now
            db.flush()
            return _mark(row)

    def all(self) -> list[Watermark]:
        with self._sessions() as db:
            return [_mark(r) for r in db.scalars(select(WatermarkRow).order_by(
                WatermarkRow.source))]


def _mark(row: WatermarkRow) -> Watermark:
    at = row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)
    return Watermark(row.source, int(row.mtime_ns), row.files, at)
