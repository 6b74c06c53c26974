"""Live logs: a file whose session is already stored is a new version of that session.

Claude Code appends to one JSONL per session; SWE-agent rewrites its ``.traj`` as it goes. A
session carries its own id in ``metadata["native_id"]`` (``claude-code:<sessionId>``); when a
stored session has the same native id and every one of its events is found again in the new
file (by content: kind, role, text, time and data), the new file extends it: the events the
stored session lacks are appended after its last one (``cause`` references renumbered), its
summary columns (end time, outcome, end commit, event count) follow the newer file, and a
``session_versions`` row records the file. The verbatim file is kept beside the old one, as
evidence. A file whose events are all already stored (an older copy) adds nothing. A file that
shares the id but drops stored events is not an extension: it becomes a session of its own.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session as DbSession

from dreamer.models import Event, Session, canonical_json
from dreamer.store.schema import EventRow, SessionRow, SessionVersionRow

NATIVE_ID = "native_id"
"""The metadata key an adapter's session id is kept under (also the ``sessions`` column)."""


@dataclass(frozen=True)
class Placement:
    """Where a parsed session went: a new session, an extension of a stored one, or nothing
    new (every event already stored)."""

    kind: Literal["new", "extended", "covered"]
    session_id: str
    added: int = 0


def _key(kind: str, role: str | None, text: str, timestamp: datetime | None,
         data: dict[str, Any]) -> str:
    # ``cause`` names a seq, which a longer version may number differently: leave it out.
    stamp = timestamp.replace(tzinfo=None).isoformat() if timestamp else None
    return canonical_json([kind, role, text, stamp,
                           {k: v for k, v in (data or {}).items() if k != "cause"}])


def _stored_key(row: EventRow) -> str:
    return _key(row.kind, row.role, row.text, row.timestamp, row.data)


def _new_key(event: Event) -> str:
    return _key(event.kind.value, event.role, event.text, event.timestamp, event.data)


def place(db: DbSession, session: Session) -> tuple[Placement, list[Event], SessionRow | None]:
    """Where ``session`` goes: (placement, the events to append, the stored row it extends)."""
    native = session.metadata.get(NATIVE_ID)
    if not native:
        return Placement("new", session.id), list(session.events), None
    rows = db.scalars(select(SessionRow).where(SessionRow.native_id == str(native))
                      .order_by(SessionRow.ingested_at))
    for row in rows:
        stored = list(db.scalars(select(EventRow).where(EventRow.session_id == row.id)
                                 .order_by(EventRow.seq)))
        appended = _extension(stored, session.events, row.id)
        if appended is None:
            continue
        if not appended:
            return Placement("covered", row.id), [], row
        return Placement("extended", row.id, len(appended)), appended, row
    return Placement("new", session.id), list(session.events), None


def _extension(stored: list[EventRow], events: tuple[Event, ...],
               session_id: str) -> list[Event] | None:
    """The events of ``events`` to append to ``stored`` (renumbered), or None when ``events``
    does not hold every stored event."""
    waiting: dict[str, deque[int]] = defaultdict(deque)
    for row in stored:
        waiting[_stored_key(row)].append(row.seq)
    matched = 0
    seq_of: dict[int, int] = {}
    new: list[Event] = []
    next_seq = len(stored)
    for event in events:
        queue = waiting.get(_new_key(event))
        if queue:
            seq_of[event.seq] = queue.popleft()
            matched += 1
            continue
        seq_of[event.seq] = next_seq
        new.append(event)
        next_seq += 1
    if matched < len(stored):
        return None
    out = []
    for event in new:
        data = dict(event.data)
        if isinstance(data.get("cause"), int) and data["cause"] in seq_of:
            data["cause"] = seq_of[data["cause"]]
        out.append(event.model_copy(update={"session_id": session_id, "seq": seq_of[event.seq],
                                            "data": data}))
    return out


def record_version(db: DbSession, session_id: str, raw_sha256: str, ordinal: int,
                   before: int, after: int, now: datetime) -> int:
    """Add the ``session_versions`` row of one file's contribution; returns its version."""
    count = db.scalar(select(func.count()).select_from(SessionVersionRow)
                      .where(SessionVersionRow.session_id == session_id)) or 0
    version = int(count) + 1
    db.add(SessionVersionRow(session_id=session_id, version=version, raw_sha256=raw_sha256,
                             ordinal=ordinal, events_before=before, events_after=after, at=now))
    return version


def extend_row(row: SessionRow, session: Session, added: int, version: int) -> None:
    """The stored session's summary after a later version added ``added`` events."""
    row.event_count = row.event_count + added
    row.version = version
    if session.ended_at and (row.ended_at is None or _naive(session.ended_at) > _naive(
            row.ended_at)):
        row.ended_at = session.ended_at
    row.outcome = session.outcome or row.outcome
    row.commit_end = session.commit_end or row.commit_end
    row.meta = {**(row.meta or {}), **{k: v for k, v in session.metadata.items()
                                       if k not in ("warnings",)}}


def _naive(moment: datetime) -> datetime:
    return moment.replace(tzinfo=None)


def versions(db: DbSession, session_id: str) -> list[SessionVersionRow]:
    """The files of a session, oldest first."""
    return list(db.scalars(select(SessionVersionRow).where(
        SessionVersionRow.session_id == session_id).order_by(SessionVersionRow.version)))
