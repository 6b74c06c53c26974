"""A suite: every task at every budget for a bank, beside its controls, over K relabellings.

Arms of one run (column ``arm`` of the table):

- ``bank``: the agent under test with the bank's pack at each budget (``evals.packs``);
- ``placebo``: the same agent with the bank's pack for *another* family's task, at each budget
  (not offered where the budget holds the whole bank: it would be the bank's own pack);
- ``placebo_other``: the same agent with the same budget filled from other repositories'
  memories (the bank's own, and ``placebo_pool``'s);
- ``compare``: the agent with a second bank's packs;
- controls that carry no memory: ``no_memory`` (the agent with an empty pack), ``smallest`` and
  ``largest`` (by changed lines) and ``random`` (a seeded uniform draw; chance is 1/k);
- ``oracle``: the agent with the task's ``oracle_memories`` (the bank-free oracle pack); a task
  without them runs the ``oracle`` agent (its gold patch).

Every attempt runs under each of ``permutations`` relabellings of the candidate ids (seeded), and
every figure is the mean over them with its spread (``evals.metrics.ArmRate``). The figure read
first is the **lift** over placebo at each budget: bank minus the stronger of the two placebo
arms, paired by task, with a bootstrap interval and a sign test (``evals.metrics.Lift``); the
result and its summary are ``evals.suite_result``'s.

Each task sees the bank *as of* its opening (``evals.packs.as_of``). Every pack handed out is
checked for leaks (``evals.leaks``, the one definition): a leaking cell is not attempted, counts
as unresolved and is reported. Packs are built first, in order, in the calling thread
(``evals.suite_plan``); attempts then run on a thread pool (the tests are subprocesses) in three
stages, each at most ``workers`` at a time: the agent's attempt, the applying of its patch on a
copy, then the test run, so that one attempt's agent runs and another's patch goes in while a
third's tests run.
They are spread so that attempts likely to share a patch are far apart; a patch of a task is
graded once (``GradeCache``, shareable between suites). A success rate counts every task of the
suite, infrastructure errors included as not resolved (as SWE-bench does); they are reported
apart.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from dreamer.collector import long_lived
from dreamer.models import Bank, Memory
from evals.agents.base import Agent
from evals.metrics import budget_label
from evals.packs import as_of, oracle_bank, task_pack
from evals.runner import GradeCache, TaskResult, run_task
from evals.suite_plan import Job, SuitePlan, leak_findings, plan_suite, suite_times
from evals.suite_result import CONTROL_ARMS, SuiteResult, per_task, summarise
from evals.tasks import Task
from evals.workspace_pool import WorkspacePool

DEFAULT_BUDGETS: tuple[int | None, ...] = (0, 256, 512, 1024, 2048, 4096, None)

__all__ = ["DEFAULT_BUDGETS", "SuiteConfig", "SuitePlan", "SuiteResult", "as_of", "attempt_row",
           "finish_suite", "oracle_bank", "per_task", "plan_suite", "run_suite", "suite_times",
           "task_pack"]


class SuiteConfig(BaseModel):
    """How to run a suite."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    suite: str
    """The suite's name or path, as given (for the record)."""
    agent: str = "selector"
    """The registered agent under test."""
    agent_options: dict[str, Any] = Field(default_factory=dict)
    """Options for the agent's Config (e.g. ``{"model": "openai/gpt-4o-mini"}`` for ``llm``)."""
    budgets: tuple[int | None, ...] = DEFAULT_BUDGETS
    """Token budgets; None is "all"."""
    timeout_s: float = 300.0
    """Per test run."""
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1)
    """How many agents attempt at once, and how many test runs run at once."""
    controls: bool = True
    """Also run the placebo arms and the controls (no memory, smallest, largest, random,
    oracle)."""
    permutations: int = Field(default=3, ge=1)
    """K: how many relabellings of the candidate ids every attempt runs under."""
    seed: int = 0
    """Seeds the relabellings, the random control and the placebo donors."""
    leak_check: bool = True
    """Check every pack handed out; a leaking cell counts as unresolved."""


def bank_tokens(bank: Bank) -> int:
    """Tokens of the bank's active memories, counted as the dream counts them."""
    from dreamer.bank_tokens import active_tokens

    return active_tokens(bank)


def run_suite(
    tasks: list[Task], bank: Bank | None, config: SuiteConfig, run_dir: Path,
    compare: Bank | None = None, agent: Agent | None = None, *,
    placebo_pool: Sequence[Memory] = (), source_times: Mapping[str, datetime] | None = None,
    cache: GradeCache | None = None, progress: Callable[[int, int], None] | None = None,
) -> SuiteResult:
    """Run ``tasks`` for ``bank`` (None: an empty bank) per ``config``; artifacts in ``run_dir``.

    ``placebo_pool`` adds memories of other repositories to draw the ``placebo_other`` arm from
    (the bank's own other-repository memories are always used). ``source_times`` tells when each
    cited session or commit ended, for the leak check (default: what the suite's folder says).
    ``progress(done, total)`` is called after each attempt. ``plan_suite``, ``attempt_row`` and
    ``finish_suite`` are its three steps, for a caller that runs the attempts elsewhere
    (``evals.sweep``: Prefect tasks on any task runner).
    """
    # One working copy per task and concurrent worker, restarted between attempts. Each task's
    # first copy is made ahead, from the start: while the packs are built, then while earlier
    # attempts run their tests (the attempts take the tasks round-robin, in this order).
    copies = WorkspacePool(config.workers)
    copies.prefetch(tasks, threads=max(1, config.workers))
    try:
        plan = plan_suite(tasks, bank, config, run_dir, compare, agent,
                          placebo_pool=placebo_pool, source_times=source_times)
    except BaseException:
        copies.close(wait=False)
        raise
    attempted = {job.task.instance_id for job in plan.jobs if not job.leaks}
    copies.unneeded(t for t in tasks if t.instance_id not in attempted)
    cache = cache or GradeCache()
    runs = plan.runs
    done = [0]

    # Three stages of ``workers`` slots each: agents attempting, patches going onto copies,
    # and patches under test (the next patches are applied while the tests before them run).
    # A thread waiting on the grade cache for a patch another one is testing holds none.
    agents = threading.BoundedSemaphore(max(1, config.workers))
    staging = threading.BoundedSemaphore(max(1, config.workers))
    testing = threading.BoundedSemaphore(max(1, config.workers))

    def attempt(item: tuple[Job, int]) -> dict[str, Any]:
        row = attempt_row(item[0], item[1], config, run_dir, cache, copies,
                          artifacts=lambda write: writes.append(writer.submit(write)),
                          slots=(agents, staging, testing))
        done[0] += 1
        if progress is not None:
            progress(done[0], len(runs))
        step.advance(detail=item[0].task.instance_id)
        return row

    from dreamer import progress as progress_events

    step = progress_events.start("evaluate", len(runs))

    order = _spread(runs)
    # Threads, not workers: most attempts wait (on a slot, or on the grade of a patch another
    # attempt is testing), and with too few of them every thread waits while the next patch to
    # test lies further down the order (seen: a test slot idle for 0.2 s with 4 per worker).
    threads = max(1, min(len(runs), 16 * config.workers))
    # Artifacts are written by one thread of their own, outside the worker slots: with one
    # worker, while the next attempt's tests run.
    writer = ThreadPoolExecutor(1, thread_name_prefix="artifacts")
    writes: list[Future[None]] = []
    try:
        # What the suite holds (banks, packs, the router) is kept out of the cyclic collector
        # while the attempts run: a full collection walked it for 0.17 s, every thread waiting.
        with long_lived(), ThreadPoolExecutor(max_workers=threads) as pool:
            done_rows = list(pool.map(attempt, [runs[i] for i in order]))
    finally:
        copies.close(wait=False)
        writer.shutdown(wait=True)
    for written in writes:
        written.result()  # a failed write (a full disk) fails the suite: artifacts are its record
    rows: list[dict[str, Any]] = [{}] * len(runs)
    for i, row in zip(order, done_rows, strict=True):
        rows[i] = row
    return finish_suite(plan, rows)


def attempt_row(job: Job, permutation: int, config: SuiteConfig, run_dir: Path,
                cache: GradeCache, copies: WorkspacePool | None,
                artifacts: Callable[[Callable[[], None]], object] | None = None,
                slots: tuple[Any, Any, Any] = (None, None, None),
                ) -> dict[str, Any]:
    """Run one attempt (a job under one relabelling) and return its row of the table. A leaking
    pack is not attempted; a harness error is an infrastructure error of this attempt only.
    ``slots`` are held by the agent's step, by the applying of its patch and by its test run
    (``run_task``)."""
    folder = run_dir / job.arm / budget_label(job.budget) / f"p{permutation}"
    if job.leaks:
        result = TaskResult(instance_id=job.task.instance_id, status="unresolved",
                            resolved=False, reason=f"leak: {job.leaks[0].detail}",
                            permutation=permutation, pack_tokens=job.pack.tokens)
    else:
        try:
            result = run_task(job.task, job.agent, job.pack, folder, config.timeout_s,
                              cache=cache, permutation=permutation, seed=config.seed,
                              workspaces=copies, artifacts=artifacts,
                              agent_slot=slots[0], stage_slot=slots[1], test_slot=slots[2])
        except Exception as exc:  # a harness bug must not sink the other attempts
            result = TaskResult(instance_id=job.task.instance_id, status="infra_error",
                                resolved=False, reason=f"harness error: {exc!r}",
                                permutation=permutation)
    return _row(job, result)


def finish_suite(plan: SuitePlan, rows: Sequence[dict[str, Any]]) -> SuiteResult:
    """The suite's result from the rows of ``plan.runs`` (in that order)."""
    bank = plan.bank
    table = pd.DataFrame(list(rows), columns=_COLUMNS)
    result = SuiteResult(config=plan.config, bank_id=bank.id if bank else None, table=table,
                         run_dir=plan.run_dir, wall_s=time.monotonic() - plan.started,
                         bank_tokens=bank_tokens(bank) if bank else 0, tasks=len(plan.tasks),
                         chance=_chance(plan.tasks), excluded=plan.excluded,
                         leak_findings=leak_findings(plan.jobs))
    summarise(result, [t.instance_id for t in plan.tasks])
    return result


def _spread(runs: Sequence[tuple[Job, int]]) -> list[int]:
    """The order to attempt ``runs`` in: permutation by permutation, round-robin over tasks.

    Attempts that share a patch (one job under several relabellings, or controls of one task
    choosing the same candidate) are then far apart, so concurrent workers rarely wait on the
    grade cache for a patch that another worker is testing."""
    tasks: dict[str, int] = {}
    jobs_of: dict[str, int] = {}
    rank: dict[int, int] = {}
    keys: list[tuple[int, int, int, int]] = []
    for i, (job, permutation) in enumerate(runs):
        task = job.task.instance_id
        if id(job) not in rank:
            rank[id(job)] = jobs_of.get(task, 0)
            jobs_of[task] = rank[id(job)] + 1
        keys.append((permutation, rank[id(job)], tasks.setdefault(task, len(tasks)), i))
    return [key[-1] for key in sorted(keys)]


def _row(job: Job, result: TaskResult) -> dict[str, Any]:
    single = job.arm in CONTROL_ARMS
    return {
        "instance_id": job.task.instance_id, "repo": job.task.repo, "family": job.task.family,
        "arm": job.arm, "budget": "-" if single else budget_label(job.budget),
        "budget_tokens": math.inf if job.budget is None else job.budget,
        "permutation": result.permutation, "agent": result.agent or job.agent.name,
        "pack_tokens": job.pack.tokens, "pack_memories": len(job.pack.items),
        "status": result.status, "resolved": result.resolved, "reason": result.reason,
        "chosen": result.chosen, "gold_chosen": result.gold_chosen,
        "abstained": result.abstained, "tie": bool(result.tied), "leak": bool(job.leaks),
        "apply_method": result.apply_method, "cached": result.cached,
        "duration_s": result.duration_s, "test_duration_s": result.test_duration_s,
    }


def _chance(tasks: list[Task]) -> float:
    shares = [1 / len(t.candidates) for t in tasks if t.candidates]
    return sum(shares) / len(tasks) if tasks else 0.0


_COLUMNS = ["instance_id", "repo", "family", "arm", "budget", "budget_tokens", "permutation",
            "agent", "pack_tokens", "pack_memories", "status", "resolved", "reason", "chosen",
            "gold_chosen", "abstained", "tie", "leak", "apply_method", "cached", "duration_s",
            "test_duration_s"]
