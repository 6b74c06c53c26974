"""Certification: memory must decide each evaluation task, shown by real runs of the harness.

Each task runs under ``permutations`` relabellings of its candidate ids in these arms:

- ``oracle``: the ``selector`` with the task's oracle pack; it must resolve under *every*
  relabelling (``oracle-embedding``, the ``embedding`` agent with the same pack, is recorded);
- ``no_memory``: the ``selector`` with an empty pack; it must resolve under none;
- ``placebo-<seed>``: the ``selector`` with ``seeds`` packs of the oracle pack's token size drawn
  from *other* families' memories that existed before the task; each must resolve no more often
  than chance (1/k of its runs, k candidates);
- the controls that ignore memory, ``smallest``, ``largest`` and ``random``: recorded per task and
  judged per *family* (``family_controls``), not per task. Their success on one task is 0 or 1
  by construction; excluding the tasks where, say, the gold is the largest would leave a suite in
  which the gold is never the largest, a size signal of its own. The builder spreads the gold's
  code-size rank evenly over a family instead (``evals.corpus.sizes``), and the family figures
  show each control within chance; ``smallest`` and ``largest`` within chance plus or minus one
  task's worth (``size_neutral``).

A task failing a per-task rule is kept as a no-regression check, ``certified=False``. Attempts of
one task run in one worker with one grade cache: a patch is tested once however many arms choose
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from dreamer.models import Memory, MemoryPack
from evals.corpus.memories import pack_of, random_pack
from evals.metrics import wilson
from evals.tasks import Task


class Attempt(BaseModel):
    """One certification run."""

    model_config = ConfigDict(frozen=True)

    task: str
    arm: str
    """``oracle``, ``oracle-embedding``, ``no_memory``, ``placebo-<seed>``, ``smallest``,
    ``largest`` or ``random``."""
    permutation: int = 0
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
    """The memory packs a task is certified with: oracle, no memory, and ``seeds`` placebo packs
    drawn from ``pool`` memories of other families that existed before the task."""
    oracle = oracle_pack(task)
    own = {m.id for m in oracle.memories}
    opened = task.created_at
    pool = [m for m in pool if m.id not in own
            and not (opened and m.created_at and m.created_at >= opened)]
    empty = MemoryPack(query=task.problem_statement, budget=0)
    packs = [("oracle", oracle), ("no_memory", empty)]
    for seed in range(seeds):
        packs.append((f"placebo-{seed}", random_pack(list(pool), task.family or "", oracle.tokens,
                                                    seed * 7919 + (task.position or 0),
                                                    task.problem_statement)))
    return packs


def _run_task(job: tuple[Task, list[tuple[str, MemoryPack]], str, float, int]) -> list[Attempt]:
    """Every arm of one task under every relabelling, with one grade cache."""
    from evals.agents import make_agent
    from evals.runner import GradeCache, run_task

    task, packs, run_dir, timeout, permutations = job
    cache = GradeCache()
    empty = MemoryPack(query=task.problem_statement, budget=0)
    plan: list[tuple[str, Any, MemoryPack]] = [(arm, "selector", pack) for arm, pack in packs]
    plan.append(("oracle-embedding", "embedding", packs[0][1]))
    plan += [(arm, make_agent(arm, {"seed": 0} if arm == "random" else None), empty)
             for arm in ("smallest", "largest", "random")]
    attempts = []
    for arm, agent, pack in plan:
        for permutation in range(permutations):
            result = run_task(task, agent, pack, Path(run_dir) / arm / f"p{permutation}",
                              timeout=timeout, cache=cache, permutation=permutation)
            attempts.append(Attempt(task=task.instance_id, arm=arm, permutation=permutation,
                                    status=result.status, resolved=result.resolved,
                                    chosen=result.chosen, reason=result.reason,
                                    pack_tokens=pack.tokens))
    return attempts


def verdict(task: str, attempts: Sequence[Attempt], k: int) -> Certificate:
    """Certified iff the oracle arm resolves under every relabelling, no memory under none, each
    placebo no more often than chance (1/k), and no memory arm hit an infrastructure error."""
    problems = []
    by_arm: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        by_arm.setdefault(attempt.arm, []).append(attempt)
    for arm, runs in sorted(by_arm.items()):
        if arm in ("smallest", "largest", "random", "oracle-embedding"):
            continue  # judged per family, or recorded only
        errors = [a for a in runs if a.status == "infra_error"]
        hits = sum(a.resolved for a in runs)
        if errors:
            problems.append(f"{arm}: infra error ({errors[0].reason})")
        elif arm == "oracle" and hits < len(runs):
            missed = next(a for a in runs if not a.resolved)
            problems.append(f"oracle resolved {hits} of {len(runs)} relabellings "
                            f"({missed.reason})")
        elif arm == "no_memory" and hits:
            problems.append(f"no memory resolved {hits} of {len(runs)}")
        elif arm.startswith("placebo") and hits / len(runs) > 1 / k:
            problems.append(f"{arm} resolved {hits} of {len(runs)} (chance {1 / k:.2f})")
    return Certificate(task=task, certified=not problems,
                       reason="; ".join(problems) or "memory decides", attempts=tuple(attempts))


def certify(tasks: Sequence[Task], pool: Sequence[Memory], run_dir: Path, *, seeds: int = 3,
            workers: int = 2, timeout: float = 120.0,
            permutations: int = 3) -> dict[str, Certificate]:
    """Certify every task (loaded with absolute repository locations) through the harness."""
    jobs = [(task, arms(task, pool, seeds), str(run_dir / task.instance_id), timeout,
             permutations) for task in tasks]
    from dreamer import progress

    step = progress.start("certify", len(jobs))
    executor = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    results = []
    try:
        outcomes = executor.map(_run_task, jobs) if executor else map(_run_task, jobs)
        for job, attempts in zip(jobs, outcomes, strict=True):
            results.append(attempts)
            step.advance(detail=job[0].instance_id)
    finally:
        if executor is not None:
            executor.shutdown()
    return {task.instance_id: verdict(task.instance_id, attempts, max(1, len(task.candidates)))
            for task, attempts in zip(tasks, results, strict=True)}


SIZE_CONTROLS = ("smallest", "largest")


def family_controls(tasks: Sequence[Task],
                    certificates: dict[str, Certificate]) -> dict[str, dict[str, Any]]:
    """Per family: each control's success over its tasks with a Wilson 95% interval, chance
    (mean 1/k), and whether the control stays within chance (its interval covers chance or lies
    below it).

    The size controls are held to more: each must be within ``tolerance`` of chance, one task's
    worth (1/n for n tasks; the closest a family of n tasks can come when its gold's size rank is
    dealt evenly, ``evals.corpus.sizes``), above *or below*: a gold that is never the largest is
    a signal too (drop the largest). ``size_neutral`` says both are."""
    out: dict[str, dict[str, Any]] = {}
    families = sorted({t.family or "-" for t in tasks})
    for family in families:
        mine = [t for t in tasks if (t.family or "-") == family and t.instance_id in certificates]
        if not mine:
            continue
        chance = sum(1 / max(1, len(t.candidates)) for t in mine) / len(mine)
        tolerance = 1 / len(mine)
        row: dict[str, Any] = {"tasks": len(mine), "chance": round(chance, 4),
                               "tolerance": round(tolerance, 4)}
        for arm in ("smallest", "largest", "random", "no_memory", "oracle", "oracle-embedding"):
            runs = [a for t in mine for a in certificates[t.instance_id].attempts if a.arm == arm]
            if not runs:
                continue
            share = sum(a.resolved for a in runs) / len(runs)
            interval = wilson(round(share * len(mine)), len(mine))
            row[arm] = {"rate": round(share, 4), "low": round(interval.low, 4),
                        "high": round(interval.high, 4),
                        "within_chance": interval.low <= chance}
            if arm in SIZE_CONTROLS:
                row[arm]["within_tolerance"] = abs(share - chance) <= tolerance + 1e-9
        if all(arm in row for arm in SIZE_CONTROLS):
            row["size_neutral"] = all(row[arm]["within_tolerance"] for arm in SIZE_CONTROLS)
        out[family] = row
    return out
