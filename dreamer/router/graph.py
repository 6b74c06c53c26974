"""The graph leg: neighbours of the best hits in the bank's link graph.

Two memories are neighbours when one links to the other (``related``, ``refines``,
``supersedes``, ``contradicts``: edges are followed both ways) or when both link to the same
code symbol, test or failure mode. A query that names a linked symbol or test directly also
reaches the memories linked to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dreamer.models import Memory
from dreamer.router.lexical import tokenize

_SHARED_TARGETS = frozenset({"symbol", "test", "failure_mode"})
MAX_GROUP = 64
"""A target linked by more memories than this (a ubiquitous symbol) says little about any one of
them, like a stopword; it is not followed, which also keeps a query's cost bounded."""


@dataclass
class LinkGraph:
    """Adjacency over bank positions, built once per bank."""

    edges: dict[int, set[int]] = field(default_factory=dict)
    by_target: dict[str, list[int]] = field(default_factory=dict)
    """Symbol, test or failure-mode target -> positions of the memories linking to it."""
    targets_of: dict[int, list[str]] = field(default_factory=dict)
    target_tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    by_token: dict[str, set[str]] = field(default_factory=dict)
    """Token -> the targets whose names contain it, so a query looks up only its own words."""

    @classmethod
    def build(cls, memories: Sequence[Memory], ids: Sequence[str]) -> LinkGraph:
        position = {mid: i for i, mid in enumerate(ids)}
        graph = cls()
        for i, memory in enumerate(memories):
            for link in memory.links:
                if link.relation in _SHARED_TARGETS:
                    graph.by_target.setdefault(link.target, []).append(i)
                    graph.targets_of.setdefault(i, []).append(link.target)
                elif (j := position.get(link.target)) is not None and j != i:
                    graph.edges.setdefault(i, set()).add(j)
                    graph.edges.setdefault(j, set()).add(i)
        graph.target_tokens = {t: tokenize(t) for t in graph.by_target}
        for target, tokens in graph.target_tokens.items():
            for token in tokens:
                graph.by_token.setdefault(token, set()).add(target)
        return graph

    @property
    def empty(self) -> bool:
        return not self.edges and not self.by_target

    def neighbours(self, seeds: Iterable[int], allowed: set[int], limit: int) -> list[int]:
        """Positions linked to ``seeds`` (in seed order, then by position), within ``allowed``."""
        seen: set[int] = set(seeds_list := list(seeds))
        out: list[int] = []
        for seed in seeds_list:
            near = set(self.edges.get(seed, ()))
            for target in self.targets_of.get(seed, ()):
                group = self.by_target[target]
                if len(group) <= MAX_GROUP:
                    near.update(group)
            for j in sorted(near - seen):
                if j in allowed:
                    out.append(j)
                    seen.add(j)
                    if len(out) >= limit:
                        return out
        return out

    def mentioned(self, query: str, allowed: set[int], limit: int) -> list[int]:
        """Positions linked to a symbol or test whose every token appears in the query (targets
        linked by more than ``MAX_GROUP`` memories excepted)."""
        words = set(tokenize(query))
        named = set().union(*(self.by_token.get(w, set()) for w in words)) if words else set()
        out: list[int] = []
        for target in sorted(named):
            if len(self.by_target[target]) <= MAX_GROUP and words.issuperset(
                self.target_tokens[target]
            ):
                out.extend(p for p in self.by_target[target] if p in allowed and p not in out)
        return out[:limit]
