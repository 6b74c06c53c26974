"""A candidate memory: what a backend proposes, with what the write gate needs to judge it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from dreamer.extract.citations import HASH_UNKNOWN_TAG
from dreamer.extract.injection import InjectionFinding
from dreamer.extract.secrets import redact
from dreamer.models import Citation, CitationKind, Lineage, Memory, MemoryType, Scope

INJECTION_TAG = "injection"
"""Tag of a memory whose evidence contained text addressed to the memory writer."""

Confirmation = str
"""``test`` (a test run showed it), ``review``, ``defect``, ``incident`` (a failure happened),
``observation`` (the session showed the stated fact in a file's lines)."""


@dataclass
class Candidate:
    """A proposed memory before the write gate, with the facts the gate decides on."""

    type: MemoryType
    summary: str
    session_id: str
    source_seq: int | None
    """The event it was written from (a rejection is recorded against it)."""
    rule: str
    """Which rule or backend proposed it: ``failure``, ``command``, ``review``, ``lm``, ..."""
    repo: str
    branch: str | None = None
    module: str | None = None
    phase: str | None = None
    conditions: list[str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    confirmed_by: set[Confirmation] = field(default_factory=set)
    affects_correctness: bool = False
    not_in_source: bool = False
    """Knowledge the code does not show: a command, an env var, a cross-module test."""
    injections: list[InjectionFinding] = field(default_factory=list)
    corroborated: bool = False
    """For a candidate carrying injected text: another event independently supports it."""
    hash_unknown: bool = False
    confidence: float = 0.5
    created_at: datetime | None = None
    tags: list[str] = field(default_factory=list)
    reason: str | None = None
    """Why it was kept, beyond its rule (``confirmed by observation: ...``): the lineage says it."""

    def cite(self, citation: Citation) -> None:
        """Add a citation once."""
        if citation not in self.citations:
            self.citations.append(citation)

    @property
    def cites_code_or_tests(self) -> bool:
        return any(c.kind is not CitationKind.SESSION for c in self.citations)


@dataclass(frozen=True)
class Written:
    """A candidate turned into a memory, and the secrets removed on the way."""

    memory: Memory
    redacted: Counter[str]


def _clean(text: str, found: Counter[str]) -> str:
    result = redact(text)
    found.update(result.found)
    return result.text


def to_memory(candidate: Candidate) -> Written:
    """The memory a kept candidate becomes, every text field passed through redaction."""
    found: Counter[str] = Counter()
    citations = tuple(
        c.model_copy(update={"ref": _clean(c.ref, found)})
        if c.kind in (CitationKind.TEST, CitationKind.REVIEW, CitationKind.DEFECT)
        else c
        for c in candidate.citations
    )
    tags = set(candidate.tags)
    if candidate.injections:
        tags.add(INJECTION_TAG)
    if candidate.hash_unknown:
        tags.add(HASH_UNKNOWN_TAG)
    memory = Memory(
        type=candidate.type,
        scope=Scope(
            repo=candidate.repo,
            branch=candidate.branch,
            module=candidate.module,
            phase=candidate.phase,
        ),
        summary=_clean(candidate.summary, found),
        conditions=tuple(_clean(c, found) for c in candidate.conditions),
        citations=citations,
        confidence=candidate.confidence,
        created_at=candidate.created_at,
        lineage=Lineage(
            stage="extract",
            reason=f"{candidate.rule} rule"
            + (f"; {_clean(candidate.reason, found)}" if candidate.reason else ""),
        ),
        tags=tuple(sorted(tags)),
    )
    return Written(memory, found)


def clip(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks the cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
