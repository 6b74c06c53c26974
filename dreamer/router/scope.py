"""The hard scope filter, and the per-repository partition of a bank that enforces it.

Scope is applied before any search: a bank is split by repository once, and every leg of a
query only ever sees the partition of the query's repository. The partition is then narrowed by
branch, module, phase and status. Whatever a memory's text says, a memory of another repository
is never in the partition, so it cannot be a candidate.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dreamer.models import Memory

if TYPE_CHECKING:
    from dreamer.router.lexical import LexicalIndex


def in_scope(
    memory: Memory, repo: str, branch: str | None = None, module: str | None = None,
    phase: str | None = None,
) -> bool:
    """The hard filter: a memory of another repository never passes, whatever else matches.

    ``None`` in a memory's scope means "any"; ``None`` in the query means "do not narrow".
    Modules match when either is a prefix of the other (a query about ``src/orders/tax.py``
    sees memories of ``src/orders``, and a query about ``src`` sees them too).
    """
    scope = memory.scope
    if scope.repo != repo:
        return False
    return _narrow_ok(scope.branch, scope.module, scope.phase, branch, module, phase)


def _narrow_ok(
    m_branch: str | None, m_module: str | None, m_phase: str | None,
    branch: str | None, module: str | None, phase: str | None,
) -> bool:
    if branch and m_branch and m_branch != branch:
        return False
    if module and m_module and not (module.startswith(m_module) or m_module.startswith(module)):
        return False
    return not (phase and m_phase and m_phase != phase)


@dataclass(frozen=True)
class ScopeQuery:
    """What a recall is scoped to."""

    repo: str
    branch: str | None = None
    module: str | None = None
    phase: str | None = None


@dataclass
class RepoPartition:
    """The memories of one repository in a bank: positions into the bank's memory tuple.

    Indexes built over a partition (BM25) are per repository, so their statistics and their
    results never mix repositories.
    """

    repo: str
    positions: tuple[int, ...]
    _facets: tuple[tuple[str | None, str | None, str | None, str], ...]
    lexical: LexicalIndex | None = None
    _allowed: OrderedDict[tuple[object, ...], tuple[int, ...]] = field(default_factory=OrderedDict)

    @classmethod
    def build(
        cls, repo: str, positions: Sequence[int], memories: Sequence[Memory]
    ) -> RepoPartition:
        facets = tuple(
            (m.scope.branch, m.scope.module, m.scope.phase, m.status.value)
            for m in (memories[p] for p in positions)
        )
        return cls(repo=repo, positions=tuple(positions), _facets=facets)

    def allowed(self, query: ScopeQuery, statuses: tuple[str, ...]) -> tuple[int, ...]:
        """Local indexes (into ``positions``) that pass branch, module, phase and status."""
        key = (query.branch, query.module, query.phase, statuses)
        hit = self._allowed.get(key)
        if hit is not None:
            self._allowed.move_to_end(key)
            return hit
        result = tuple(
            i for i, (b, m, p, status) in enumerate(self._facets)
            if status in statuses and _narrow_ok(b, m, p, query.branch, query.module, query.phase)
        )
        self._allowed[key] = result
        if len(self._allowed) > 64:  # scopes asked of one bank are few; bound it anyway
            self._allowed.popitem(last=False)
        return result


def partition(memories: Sequence[Memory]) -> dict[str, RepoPartition]:
    """Split a bank's memories by repository (positions keep the bank's order)."""
    by_repo: dict[str, list[int]] = {}
    for position, memory in enumerate(memories):
        by_repo.setdefault(memory.scope.repo, []).append(position)
    return {repo: RepoPartition.build(repo, pos, memories) for repo, pos in by_repo.items()}
