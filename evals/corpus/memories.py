"""Oracle memories (each family's hidden fact, as memories) and the pool random packs draw from.

An oracle memory cites the evidence it would be extracted from: the family's earliest recorded
sessions, the fix commit and the failing test. Random packs for certification draw from the
other families' memories (oracle and failure memories) and the rule memories, never the task's own.
"""

from __future__ import annotations

import random

from dreamer.models import (
    Citation,
    CitationKind,
    Link,
    Memory,
    MemoryPack,
    MemoryType,
    PackedMemory,
    Scope,
)
from dreamer.router import render
from dreamer.tokens import count_tokens
from evals.corpus.errors import CorpusError
from evals.corpus.narrative import RULE_STATEMENTS, SessionRecord
from evals.corpus.spec import Fact, Family
from evals.corpus.timeline import WorkItem
from evals.corpus.validate import TaskTests


def _citations(family: Family, fact: Fact, items: list[WorkItem],
               sessions: list[SessionRecord], tests: dict[str, TaskTests]) -> tuple[Citation, ...]:
    history = _sources(family, fact, items)
    tasks = {i.instance_id for i in history}
    cites: list[Citation] = []
    for record in sorted(sessions, key=lambda r: r.started_at):
        if record.family == family.id and record.evidence and record.task in tasks:
            kind = {"test": CitationKind.SESSION, "review": CitationKind.REVIEW,
                    "defect": CitationKind.DEFECT}[record.evidence[0]]
            cites.append(Citation(kind=kind, ref=record.instance_id))
    first = history[0]
    if first.result_commit:
        cites.append(Citation(kind=CitationKind.COMMIT, ref=first.result_commit))
    f2p = tests[first.instance_id].fail_to_pass
    if f2p:
        cites.append(Citation(kind=CitationKind.TEST, ref=f2p[0]))
    return tuple(cites)


def _sources(family: Family, fact: Fact, items: list[WorkItem]) -> list[WorkItem]:
    """The family's history items that evidence ``fact``."""
    history = [i for i in items if i.family is family and i.history]
    mine = [i for i in history if not fact.sources
            or (i.variant is not None and i.variant.key in fact.sources)]
    if not mine:
        raise CorpusError(f"family {family.id}: a fact cites {fact.sources}, which are not "
                          "history variants of the family")
    return mine


def oracle_memories(family: Family, items: list[WorkItem], sessions: list[SessionRecord],
                    tests: dict[str, TaskTests]) -> tuple[Memory, ...]:
    """The family's hidden fact as memories, cited to the past sessions that show them. Several
    memories of one family are linked to each other (``related``), as a dream's linking would."""
    memories = []
    for fact in family.oracle_facts:
        tasks = {i.instance_id for i in _sources(family, fact, items)}
        ends = [r.ended_at for r in sessions if r.family == family.id and r.task in tasks]
        memories.append(Memory(
            type=MemoryType(fact.type), scope=Scope(repo=family.repo, module=fact.module),
            summary=fact.summary, conditions=fact.conditions,
            citations=_citations(family, fact, items, sessions, tests), confidence=0.9,
            created_at=max(ends) if ends else None, tags=(f"family:{family.id}", "oracle"),
        ))
    if len(memories) < 2:
        return tuple(memories)
    return tuple(m.model_copy(update={"links": tuple(
        Link(relation="related", target=other.id) for other in memories if other is not m)})
        for m in memories)


def failure_memory(family: Family, items: list[WorkItem], sessions: list[SessionRecord],
                   tests: dict[str, TaskTests]) -> Memory:
    """What went wrong in the family's first naive fix: a failure memory for the random pool."""
    first = next(i for i in items if i.family is family and i.history)
    assert first.rendered is not None
    session = next(r for r in sessions if r.instance_id == first.instance_id)
    return Memory(
        type=MemoryType.FAILURE, scope=Scope(repo=family.repo, module=family.module),
        summary=f"Tried to {first.rendered.decoys[0].description} in {first.rendered.edit_path}; "
                f"it did not hold up ({tests[first.instance_id].fail_to_pass[0]}).",
        citations=(Citation(kind=CitationKind.SESSION, ref=session.instance_id),),
        confidence=0.6, created_at=session.ended_at, tags=(f"family:{family.id}", "failure"),
    )


def rule_memories(sessions: list[SessionRecord]) -> list[Memory]:
    """Memories of the rules stated in sessions (their latest version), for the random pool."""
    out = []
    for record in sessions:
        for (repo, tag), text in RULE_STATEMENTS.items():
            if record.repo == repo and tag == "rule_new" and "rule_change" in record.noise \
                    and text.split(" ")[0] in _text(record):
                out.append(Memory(type=MemoryType.DOMAIN, scope=Scope(repo=repo), summary=text,
                                  citations=(Citation(kind=CitationKind.SESSION,
                                                      ref=record.instance_id),),
                                  confidence=0.7, created_at=record.ended_at, tags=("rule",)))
    return out


def _text(record: SessionRecord) -> str:
    return " ".join(step["thought"] for step in record.document.get("trajectory", []))


def pack_of(memories: list[Memory], query: str, budget: int | None = None) -> MemoryPack:
    """A pack holding exactly ``memories`` (rendered as the router renders them)."""
    lines = [render(m) for m in memories]
    text = "\n".join(lines)
    items = tuple(PackedMemory(memory=m, score=m.confidence, tokens=count_tokens(line))
                  for m, line in zip(memories, lines, strict=True))
    return MemoryPack(query=query, budget=budget, items=items, text=text, tokens=count_tokens(text))


def random_pack(pool: list[Memory], exclude_family: str, tokens: int, seed: int,
                query: str) -> MemoryPack:
    """Random memories of other families, as many as fit in ``tokens`` (at least one)."""
    candidates = [m for m in pool if f"family:{exclude_family}" not in m.tags]
    rng = random.Random(seed)
    rng.shuffle(candidates)
    chosen: list[Memory] = []
    for memory in candidates:
        if count_tokens("\n".join(render(m) for m in [*chosen, memory])) <= tokens:
            chosen.append(memory)
    if not chosen and candidates:
        chosen = [min(candidates, key=lambda m: count_tokens(render(m)))]
    return pack_of(chosen, query, budget=tokens)
