"""The evidence store: raw trajectory files verbatim, and the sessions normalised from them.

Append-only: this API can add a file, its sessions and its quarantine record, and read them back.
It offers no way to update or delete evidence. A file is either ingested whole (blob, ingestion
record, sessions and events in one transaction) or quarantined whole (blob and reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from dreamer.errors import AmbiguousIdError, EvidenceImmutableError, NotFoundError
from dreamer.models import Event, EventKind, Session, sha256_bytes
from dreamer.store import versions
from dreamer.store.schema import Blob, EventRow, Ingestion, SessionRow


@dataclass(frozen=True)
class IngestionRecord:
    """What happened to one raw file."""

    sha256: str
    source_path: str
    status: Literal["ingested", "quarantined"]
    source_format: str | None
    reason: str | None
    location: str | None
    sessions: int
    at: datetime


@dataclass(frozen=True)
class AddResult:
    """The outcome of offering one file to the store."""

    sha256: str
    status: Literal["ingested", "quarantined", "duplicate"]
    sessions: tuple[str, ...] = ()
    """The sessions the file added."""
    previous: IngestionRecord | None = None
    """For a duplicate: what happened the first time."""
    extended: tuple[str, ...] = ()
    """Stored sessions the file extended (a later version of a live log)."""
    covered: tuple[str, ...] = ()
    """Stored sessions that already held every event of the file's session."""


class EvidenceStore:
    """Append-only access to blobs, ingestions, sessions and events."""

    def __init__(self, sessions: sessionmaker[DbSession]) -> None:
        self._sessions = sessions

    # ------------------------------------------------------------------ writing

    def add_ingested(
        self, data: bytes, source_path: str, source_format: str, sessions: Sequence[Session]
    ) -> AddResult:
        """Store ``data`` verbatim with its normalised sessions, all in one transaction.

        A file already in the store (by sha256) is a duplicate: nothing is written. A session
        whose native id is stored already extends that session (``dreamer.store.versions``).
        """
        sha = sha256_bytes(data)
        for s in sessions:
            if s.raw_sha256 != sha:
                raise EvidenceImmutableError(
                    f"session {s.id} names raw file {s.raw_sha256}, "
                    f"not the file being stored ({sha})"
                )
        now = datetime.now(UTC)
        with self._sessions.begin() as db:
            previous = self._ingestion(db, sha)
            if previous is not None:
                return AddResult(sha, "duplicate", previous=previous)
            db.add(Blob(sha256=sha, size=len(data), content=data, received_at=now))
            db.flush()
            added: list[str] = []
            extended: list[str] = []
            covered: list[str] = []
            for s in sessions:
                placement, events, row = versions.place(db, s)
                before = row.event_count if row is not None else 0
                if placement.kind == "new":
                    db.add(_session_row(s, now))
                    db.flush()
                    added.append(s.id)
                    version = versions.record_version(db, s.id, sha, s.ordinal, 0, len(events),
                                                      now)
                else:
                    version = versions.record_version(db, placement.session_id, sha, s.ordinal,
                                                      before, before + len(events), now)
                    (extended if placement.kind == "extended" else covered).append(
                        placement.session_id)
                    if row is not None and events:
                        versions.extend_row(row, s, len(events), version)
                db.add_all(_event_row(e) for e in events)
                db.flush()
            db.add(
                Ingestion(
                    sha256=sha,
                    source_path=source_path,
                    status="ingested",
                    source_format=source_format,
                    reason=None,
                    location=None,
                    sessions=len(sessions),
                    at=now,
                )
            )
        return AddResult(sha, "ingested", sessions=tuple(added), extended=tuple(extended),
                         covered=tuple(covered))

    def add_quarantined(
        self, data: bytes, source_path: str, reason: str, location: str | None = None,
        source_format: str | None = None,
    ) -> AddResult:
        """Keep a file that could not be ingested, verbatim, with the reason and where."""
        sha = sha256_bytes(data)
        now = datetime.now(UTC)
        with self._sessions.begin() as db:
            previous = self._ingestion(db, sha)
            if previous is not None:
                return AddResult(sha, "duplicate", previous=previous)
            db.add(Blob(sha256=sha, size=len(data), content=data, received_at=now))
            db.flush()
            db.add(
                Ingestion(
                    sha256=sha,
                    source_path=source_path,
                    status="quarantined",
                    source_format=source_format,
                    reason=reason,
                    location=location,
                    sessions=0,
                    at=now,
                )
            )
        return AddResult(sha, "quarantined")

    # ------------------------------------------------------------------ reading

    def ingestion(self, sha256: str) -> IngestionRecord | None:
        with self._sessions() as db:
            return self._ingestion(db, sha256)

    def ingestions(self, status: str | None = None) -> list[IngestionRecord]:
        stmt = select(Ingestion).order_by(Ingestion.at, Ingestion.sha256)
        if status:
            stmt = stmt.where(Ingestion.status == status)
        with self._sessions() as db:
            return [_record(row) for row in db.scalars(stmt)]

    def quarantined(self) -> list[IngestionRecord]:
        return self.ingestions("quarantined")

    def raw(self, sha256: str) -> bytes:
        """The verbatim bytes of a stored file."""
        with self._sessions() as db:
            blob = db.get(Blob, sha256)
            if blob is None:
                raise NotFoundError(f"no raw file with sha256 {sha256} in the evidence store")
            return bytes(blob.content)

    def sessions(
        self, repo: str | None = None, since: datetime | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Session]:
        """Sessions (without events), oldest first; filtered by repository and ingestion time."""
        stmt = select(SessionRow).order_by(SessionRow.started_at, SessionRow.id)
        if repo:
            stmt = stmt.where(SessionRow.repo == repo)
        if since:
            stmt = stmt.where(SessionRow.ingested_at >= since)
        if ids is not None:
            stmt = stmt.where(SessionRow.id.in_(list(ids)))
        with self._sessions() as db:
            return [_session(row, ()) for row in db.scalars(stmt)]

    def session(self, session_id: str) -> Session:
        """One session with its events, by id or unique id prefix."""
        with self._sessions() as db:
            row = db.get(SessionRow, session_id)
            if row is None:
                matches = list(
                    db.scalars(select(SessionRow).where(SessionRow.id.startswith(session_id)).limit(2))
                )
                if not matches:
                    raise NotFoundError(
                        f"no session {session_id!r}; `dreamer sessions` lists the stored ones"
                    )
                if len(matches) > 1:
                    raise AmbiguousIdError(
                        f"session id prefix {session_id!r} matches several sessions"
                    )
                row = matches[0]
            events = db.scalars(
                select(EventRow).where(EventRow.session_id == row.id).order_by(EventRow.seq)
            )
            return _session(row, tuple(_event(e) for e in events))

    def versions(self, session_id: str) -> list[dict[str, object]]:
        """The files a session was read from, oldest first: version, sha256, ordinal, and the
        events each added."""
        with self._sessions() as db:
            return [{"version": v.version, "sha256": v.raw_sha256, "ordinal": v.ordinal,
                     "events_before": v.events_before, "events_after": v.events_after,
                     "at": _utc(v.at)} for v in versions.versions(db, session_id)]

    def count_sessions(self) -> int:
        with self._sessions() as db:
            return int(db.scalar(select(func.count()).select_from(SessionRow)) or 0)

    @staticmethod
    def _ingestion(db: DbSession, sha256: str) -> IngestionRecord | None:
        row = db.get(Ingestion, sha256)
        return _record(row) if row is not None else None


def _record(row: Ingestion) -> IngestionRecord:
    return IngestionRecord(
        sha256=row.sha256,
        source_path=row.source_path,
        status=row.status,  # type: ignore[arg-type]
        source_format=row.source_format,
        reason=row.reason,
        location=row.location,
        sessions=row.sessions,
        at=row.at,
    )


def _session_row(s: Session, now: datetime) -> SessionRow:
    return SessionRow(
        id=s.id,
        raw_sha256=s.raw_sha256,
        ordinal=s.ordinal,
        source_format=s.source_format,
        source_path=s.source_path,
        repo=s.repo,
        branch=s.branch,
        commit_start=s.commit_start,
        commit_end=s.commit_end,
        started_at=s.started_at,
        ended_at=s.ended_at,
        task_id=s.task_id,
        outcome=s.outcome,
        meta=s.metadata,
        event_count=len(s.events),
        ingested_at=now,
        native_id=str(s.metadata[versions.NATIVE_ID])[:255]
        if s.metadata.get(versions.NATIVE_ID) else None,
        version=1,
    )


def _session(row: SessionRow, events: tuple[Event, ...]) -> Session:
    return Session(
        id=row.id,
        source_format=row.source_format,
        raw_sha256=row.raw_sha256,
        ordinal=row.ordinal,
        source_path=row.source_path,
        repo=row.repo,
        branch=row.branch,
        commit_start=row.commit_start,
        commit_end=row.commit_end,
        started_at=_utc(row.started_at),
        ended_at=_utc(row.ended_at),
        task_id=row.task_id,
        outcome=row.outcome,
        metadata=dict(row.meta or {}) | {"event_count": row.event_count,
                                          "version": row.version or 1},
        events=events,
    )


def _event_row(e: Event) -> EventRow:
    return EventRow(
        session_id=e.session_id,
        seq=e.seq,
        kind=e.kind.value,
        role=e.role,
        text=e.text,
        timestamp=e.timestamp,
        data=e.data,
    )


def _event(row: EventRow) -> Event:
    return Event(
        session_id=row.session_id,
        seq=row.seq,
        kind=EventKind(row.kind),
        role=row.role,
        text=row.text,
        timestamp=_utc(row.timestamp),
        data=dict(row.data or {}),
    )


def _utc(value: datetime | None) -> datetime | None:
    """SQLite drops the zone of stored times; everything dreamer stores is UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value
