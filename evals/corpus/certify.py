"""Certification: memory must decide each evaluation task, shown by real runs of the harness.

Each task runs with the ``selector`` agent three ways: with its oracle pack (it must resolve),
with no memory (it must not), and with ``seeds`` random packs of the oracle pack's token size
drawn from other families' memories (none may resolve). A task failing any of these is kept as a
no-regression check, ``certified=False``, and reported apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from dreamer.models import Memory, MemoryPack
from evals.corpus.memories import pack_of, random_pack
from evals.tasks import Task


class Attempt(BaseModel):
    """One certification run."""

    model_config = ConfigDict(frozen=True)

    task: str
    arm: str
    """``oracle``, ``none`` or ``random-<seed>``."""
    status: str
    resolved: bool
    chosen: str | None
    reason: str
    pack_tokens: int


class Certificate(BaseModel):
    """A task's certification verdict and the runs behind it."""

    model_config = ConfigDict(frozen=True)

    task: str
    certified: bool
    reason: str
    attempts: tuple[Attempt, ...]


def oracle_pack(task: Task) -> MemoryPack:
    """The task's oracle memories as a pack."""
    memories = [Memory.model_validate(m) for m in getattr(task, "oracle_memories", [])]
    return pack_of(memories, task.problem_statement)


def arms(task: Task, pool: Sequence[Memory], seeds: int) -> list[tuple[str, MemoryPack]]:
    """The packs a task is certified with: oracle, none, and ``seeds`` random packs drawn from
    ``pool`` memories of other families that existed before the task."""
    oracle = oracle_pack(task)
    opened = task.created_at
    pool = [m for m in pool if not (opened and m.created_at and m.created_at >= opened)]
    packs = [("oracle", oracle), ("none", MemoryPack(query=task.problem_statement, budget=0))]
    for seed in range(seeds):
        packs.append((f"random-{seed}", random_pack(list(pool), task.family or "", oracle.tokens,
                                                   seed * 7919 + (task.position or 0),
                                                   task.problem_statement)))
    return packs


def _run(job: tuple[Task, str, MemoryPack, str, float]) -> Attempt:
    from evals.runner import run_task

    task, arm, pack, run_dir, timeout = job
    result = run_task(task, agent="selector", pack=pack, run_dir=Path(run_dir) / arm,
                      timeout=timeout)
    return Attempt(task=task.instance_id, arm=arm, status=result.status,
                   resolved=result.resolved, chosen=result.chosen, reason=result.reason,
                   pack_tokens=pack.tokens)


def verdict(task: str, attempts: Sequence[Attempt]) -> Certificate:
    """Certified iff the oracle arm resolves and every other arm is unresolved (not infra)."""
    problems = []
    for attempt in attempts:
        if attempt.status == "infra_error":
            problems.append(f"{attempt.arm}: infra error ({attempt.reason})")
        elif attempt.arm == "oracle" and not attempt.resolved:
            problems.append(f"oracle unresolved ({attempt.reason})")
        elif attempt.arm != "oracle" and attempt.resolved:
            problems.append(f"{attempt.arm} resolved")
    return Certificate(task=task, certified=not problems,
                       reason="; ".join(problems) or "memory decides", attempts=tuple(attempts))


def certify(tasks: Sequence[Task], pool: Sequence[Memory], run_dir: Path, *, seeds: int = 3,
            workers: int = 2, timeout: float = 120.0) -> dict[str, Certificate]:
    """Certify every task (loaded with absolute repository locations) through the harness."""
    jobs = [(task, arm, pack, str(run_dir), timeout)
            for task in tasks for arm, pack in arms(task, pool, seeds)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as executor:
            attempts = list(executor.map(_run, jobs, chunksize=2))
    else:
        attempts = [_run(job) for job in jobs]
    by_task: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        by_task.setdefault(attempt.task, []).append(attempt)
    return {task.instance_id: verdict(task.instance_id, by_task[task.instance_id])
            for task in tasks}
