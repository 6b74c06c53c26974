"""abstraction: from several episodes with a common cause, write the general rule, citing them.

Offline the rule is extractive: the sentence of the episodes that best states a conclusion about
the anchors they share, so every word of it is evidenced. With an LM, ``Abstract`` writes it, and
a rule that drops every shared anchor is refused in favour of the extractive one.
"""

from __future__ import annotations

import math
from collections import Counter

from dreamer.models import Bank, Memory, MemoryType
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    common_scope,
    make_judge,
    memory_text,
    stage,
)
from dreamer.stages.text import anchors, conclusion_score, sentences


@stage("abstraction")
class Abstraction(Stage):
    """Clusters episodes among nearest neighbours and writes one rule per cluster."""

    class Config(StageConfig):
        types: tuple[str, ...] = ("episodic", "failure")
        """Memory types treated as episodes."""
        threshold: float | None = None
        """Cosine similarity from which two episodes may share a cause (None: the backend's
        default for "cluster")."""
        k: int = 8
        """Nearest neighbours looked at per episode."""
        min_support: int = 3
        """Episodes needed before a rule is written."""
        retire_episodes: bool = True
        """Supersede the episodes by their rule (they stay in the bank, out of retrieval)."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        episodes = editor.active(self.config.types)
        texts = [memory_text(m) for m in episodes]
        near = context.similarity.neighbours(
            texts, k=self.config.k,
            threshold=context.similarity.threshold("cluster", self.config.threshold))
        same_repo = [(p.i, p.j) for p in near.pairs
                     if episodes[p.i].scope.repo == episodes[p.j].scope.repo]
        groups = _components(len(episodes), same_repo)
        rules = 0
        for indices in groups:
            group = [episodes[i] for i in indices]
            shared = _shared_anchors(group)
            if len(group) < self.config.min_support or not shared:
                continue  # no common cause to generalise from
            rule = judge.abstract([memory_text(m) for m in group]) if judge else None
            if rule is not None and not anchors(rule) & shared:
                rule = None  # the LM's rule lost the evidence; keep the extractive one
            rule = rule or _extract_rule(group, shared)
            editor.derive(
                group, summary=rule, conditions=(f"seen in {len(group)} episodes",),
                type=_rule_type(group), scope=common_scope(group), action="created",
                retire=self.config.retire_episodes,
                reason=f"general rule of {len(group)} episodes sharing "
                f"{', '.join(sorted(shared)[:3])}" + (" (LM written)" if judge else ""),
            )
            rules += 1
        return editor.result(rules=rules, episodes=len(episodes),
                             lm_failures=judge.failures if judge else 0)


def _components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in edges:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


def _shared_anchors(group: list[Memory]) -> frozenset[str]:
    """Anchors named by at least half of the episodes (and by two at least): the common cause."""
    counts = Counter(a for m in group for a in anchors(memory_text(m)))
    need = max(2, math.ceil(len(group) / 2))
    return frozenset(a for a, c in counts.items() if c >= need)


def _extract_rule(group: list[Memory], shared: frozenset[str]) -> str:
    """The episodes' sentence that best states the shared cause in general terms: it names the
    shared anchors, states a rule or fix, and names little that is particular to one episode."""
    candidates = sorted({s for m in group for s in sentences(m.summary, clauses=False)})

    def score(sentence: str) -> tuple[float, int, str]:
        own = anchors(sentence)
        general = conclusion_score(sentence, shared) - len(own) - 0.5 * len(own - shared)
        return (general, -len(sentence), sentence)

    return max(candidates, key=score)


def _rule_type(group: list[Memory]) -> MemoryType:
    """A rule about failures stays a failure memory; one drawn from plain episodes is domain."""
    if sum(m.type is MemoryType.FAILURE for m in group) * 2 >= len(group):
        return MemoryType.FAILURE
    return MemoryType.DOMAIN
