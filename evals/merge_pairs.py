"""Labelled pairs for dedupe: does the stage merge the memories that state one fact, and only
those?

A corpus knows which fact each recorded session shows (``sessions.jsonl``: ``family``). A memory
extracted from the corpus is labelled with the fact of the sessions it cites when they all show
one fact; a memory of a chore session is its own label (a page size, an API version: a fact of
its own). Two labelled memories of one repository form a pair: *same* when their labels agree
(the same fact, in other words or from other evidence), *different* otherwise (different facts,
often in similar words). ``merge_scores`` runs dedupe's own pair decision
(``Dedupe.would_merge``) on every pair and counts precision and recall of merging; ``sweep``
does it at other ``same`` thresholds, to calibrate.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from dreamer.models import Bank, Memory, MemoryType, Session


@dataclass(frozen=True)
class Pair:
    """Two memories of one repository and whether they state the same fact."""

    a: Memory
    b: Memory
    same: bool


@dataclass(frozen=True)
class MergeScore:
    """How dedupe's decision fares on the labelled pairs."""

    threshold: float
    pairs: int
    same: int
    merged: int
    true_merges: int

    @property
    def precision(self) -> float:
        return self.true_merges / self.merged if self.merged else 1.0

    @property
    def recall(self) -> float:
        return self.true_merges / self.same if self.same else 1.0


def session_facts(corpus: Path) -> dict[str, str]:
    """Session id (trajectory name, format id and ingest ``ses_`` id) -> the fact it shows, or
    ``chore:<name>`` for a session that shows none."""
    labels: dict[str, str] = {}
    for line in (corpus / "sessions.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        label = row.get("family") or f"chore:{row['instance_id']}"
        labels[row["instance_id"]] = label
        if row.get("session_id"):
            labels[str(row["session_id"])] = label
        if row.get("sha256"):
            labels[Session.make_id(row["sha256"], 0)] = label
        elif row.get("file") and (corpus / row["file"]).is_file():
            from dreamer.models import sha256_bytes

            raw = (corpus / row["file"]).read_bytes()
            labels[Session.make_id(sha256_bytes(raw), 0)] = label
    return labels


def label(memory: Memory, facts: dict[str, str]) -> str | None:
    """The fact ``memory`` states, by the sessions it cites; None when they disagree or are
    unknown, and for a memory of the repository's history (it cites the session that saw the
    older value, not one that shows its fact)."""
    if (memory.lineage.reason or "").startswith("history"):
        return None
    seen = {facts.get(c.ref.split(":", 1)[0]) for c in memory.citations
            if c.kind.value == "session"}
    seen.discard(None)
    return seen.pop() if len(seen) == 1 else None  # type: ignore[return-value]


def labelled_pairs(banks: Iterable[Bank], facts: dict[str, str]) -> list[Pair]:
    """Every pair of labelled, non-episodic memories within each bank's repository."""
    pairs: list[Pair] = []
    for bank in banks:
        kept = [(m, lab) for m in bank.memories
                if m.type is not MemoryType.EPISODIC and (lab := label(m, facts)) is not None]
        for (a, la), (b, lb) in combinations(kept, 2):
            if a.scope.repo == b.scope.repo and a.summary != b.summary:
                pairs.append(Pair(a, b, la == lb))
    return pairs


def merge_scores(pairs: Sequence[Pair], threshold: float | None = None) -> MergeScore:
    """Precision and recall of dedupe's pair decision (MiniLM cosine) on ``pairs``."""
    from dreamer.stages.base import StageContext, memory_text
    from dreamer.stages.dedupe import Dedupe
    from dreamer.stages.similarity import Similarity

    context = StageContext(similarity=Similarity())
    stage = Dedupe(Dedupe.Config(threshold=threshold))
    texts = sorted({memory_text(m) for p in pairs for m in (p.a, p.b)})
    vectors = dict(zip(texts, context.similarity.embed(texts), strict=True))
    merged = true = 0
    for pair in pairs:
        score = float(vectors[memory_text(pair.a)] @ vectors[memory_text(pair.b)])
        if stage.would_merge(pair.a, pair.b, score, context):
            merged += 1
            true += pair.same
    used = threshold if threshold is not None else context.similarity.threshold("same")
    return MergeScore(threshold=used, pairs=len(pairs), same=sum(p.same for p in pairs),
                      merged=merged, true_merges=true)


def sweep(pairs: Sequence[Pair], thresholds: Sequence[float]) -> list[MergeScore]:
    """``merge_scores`` at each ``same`` threshold."""
    return [merge_scores(pairs, t) for t in thresholds]
