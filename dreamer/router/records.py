"""The router's append-only observations: each verification and each feedback event.

These tables share ``dreamer.store.schema.Base`` so that Alembic's autogenerate and any
``create_all`` path see one metadata; the migration ``0002_router`` creates them. Rows are only
ever inserted: a memory's usefulness and staleness are sums over its history, never a counter
that is overwritten.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from dreamer.store.schema import Base


class VerificationRecord(Base):
    """One check of one memory's file citations against a working copy."""

    __tablename__ = "router_verifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    memory_id: Mapped[str] = mapped_column(String(40))
    bank_id: Mapped[str | None] = mapped_column(String(40))
    repo: Mapped[str] = mapped_column(String(255))
    checkout: Mapped[str] = mapped_column(Text)
    commit: Mapped[str | None] = mapped_column(String(64))
    """The checkout's HEAD when it is a git working copy."""
    state: Mapped[str] = mapped_column(String(16))  # verified | relocated | stale | unchecked
    details: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """One entry per file citation: its state and, when relocated, where the lines are now."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FeedbackRecord(Base):
    """One event of a memory's use: retrieved by the router, or reported as helped or hurt."""

    __tablename__ = "router_feedback"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    memory_id: Mapped[str] = mapped_column(String(40))
    signal: Mapped[str] = mapped_column(String(16))  # retrieved | helped | hurt
    bank_id: Mapped[str | None] = mapped_column(String(40))
    repo: Mapped[str | None] = mapped_column(String(255))
    task_id: Mapped[str | None] = mapped_column(String(255))
    source: Mapped[str] = mapped_column(String(64), default="")
    """Who reported it: ``router``, ``harness``, ``agent``, ``mcp``, ..."""
    note: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UsageRecord(Base):
    """Each memory's feedback events summed (``router_feedback`` rolled up), kept in step with
    it by the transactions that append to it: a recall reads its candidates' counts in one
    lookup per memory, however long the history (counting the events themselves took a recall
    13 ms at a million events, and grew with them). The events stay the record; the migration
    ``0006_router_usage`` sums the existing ones into it."""

    __tablename__ = "router_usage"
    memory_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    retrieved: Mapped[int] = mapped_column(Integer, default=0)
    helped: Mapped[int] = mapped_column(Integer, default=0)
    hurt: Mapped[int] = mapped_column(Integer, default=0)


Index("ix_router_verifications_memory", VerificationRecord.memory_id, VerificationRecord.id)
Index("ix_router_feedback_memory", FeedbackRecord.memory_id, FeedbackRecord.signal)
