"""Feedback and observations: what the router and its users report about served memories.

Every event is one appended row (``records.py``): ``retrieved`` when the router serves a
memory, ``helped`` / ``hurt`` when the harness or an agent reports on a task, and one
verification row per memory checked against a checkout. ``observations()`` sums them per memory;
the reranker reads it (usefulness), and forgetting can read it (unused or stale for long).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import func, insert, select, update

from dreamer.models import Usage
from dreamer.router.errors import RouterError
from dreamer.router.records import FeedbackRecord, UsageRecord, VerificationRecord

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection
    from sqlalchemy.orm import Session

    from dreamer.router.verify import MemoryCheck
    from dreamer.store import Store

Signal = Literal["retrieved", "helped", "hurt"]
SIGNALS: tuple[Signal, ...] = ("retrieved", "helped", "hurt")


@dataclass(frozen=True)
class Observations:
    """What the store knows about one memory's use and verification, summed over its history."""

    retrieved: int = 0
    helped: int = 0
    hurt: int = 0
    verified: int = 0
    """Checks that found every cited line in place or relocated."""
    stale: int = 0
    last_state: str | None = None
    last_checked: datetime | None = None

    @property
    def usage(self) -> Usage:
        return Usage(retrieved=self.retrieved, helped=self.helped, hurt=self.hurt)


def record_feedback(
    store: Store, memory_ids: Iterable[str], signal: Signal, *, bank_id: str | None = None,
    repo: str | None = None, task_id: str | None = None, source: str = "agent", note: str = "",
) -> int:
    """Append one event per memory id; returns how many were recorded."""
    if signal not in SIGNALS:
        raise RouterError(f"unknown feedback signal {signal!r}: use one of {', '.join(SIGNALS)}")
    now = datetime.now(UTC)
    rows = [
        FeedbackRecord(memory_id=mid, signal=signal, bank_id=bank_id, repo=repo, task_id=task_id,
                       source=source, note=note, at=now)
        for mid in dict.fromkeys(memory_ids)  # once per memory per report, order kept
    ]
    with store.sessions.begin() as db:
        db.add_all(rows)
        _add_usage(db.connection(), [(row.memory_id, signal) for row in rows])
    return len(rows)


@dataclass(frozen=True)
class RecallRecord:
    """What one recall did, to append (``record_recalls``): the memories it served and the
    checks of their cited lines, with when it was answered."""

    served: tuple[str, ...]
    checks: tuple[MemoryCheck, ...]
    bank_id: str
    repo: str
    checkout: Path | None
    commit: str | None
    task_id: str | None = None
    at: datetime = field(default_factory=lambda: datetime.now(UTC))


def record_recall(
    store: Store, *, served: Sequence[str], checks: Sequence[MemoryCheck], bank_id: str,
    repo: str, checkout: Path | None, commit: str | None, task_id: str | None = None,
) -> None:
    """Append what one recall did: a ``retrieved`` event per served memory and a verification
    row per memory checked, in one transaction."""
    record_recalls(store, [RecallRecord(tuple(served), tuple(checks), bank_id, repo, checkout,
                                        commit, task_id)])


def record_recalls(store: Store, recalls: Sequence[RecallRecord]) -> None:
    """Append what ``recalls`` did in one transaction: a burst's records written together cost
    one commit (a server's background writer hands over all that is pending)."""
    retrieved = [
        {"memory_id": mid, "signal": "retrieved", "bank_id": r.bank_id, "repo": r.repo,
         "task_id": r.task_id, "source": "router", "note": "", "at": r.at}
        for r in recalls for mid in r.served
    ]
    verified = [
        {"memory_id": check.memory_id, "bank_id": r.bank_id, "repo": r.repo,
         "checkout": str(r.checkout or ""), "commit": r.commit, "state": check.state,
         "at": r.at, "details": check.details}
        for r in recalls for check in r.checks if check.state != "unchecked"
    ]
    if not retrieved and not verified:
        return
    # Plain multi-row inserts on the connection: the ORM's unit of work cost a recall ~50 ms
    # for ~30 rows, and even its bulk path collects every row again.
    with store.sessions.begin() as db:
        connection = db.connection()
        if retrieved:
            connection.execute(insert(FeedbackRecord), retrieved)
            _add_usage(connection, [(mid, "retrieved") for r in recalls for mid in r.served])
        if verified:
            connection.execute(insert(VerificationRecord), verified)


def observations(store: Store, memory_ids: Iterable[str] | None = None) -> dict[str, Observations]:
    """Summed feedback and verification history per memory (of ``memory_ids``, or all)."""
    ids = list(dict.fromkeys(memory_ids)) if memory_ids is not None else None
    if ids == []:
        return {}
    counts: dict[str, dict[str, int]] = {}
    last: dict[str, tuple[str, datetime]] = {}
    with store.sessions() as db:
        for chunk in _chunks(ids):
            _count_feedback(db, chunk, counts)
            vr = select(VerificationRecord.memory_id, VerificationRecord.state, func.count(),
                        func.max(VerificationRecord.id))
            if chunk is not None:
                vr = vr.where(VerificationRecord.memory_id.in_(chunk))
            latest: dict[str, int] = {}
            for mid, kind, n, newest in db.execute(vr.group_by(VerificationRecord.memory_id,
                                                                VerificationRecord.state)):
                counts.setdefault(mid, {})[kind] = counts.get(mid, {}).get(kind, 0) + n
                latest[mid] = max(latest.get(mid, 0), newest)
            if latest:
                for row in db.execute(select(VerificationRecord.memory_id, VerificationRecord.state,
                                             VerificationRecord.at)
                                      .where(VerificationRecord.id.in_(list(latest.values())))):
                    last[row[0]] = (row[1], row[2])
    result: dict[str, Observations] = {}
    for mid, c in counts.items():
        state: str | None = last[mid][0] if mid in last else None
        at: datetime | None = last[mid][1] if mid in last else None
        result[mid] = Observations(
            retrieved=c.get("retrieved", 0), helped=c.get("helped", 0), hurt=c.get("hurt", 0),
            verified=c.get("verified", 0) + c.get("relocated", 0), stale=c.get("stale", 0),
            last_state=state, last_checked=at.replace(tzinfo=at.tzinfo or UTC) if at else None,
        )
    return result


def usage_counts(store: Store, memory_ids: Iterable[str] | None = None) -> dict[str, Usage]:
    """Accumulated retrieved / helped / hurt per memory id (of ``memory_ids``, or all), for
    reranking and forgetting: read from the feedback events' sums (``router_usage``), one row
    per memory, whatever the length of its history."""
    ids = list(dict.fromkeys(memory_ids)) if memory_ids is not None else None
    if ids == []:
        return {}
    found: dict[str, Usage] = {}
    query = select(UsageRecord.memory_id, UsageRecord.retrieved, UsageRecord.helped,
                   UsageRecord.hurt)
    with store.sessions() as db:
        for chunk in _chunks(ids):
            chosen = query if chunk is None else query.where(UsageRecord.memory_id.in_(chunk))
            for mid, retrieved, helped, hurt in db.execute(chosen):
                found[mid] = Usage(retrieved=retrieved, helped=helped, hurt=hurt)
    return found


def _add_usage(connection: Connection, events: Sequence[tuple[str, Signal]]) -> None:
    """Add ``events`` (memory id, signal) to their memories' sums, in the caller's transaction
    (the one that appends them): an upsert per memory, in id order, so concurrent writers take
    the rows' locks in one order."""
    sums: dict[str, dict[str, int]] = {}
    for mid, signal in events:
        sums.setdefault(mid, dict.fromkeys(SIGNALS, 0))[signal] += 1
    if not sums:
        return
    values = [{"memory_id": mid, **counts} for mid, counts in sorted(sums.items())]
    dialect = connection.dialect.name
    if dialect in ("postgresql", "sqlite"):
        from sqlalchemy.dialects import postgresql, sqlite

        statement: Any = (postgresql if dialect == "postgresql" else sqlite).insert(UsageRecord)
        statement = statement.on_conflict_do_update(
            index_elements=[UsageRecord.memory_id],
            set_={s: getattr(UsageRecord, s) + getattr(statement.excluded, s) for s in SIGNALS})
        connection.execute(statement, values)
        return
    for row in values:  # another database: an update, else an insert
        added = {s: getattr(UsageRecord, s) + row[s] for s in SIGNALS}
        done = connection.execute(update(UsageRecord).where(
            UsageRecord.memory_id == row["memory_id"]).values(**added))
        if done.rowcount == 0:
            connection.execute(insert(UsageRecord), [row])


def _count_feedback(db: Session, chunk: list[str] | None,
                    counts: dict[str, dict[str, int]]) -> None:
    """Add the feedback signals of ``chunk``'s memories (None: all) to ``counts``."""
    fb = select(FeedbackRecord.memory_id, FeedbackRecord.signal, func.count())
    if chunk is not None:
        fb = fb.where(FeedbackRecord.memory_id.in_(chunk))
    for mid, signal, n in db.execute(fb.group_by(FeedbackRecord.memory_id, FeedbackRecord.signal)):
        counts.setdefault(mid, {})[signal] = n


def _chunks(ids: list[str] | None, size: int = 500) -> Iterable[list[str] | None]:
    # SQLite limits bound parameters per statement; PostgreSQL is happier with bounded IN lists.
    if ids is None:
        yield None
        return
    for start in range(0, len(ids), size):
        yield ids[start:start + size]
