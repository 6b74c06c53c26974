"""What every dreaming stage shares: its context, its result, the registry, and the bank editor
through which a stage derives a new bank without touching its input."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from dreamer.embeddings import text_of
from dreamer.models import (
    Bank,
    Citation,
    CitationKind,
    Lineage,
    Link,
    Memory,
    MemoryStatus,
    MemoryType,
    ProvenanceEntry,
    Scope,
    Session,
    Usage,
    shared,
)
from dreamer.registry import Registry
from dreamer.stages.similarity import Similarity

if TYPE_CHECKING:
    from dreamer.stages.judges import Judge


class StageConfig(BaseModel):
    """Base of every stage's nested ``Config``: frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass
class StageContext:
    """What a stage may use besides the bank. The LM travels here, never in global state."""

    similarity: Similarity = field(default_factory=Similarity)
    lm: Any | None = None
    """A ``dspy.LM``; None runs every stage's offline implementation."""
    lm_usage: Any | None = None
    """The run's ``dreamer.lm.LMUsage``: every LM call, failure and fallback of every stage."""
    program: Any | None = None
    """The dream program (``dreamer.programs.DreamProgram``) whose modules the stages call;
    None: a fresh, uncompiled one."""
    skills_dir: Path | None = None
    """Where promotion writes skill checklists; None: ``settings.home()/skills``."""
    sessions: Mapping[str, Session] = field(default_factory=dict)
    """Sessions cited by the bank (without events), for branches and times; may be empty."""
    now: datetime | None = None
    """The dream's present: the newest evidence among the input's active memories (the
    pipeline sets it, so each shard of a dream decays memories against the same present);
    None: the newest among the memories a stage sees."""


@dataclass(frozen=True)
class StageResult:
    """A stage's output: the new bank, one provenance entry per change, and counts."""

    bank: Bank
    provenance: tuple[ProvenanceEntry, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict)


class Stage:
    """A dreaming stage: ``run(bank, context) -> StageResult``. Subclasses define ``Config``."""

    name: ClassVar[str] = ""
    Config: ClassVar[type[StageConfig]] = StageConfig
    embeds: ClassVar[bool] = False
    """Whether ``run`` asks ``context.similarity`` for vectors of active memories' texts."""

    def __init__(self, config: StageConfig | None = None) -> None:
        self.config = config if config is not None else self.Config()

    def run(self, bank: Bank, context: StageContext) -> StageResult:  # pragma: no cover
        raise NotImplementedError


STAGES: Registry[type[Stage]] = Registry("dreaming stage")
"""Every stage class by its registered name."""


def stage(name: str):  # type: ignore[no-untyped-def]
    """Register a stage class under ``name`` (and give it that name)."""

    def decorate(cls: type[Stage]) -> type[Stage]:
        cls.name = name
        return STAGES.register(name)(cls)

    return decorate


Action = Literal["created", "merged", "superseded", "dormant", "split", "changed", "linked"]


class BankEditor:
    """Accumulates one stage's changes to a bank and builds the new, sorted bank.

    Memories are never removed: a replaced memory stays with a new status and a link saying
    where it went, so every input can be followed.
    """

    def __init__(self, bank: Bank, stage_name: str) -> None:
        self._bank = bank
        self._stage = stage_name
        self._memories: dict[str, Memory] = {m.id: m for m in bank.memories}
        self._provenance: list[ProvenanceEntry] = []
        self.counts: dict[str, int] = {}

    def active(self, types: Iterable[str] | None = None) -> list[Memory]:
        """Active memories (optionally of some types), sorted by id for determinism."""
        wanted = set(types) if types is not None else None
        return sorted(
            (m for m in self._memories.values()
             if m.is_active and (wanted is None or m.type.value in wanted)),
            key=lambda m: m.id,
        )

    def get(self, memory_id: str) -> Memory:
        return self._memories[memory_id]

    def record(self, action: Action, inputs: Iterable[str], output: str | None,
               reason: str) -> None:
        """One provenance entry, and one more in this action's count."""
        self._provenance.append(ProvenanceEntry(
            stage=self._stage, action=action, inputs=tuple(inputs), output=output, reason=reason,
        ))
        self.counts[action] = self.counts.get(action, 0) + 1

    def update(self, memory: Memory, **changes: Any) -> Memory:
        """Replace ``memory``'s state (status, links, tags, confidence); its id stays the same."""
        if "links" in changes:
            changes["links"] = tuple(shared(link) for link in changes["links"])
        new = memory.model_copy(update=changes)
        self._memories[memory.id] = new
        return new

    def derive(
        self, parents: list[Memory], *, summary: str, reason: str, action: Action,
        conditions: tuple[str, ...] | None = None, retire: bool = True,
        citations: tuple[Citation, ...] | None = None, **fields: Any,
    ) -> Memory:
        """A new active memory made from ``parents``; the parents become superseded by it
        (with ``retire=False`` they stay active, linked ``derived_into`` it).

        It keeps every citation, tag and link of its parents (no memory without evidence), and
        its lineage names them. If an identical memory exists already, the parents point at it.
        ``citations`` (compression only) lists a subset instead: the parents keep the rest.
        """
        base = max(parents, key=lambda m: (len(m.citations), m.confidence, m.id))
        parent_ids = tuple(sorted(m.id for m in parents))
        times = [m.created_at for m in parents if m.created_at is not None]
        usage = Usage(**{k: sum(getattr(m.usage, k) for m in parents)
                         for k in ("retrieved", "helped", "hurt")})
        child = Memory(
            type=fields.pop("type", base.type),
            scope=fields.pop("scope", base.scope),
            summary=summary,
            conditions=conditions if conditions is not None else base.conditions,
            citations=citations or union_citations(sorted(parents, key=lambda m: m.id)),
            confidence=fields.pop("confidence", max(m.confidence for m in parents)),
            created_at=max(times) if times else None,
            usage=usage,
            links=_union_links(parents, exclude=set(parent_ids)),
            lineage=Lineage(parents=parent_ids, stage=self._stage, reason=reason),
            tags=tuple(sorted({t for m in parents for t in m.tags})),
            **fields,
        )
        if child.id in parent_ids:
            return child  # the "new" memory is one of its parents: nothing changes
        existing = self._memories.get(child.id)
        if existing is None or not existing.is_active:
            self._memories[child.id] = child
        for parent in parents:
            if retire:
                self.supersede(parent, child.id)
            else:
                self.add_links(parent, [Link(relation="derived_into", target=child.id)])
        self.record(action, parent_ids, child.id, reason)
        return self._memories[child.id]

    def supersede(self, memory: Memory, by: str, extra_links: tuple[Link, ...] = ()) -> None:
        """Mark ``memory`` superseded by memory ``by`` (it stays in the bank)."""
        current = self._memories[memory.id]
        links = tuple(sorted({*current.links, Link(relation="superseded_by", target=by),
                              *extra_links}, key=_link_key))
        self.update(current, status=MemoryStatus.SUPERSEDED, links=links)

    def add_links(self, memory: Memory, links: Iterable[Link]) -> int:
        """Add links to ``memory``; returns how many were new."""
        current = self._memories[memory.id]
        new = set(links) - set(current.links)
        if new:
            self.update(current, links=tuple(sorted({*current.links, *new}, key=_link_key)))
        return len(new)

    def result(self, **metrics: Any) -> StageResult:
        """The new bank (memories sorted by id), the provenance and this stage's counts."""
        memories = tuple(sorted(self._memories.values(), key=lambda m: m.id))
        bank = self._bank.model_copy(update={"memories": memories})
        return StageResult(bank=bank, provenance=tuple(self._provenance),
                           metrics={**dict(sorted(self.counts.items())), **metrics})


def union_citations(memories: Iterable[Memory]) -> tuple[Citation, ...]:
    """Every citation of ``memories``, each once, in order of first appearance (callers pass
    memories in a deterministic order, so the result is stable)."""
    seen: dict[str, Citation] = {}
    for memory in memories:
        for citation in memory.citations:
            seen.setdefault(citation.model_dump_json(), citation)
    return tuple(seen.values())


def _union_links(memories: Iterable[Memory], exclude: set[str]) -> tuple[Link, ...]:
    links = {link for m in memories for link in m.links
             if link.target not in exclude and link.relation != "superseded_by"}
    return tuple(sorted(links, key=_link_key))


def _link_key(link: Link) -> tuple[str, str]:
    return (link.relation, link.target)


def common_scope(group: Iterable[Memory]) -> Scope:
    """The narrowest scope covering every memory of ``group``: fields they disagree on become
    "any" (``repo`` is always shared: callers never group across repositories)."""
    members = list(group)
    first = members[0].scope
    shared = {
        name: getattr(first, name)
        for name in ("branch", "module", "phase", "owner")
        if all(getattr(m.scope, name) == getattr(first, name) for m in members)
    }
    return Scope(repo=first.repo, **shared)


def make_judge(context: StageContext) -> Judge | None:
    """The LM judge of ``context``, or None offline (DSPy is imported only with an LM)."""
    if context.lm is None:
        return None
    from dreamer.stages.judges import Judge

    if context.lm_usage is None:
        from dreamer.lm import usage_for

        context.lm_usage = usage_for(context.lm)
    if context.program is None:
        from dreamer.programs import DreamProgram

        context.program = DreamProgram()
    return Judge(context.lm, usage=context.lm_usage, program=context.program)


def commits_of(memory: Memory) -> tuple[str, ...]:
    """The commits a memory's evidence names (commit citations, then files' commits), sorted."""
    found = {c.ref for c in memory.citations if c.kind.value == "commit"}
    found |= {c.commit for c in memory.citations if c.commit}
    return tuple(sorted(found))


def session_of(citation: Citation) -> str | None:
    """The session a citation points into (``ses_x`` of ``ses_x:12``), None for other kinds."""
    if citation.kind is not CitationKind.SESSION:
        return None
    return citation.ref.split(":", 1)[0]


def sessions_of(memory: Memory) -> frozenset[str]:
    """The sessions a memory's evidence comes from."""
    return frozenset(s for s in map(session_of, memory.citations) if s)


_SIGNALS = frozenset({CitationKind.REVIEW, CitationKind.DEFECT})
_FAILED = re.compile(r"\b(?:fail(?:s|ed|ing|ure)?|error|exception|regression|broke|reverted)\b",
                     re.IGNORECASE)


def taught_sessions(bank: Bank) -> frozenset[str]:
    """Sessions some lesson (any memory that is not an episode) was learnt from, whatever
    became of that lesson since."""
    return frozenset().union(*(sessions_of(m) for m in bank.memories
                               if m.type is not MemoryType.EPISODIC))


def routine(memory: Memory, taught: frozenset[str]) -> str | None:
    """Why ``memory`` is a routine episode (a session retold with no correctness signal: no
    review or defect cited, no failure in its text, no lesson learnt from its sessions), or
    None when it is not one."""
    if memory.type is not MemoryType.EPISODIC:
        return None
    if any(c.kind in _SIGNALS for c in memory.citations) or _FAILED.search(memory.summary):
        return None
    if sessions_of(memory) & taught:
        return None
    return ("routine: an episode with no failing test, review or defect, and no lesson "
            "learnt from its sessions")


def memory_text(memory: Memory) -> str:
    """The text similarity and judgement look at: summary and conditions."""
    return text_of(memory.summary, memory.conditions)
