"""Fusion and reranking: from the legs' ranked lists to one ordered candidate list.

**Fusion** (weighted reciprocal rank fusion): ``rrf(m) = sum over legs of w_leg / (k + rank)``,
ranks from 1, ``k = RouterConfig.rrf_k`` (60); BM25 and vectors weigh 1, graph neighbours
``RouterConfig.graph_weight`` (0.5). A memory found by no leg (small scopes are filled in whole)
has ``rrf = 0``.

**Rerank**: ``score = w_rel * relevance + w_ev * evidence + w_fresh * freshness
+ w_use * usefulness + w_conf * confidence`` with the weights of ``RerankWeights``, where

- ``relevance = rrf / max rrf`` over the candidates (0 when nothing matched);
- ``evidence = 1 - exp(-E / 2)``, ``E`` the sum of citation weights: test, review, defect 1.0;
  a file with a line hash 0.6 (0.4 without); commit 0.5; session 0.3. Two tests ~ 0.63;
- ``freshness = 0.5 ** (age_days / half_life)``, age of the memory's latest evidence or
  verification, measured from the bank's newest memory (not the wall clock, so the same bank
  ranks the same way on any day); 0.5 when unknown;
- ``usefulness = (helped - hurt) / (helped + hurt + 2)``, in (-1, 1): the ``+2`` is a prior of one
  help and one hurt, so one report moves it by a third, not all the way;
- ``confidence`` is the memory's own.

Verification then demotes: stale memories rank after every other one (see ``core.py``). Ties are
broken by memory id, so the order is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from dreamer.models import CitationKind, Memory, Usage
from dreamer.router.config import RouterConfig

_CITATION_WEIGHT = {
    CitationKind.TEST: 1.0, CitationKind.REVIEW: 1.0, CitationKind.DEFECT: 1.0,
    CitationKind.COMMIT: 0.5, CitationKind.SESSION: 0.3,
}


def fuse(
    rankings: Sequence[Sequence[int]], k: int, weights: Sequence[float] | None = None
) -> dict[int, float]:
    """Weighted reciprocal rank fusion of ranked lists of positions (weights default to 1)."""
    fused: dict[int, float] = {}
    for leg, ranking in enumerate(rankings):
        weight = weights[leg] if weights is not None else 1.0
        for rank, position in enumerate(ranking, start=1):
            fused[position] = fused.get(position, 0.0) + weight / (k + rank)
    return fused


def evidence_strength(memory: Memory) -> float:
    """How strongly a memory's citations support it, in [0, 1)."""
    total = 0.0
    for c in memory.citations:
        if c.kind is CitationKind.FILE:
            total += 0.6 if c.lines_sha256 else 0.4
        else:
            total += _CITATION_WEIGHT.get(c.kind, 0.3)
    return 1.0 - math.exp(-total / 2.0)


def freshness(memory: Memory, reference: datetime | None, half_life_days: float) -> float:
    """Exponential decay of the memory's age relative to ``reference``."""
    verified_at = memory.last_verified.at if memory.last_verified else None
    times = [t for t in (memory.created_at, verified_at) if t is not None]
    if not times or reference is None:
        return 0.5
    latest = max(as_utc(t) for t in times)
    age_days = max(0.0, (as_utc(reference) - latest).total_seconds() / 86400.0)
    return float(0.5 ** (age_days / half_life_days))


def usefulness(usage: Usage) -> float:
    """Smoothed (helped - hurt), in (-1, 1)."""
    return (usage.helped - usage.hurt) / (usage.helped + usage.hurt + 2)


@dataclass(frozen=True)
class Features:
    relevance: float
    evidence: float
    freshness: float
    usefulness: float
    confidence: float


@dataclass(frozen=True)
class Scored:
    """A candidate with its rerank score and the features behind it."""

    position: int
    memory_id: str
    score: float
    features: Features


def rerank(
    fused: Mapping[int, float], memories: Sequence[Memory], ids: Sequence[str],
    usage: Mapping[str, Usage], reference: datetime | None, config: RouterConfig,
) -> list[Scored]:
    """Score the candidates in ``fused`` (position -> rrf) and order them best first."""
    top = max(fused.values(), default=0.0)
    w = config.weights
    scored: list[Scored] = []
    for position, rrf in fused.items():
        memory, mid = memories[position], ids[position]
        f = Features(
            relevance=rrf / top if top > 0 else 0.0,
            evidence=evidence_strength(memory),
            freshness=freshness(memory, reference, config.freshness_half_life_days),
            usefulness=usefulness(usage.get(mid, memory.usage)),
            confidence=memory.confidence,
        )
        score = (w.relevance * f.relevance + w.evidence * f.evidence + w.freshness * f.freshness
                 + w.usefulness * f.usefulness + w.confidence * f.confidence)
        scored.append(Scored(position, mid, round(score, 9), f))
    scored.sort(key=lambda s: (-s.score, s.memory_id))
    return scored


def as_utc(value: datetime) -> datetime:
    """``value`` with UTC assumed when it carries no time zone."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)
