"""Retrieval: what part of a bank reaches an agent, under a token budget.

``pack()`` is the one entry point the harness and agents use. This first version is the plain
scoped pack: hard scope filter, active memories only, ordered by confidence, packed greedily into
the budget. The full router (hybrid search, rerank, verification) replaces its inside, not its
signature.
"""

from __future__ import annotations

from pathlib import Path

from dreamer.models import Bank, Memory, MemoryPack, PackedMemory
from dreamer.tokens import count_tokens


def in_scope(
    memory: Memory, repo: str, branch: str | None = None, module: str | None = None,
    phase: str | None = None,
) -> bool:
    """The hard filter: a memory of another repository never passes, whatever else matches."""
    scope = memory.scope
    if scope.repo != repo:
        return False
    if branch and scope.branch and scope.branch != branch:
        return False
    if module and scope.module and not (
        module.startswith(scope.module) or scope.module.startswith(module)
    ):
        return False
    return not (phase and scope.phase and scope.phase != phase)


def render(memory: Memory) -> str:
    """One memory as prompt text: type, summary, conditions and compact citations."""
    cites = "; ".join(
        f"{c.kind.value}:{c.path}:{c.start_line}-{c.end_line}" if c.path and c.start_line
        else f"{c.kind.value}:{c.path or c.ref}"
        for c in memory.citations
    )
    when = f" (when: {'; '.join(memory.conditions)})" if memory.conditions else ""
    return f"- [{memory.type.value}] {memory.summary}{when} [{cites}]"


def pack(
    bank: Bank, query: str, *, repo: str, budget: int | None = None, branch: str | None = None,
    module: str | None = None, phase: str | None = None, checkout: Path | None = None,
) -> MemoryPack:
    """Memories of ``bank`` for ``query`` in ``repo``, at most ``budget`` tokens (None: all)."""
    del checkout  # verification arrives with the full router
    candidates = [
        m for m in bank.active if in_scope(m, repo, branch, module, phase)
    ]
    candidates.sort(key=lambda m: (-m.confidence, m.id))
    items: list[PackedMemory] = []
    lines: list[str] = []
    used = 0
    for memory in candidates:
        line = render(memory)
        cost = count_tokens("\n".join([*lines, line])) - used
        if budget is not None and used + cost > budget:
            continue
        lines.append(line)
        used += cost
        items.append(PackedMemory(memory=memory, score=memory.confidence, tokens=cost))
    text = "\n".join(lines)
    return MemoryPack(query=query, budget=budget, items=tuple(items), text=text,
                      tokens=count_tokens(text))
