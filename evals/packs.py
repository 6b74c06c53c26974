"""The packs a suite hands out: the bank's, the placebos', the oracle's; and the bank as of a task.

- **bank**: the router's pack of the bank *as of* the task's opening (only memories whose
  evidence is strictly older), for the task's problem statement, at a budget;
- **placebo** (shuffled): the same bank as of the task, packed at the same budget for the problem
  statement of another task, of another family (of the same repository when there is one), drawn
  by a seeded choice: the bank's own memories, about the wrong thing. At a budget that holds the
  whole bank it would be the bank's own pack, so there it is not offered;
- **placebo_other**: memories of *other* repositories (as of the task), re-scoped to the task's
  repository and packed by the router for the task's problem statement at the same budget;
- **oracle**: the task's ``oracle_memories`` packed without a budget (the bank-free oracle pack).

``as_of`` says how many memories it left out and why, so a bank whose memories carry no time is
seen for what it is (an empty pack), not taken for a bank that does not help.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from dreamer.models import Bank, Memory, MemoryPack, MemoryStatus, Scope, content_hash
from evals.tasks import Task


@dataclass(frozen=True)
class AsOf:
    """A bank cut at a time, and what the cut left out."""

    bank: Bank
    later: int = 0
    """Memories whose evidence is not strictly older than the cut."""
    untimed: int = 0
    """Memories with no time at all (they cannot be shown to be older, so they are left out)."""


def as_of(bank: Bank, when: datetime | None) -> AsOf:
    """``bank`` as it could have been at ``when``: only memories strictly older. A memory of
    unknown time cannot be shown to be older, so it is left out, and counted."""
    if when is None:
        return AsOf(bank)
    cutoff = utc(when)
    kept: list[Memory] = []
    later = untimed = 0
    for memory in bank.memories:
        if memory.created_at is None:
            untimed += 1
        elif utc(memory.created_at) >= cutoff:
            later += 1
        else:
            kept.append(memory)
    if len(kept) == len(bank.memories):
        return AsOf(bank)
    cut = Bank(repo=bank.repo, parent_id=bank.parent_id, origin=bank.origin,
               memories=tuple(_unsuperseded(kept)))
    return AsOf(cut, later=later, untimed=untimed)


def _unsuperseded(kept: list[Memory]) -> list[Memory]:
    """``kept`` with each memory superseded only by memories the cut left out active again:
    at the cut's time nothing had replaced it yet (a rule changed later still held)."""
    present = {m.id for m in kept}
    out = []
    for memory in kept:
        successors = [link.target for link in memory.links if link.relation == "superseded_by"]
        if memory.status is MemoryStatus.SUPERSEDED and successors and not any(
                target in present for target in successors):
            links = tuple(link for link in memory.links if link.relation != "superseded_by")
            memory = memory.model_copy(update={"status": MemoryStatus.ACTIVE, "links": links})
        out.append(memory)
    return out


def utc(when: datetime) -> datetime:
    """Times without a zone are UTC."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def route(bank: Bank, query: str, repo: str, budget: int | None) -> MemoryPack:
    """The router's pack of ``bank`` for ``query`` in ``repo``; empty at budget 0 or with
    nothing active. The router is deterministic, so a pack is computed once per process for the
    same bank content, query, repository and budget (suites of several agents, strategies sharing
    banks, and the placebo arms ask for the same packs again)."""
    from dreamer.router import pack

    if budget == 0 or not bank.active:
        return MemoryPack(query=query, budget=budget)
    key = (bank.id, query, repo, budget)
    with _LOCK:
        hit = _PACKS.get(key)
    if hit is None:
        hit = pack(bank, query, repo=repo, budget=budget)
        with _LOCK:
            _PACKS[key] = hit
            if len(_PACKS) > 8192:
                _PACKS.pop(next(iter(_PACKS)))
    return hit


_PACKS: dict[tuple[str, str, str, int | None], MemoryPack] = {}
_LOCK = threading.Lock()


def task_pack(bank: Bank, task: Task, budget: int | None) -> MemoryPack:
    """The pack ``task`` gets from ``bank`` at ``budget``: the bank as of the task's opening,
    through the router."""
    return route(as_of(bank, task.created_at).bank, task.problem_statement, task.repo, budget)


def oracle_bank(task: Task) -> Bank | None:
    """The bank of the task's ``oracle_memories``, or None when it carries none."""
    if not task.oracle_memories:
        return None
    memories = tuple(Memory.model_validate({k: v for k, v in m.items() if k != "id"})
                     for m in task.oracle_memories)
    return Bank(repo=task.repo, memories=memories)


def visible_count(bank: Bank, task: Task) -> int:
    """How many active memories of ``task``'s repository it may see (as of its opening): a pack
    holding that many is the whole visible bank, and a placebo drawn from the same bank would be
    that same pack."""
    visible = as_of(bank, task.created_at).bank
    return sum(1 for m in visible.active if m.scope.repo == task.repo)


def donors(tasks: Sequence[Task], seed: int) -> dict[str, Task | None]:
    """For each task, the task whose problem statement its shuffled placebo is packed for:
    another family's task, of the same repository when there is one (seeded choice)."""
    chosen: dict[str, Task | None] = {}
    for task in tasks:
        others = [t for t in tasks if t.instance_id != task.instance_id
                  and (t.family is None or t.family != task.family)]
        same_repo = [t for t in others if t.repo == task.repo]
        pool = same_repo or others
        rng = random.Random(content_hash([seed, "donor", task.instance_id]))
        chosen[task.instance_id] = rng.choice(pool) if pool else None
    return chosen


def placebo_pack(bank: Bank, task: Task, donor: Task, budget: int | None) -> MemoryPack:
    """The bank's pack, as of ``task``, for ``donor``'s problem statement (shuffled placebo)."""
    visible = as_of(bank, task.created_at).bank
    return route(visible, donor.problem_statement, task.repo, budget)


def other_repo_bank(pool: Sequence[Memory], task: Task) -> Bank:
    """``pool``'s memories of other repositories, as of ``task``, re-scoped to its repository."""
    others = [m for m in pool if m.scope.repo != task.repo]
    cut = as_of(Bank(memories=tuple(others)), task.created_at).bank
    moved = tuple(m.model_copy(update={"scope": Scope(repo=task.repo)}) for m in cut.memories)
    return Bank(repo=task.repo, memories=moved)


def placebo_other_pack(pool: Sequence[Memory], task: Task, budget: int | None) -> MemoryPack:
    """Another repository's memories at the same budget (the other-repository placebo)."""
    return route(other_repo_bank(pool, task), task.problem_statement, task.repo, budget)
