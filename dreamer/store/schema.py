"""The store's tables (SQLAlchemy 2). Alembic migrations in ``migrations/`` create them.

Evidence tables are append-only by API: the repositories in this package only ever insert.
Memory bodies are content-addressed (``memory_records``), so bank versions that share memories
share rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Blob(Base):
    """A raw trajectory file, verbatim, addressed by its sha256."""

    __tablename__ = "blobs"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Ingestion(Base):
    """The outcome of ingesting one blob: ingested (with a format) or quarantined (with why)."""

    __tablename__ = "ingestions"
    sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256"), primary_key=True)
    source_path: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))  # ingested | quarantined
    source_format: Mapped[str | None] = mapped_column(String(64))
    reason: Mapped[str | None] = mapped_column(Text)
    location: Mapped[str | None] = mapped_column(Text)
    sessions: Mapped[int] = mapped_column(Integer, default=0)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    raw_sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256"), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)
    source_format: Mapped[str] = mapped_column(String(64))
    source_path: Mapped[str | None] = mapped_column(Text)
    repo: Mapped[str | None] = mapped_column(String(255), index=True)
    branch: Mapped[str | None] = mapped_column(String(255))
    commit_start: Mapped[str | None] = mapped_column(String(64))
    commit_end: Mapped[str | None] = mapped_column(String(64))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    task_id: Mapped[str | None] = mapped_column(String(255))
    outcome: Mapped[str | None] = mapped_column(String(64))
    meta: Mapped[dict[str, Any]] = mapped_column("metadata", JSON, default=dict)
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    ingested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    native_id: Mapped[str | None] = mapped_column(String(255), index=True)
    """The session's own id in its format (``claude-code:<sessionId>``): a later file with the
    same id is a new version of this session (a live log that grew)."""
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    """How many files have contributed to it; extraction records the version it read."""


class SessionVersionRow(Base):
    """One file that contributed to a session: the first, or a later version that extended it.

    Append-only like the rest of the evidence: the events a version added are appended to the
    session's events (``events_before`` .. ``events_after``), never rewritten."""

    __tablename__ = "session_versions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    raw_sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256"))
    ordinal: Mapped[int] = mapped_column(Integer)
    """The session's position in that file."""
    events_before: Mapped[int] = mapped_column(Integer)
    events_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WatermarkRow(Base):
    """How far a pulled source has been read: the newest modification time ingested."""

    __tablename__ = "source_watermarks"
    source: Mapped[str] = mapped_column(String(512), primary_key=True)
    mtime_ns: Mapped[int] = mapped_column(BigInteger)
    files: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    __tablename__ = "events"
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    role: Mapped[str | None] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    timestamp: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class MemoryRecord(Base):
    """A memory's full body, addressed by (memory id, state hash)."""

    __tablename__ = "memory_records"
    record_hash: Mapped[str] = mapped_column(String(80), primary_key=True)
    memory_id: Mapped[str] = mapped_column(String(40), index=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)


class BankRow(Base):
    __tablename__ = "banks"
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    repo: Mapped[str | None] = mapped_column(String(255), index=True)
    parent_id: Mapped[str | None] = mapped_column(String(40))
    origin: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    memory_count: Mapped[int] = mapped_column(Integer)
    active_count: Mapped[int] = mapped_column(Integer)


class BankMember(Base):
    __tablename__ = "bank_members"
    bank_id: Mapped[str] = mapped_column(ForeignKey("banks.id"), primary_key=True)
    record_hash: Mapped[str] = mapped_column(
        ForeignKey("memory_records.record_hash"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer)


class AliasRow(Base):
    """Where an alias points now. Its history is in ``alias_moves``."""

    __tablename__ = "aliases"
    repo: Mapped[str] = mapped_column(String(255), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    bank_id: Mapped[str] = mapped_column(ForeignKey("banks.id"))
    moved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AliasMoveRow(Base):
    __tablename__ = "alias_moves"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(255))
    name: Mapped[str] = mapped_column(String(64))
    from_bank: Mapped[str | None] = mapped_column(String(40))
    to_bank: Mapped[str] = mapped_column(String(40))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(Text, default="")
    actor: Mapped[str] = mapped_column(String(255), default="")


Index("ix_alias_moves_repo_name", AliasMoveRow.repo, AliasMoveRow.name, AliasMoveRow.id)


class LockRow(Base):
    """A named lock held by one run (e.g. ``promote:<repo>``); expired locks may be taken over."""

    __tablename__ = "locks"
    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    holder: Mapped[str] = mapped_column(String(255))
    acquired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GateDecisionRow(Base):
    """A recorded gate decision: which candidate against which production, and why."""

    __tablename__ = "gate_decisions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(255), index=True)
    candidate: Mapped[str] = mapped_column(String(40))
    production: Mapped[str | None] = mapped_column(String(40))
    passed: Mapped[bool] = mapped_column(Boolean)
    promoted: Mapped[bool] = mapped_column(Boolean, default=False)
    reasons: Mapped[list[Any]] = mapped_column(JSON)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
