"""What extraction records besides banks: which sessions it read, and every rejection with why.

Both tables are append-only, like the evidence: a session is extracted once (into the bank named
in its row), and a rejection stays as the explanation of what the gate refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import DateTime, Integer, String, Text, func, select
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.orm import Session as DbSession

from dreamer.store.schema import Base, SessionRow


class ExtractionRow(Base):
    """One extracted session: the bank its memories went into (None when none was kept)."""

    __tablename__ = "extractions"
    session_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    bank_id: Mapped[str | None] = mapped_column(String(40), index=True)
    backend: Mapped[str] = mapped_column(String(255))
    candidates: Mapped[int] = mapped_column(Integer)
    kept: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    session_version: Mapped[int | None] = mapped_column(Integer)
    """The session's version read (a live log extended later is extracted again); None: 1."""


class RejectionRow(Base):
    """A candidate the gate refused: session and event, the reason, the (redacted) text."""

    __tablename__ = "rejections"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(String(40), index=True)
    event_seq: Mapped[int | None] = mapped_column(Integer)
    memory_type: Mapped[str] = mapped_column(String(32))
    rule: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(64), index=True)
    detail: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def extracted(db: DbSession, session_ids: Iterable[str]) -> set[str]:
    """The ids among ``session_ids`` already extracted at their current version (a live log
    that grew since is extracted again)."""
    ids = list(session_ids)
    found: set[str] = set()
    for start in range(0, len(ids), 500):  # stay under SQLite's bound-parameter limit
        chunk = ids[start : start + 500]
        found |= set(
            db.scalars(
                select(ExtractionRow.session_id)
                .join(SessionRow, SessionRow.id == ExtractionRow.session_id)
                .where(ExtractionRow.session_id.in_(chunk),
                       func.coalesce(ExtractionRow.session_version, 1) >= SessionRow.version)
            )
        )
    return found


def rejections(db: DbSession, session_id: str | None = None) -> list[RejectionRow]:
    """Recorded rejections, oldest first, optionally of one session."""
    stmt = select(RejectionRow).order_by(RejectionRow.id)
    if session_id:
        stmt = stmt.where(RejectionRow.session_id == session_id)
    return list(db.scalars(stmt))
