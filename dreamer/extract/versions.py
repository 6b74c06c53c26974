"""Extraction of a session that grew: its memories are written again, never twice.

A live log ingested early and again later is one session whose later version has more events
(``dreamer.store.versions``). Extraction reads it again whole. What it writes again with the
same content is the same memory (a duplicate the gate refuses); what the first reading wrote
and the second no longer does (a failure that was "not resolved" at half length and resolved at
full length) is superseded, with the reason, in the new bank: never deleted, never active twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from dreamer.extract.records import ExtractionRow
from dreamer.models import CitationKind, Lineage, Memory, MemoryStatus

REASON = "re-extracted from a later, longer version of its session"


def read_before(db: DbSession, session_ids: Iterable[str]) -> set[str]:
    """The ids among ``session_ids`` that an earlier extraction read (at an older version)."""
    ids = list(session_ids)
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found |= set(db.scalars(select(ExtractionRow.session_id)
                                .where(ExtractionRow.session_id.in_(chunk))))
    return found


def cites_session(memory: Memory, session_id: str) -> bool:
    """Whether ``memory`` was written from ``session_id`` (a session citation of it)."""
    return any(c.kind is CitationKind.SESSION and c.ref.split(":", 1)[0] == session_id
               for c in memory.citations)


def supersede_unwritten(memories: tuple[Memory, ...], reread: dict[str, set[str]]) -> list[Memory]:
    """``memories`` with each active extracted memory of a re-read session that the new reading
    did not write again (``reread``: session id -> ids written) marked superseded."""
    out: list[Memory] = []
    for memory in memories:
        stale = memory.is_active and memory.lineage.stage == "extract" and any(
            cites_session(memory, sid) and memory.id not in written
            for sid, written in reread.items()
        )
        if stale:
            memory = memory.model_copy(update={
                "status": MemoryStatus.SUPERSEDED,
                "lineage": Lineage(parents=memory.lineage.parents, stage="extract",
                                   reason=f"{memory.lineage.reason or ''}; {REASON}".lstrip("; ")),
            })
        out.append(memory)
    return out
