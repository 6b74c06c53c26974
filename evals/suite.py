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
arms, paired by task, with a bootstrap interval and a sign test (``evals.metrics.Lift``).

Each task sees the bank *as of* its opening (``evals.packs.as_of``). Every pack handed out is
checked for leaks (``evals.leaks``, the one definition): a leaking cell is not attempted, counts
as unresolved and is reported. Packs are built first, in order, in the calling thread; attempts
then run on a thread pool (the tests are subprocesses) in three stages, each at most
``workers`` at a time: the agent's attempt, the applying of its patch on a copy, then the test
run, so that one attempt's agent runs and another's patch goes in while a third's tests run.
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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from dreamer.collector import long_lived
from dreamer.models import Bank, Memory, MemoryPack
from evals.agents.base import Agent, make_agent
from evals.leaks import LeakFinding, check_pack
from evals.metrics import ArmRate, Lift, arm_rate, auc, budget_label, paired_lift
from evals.packs import (
    as_of,
    donors,
    oracle_bank,
    placebo_other_pack,
    placebo_pack,
    route,
    task_pack,
    visible_count,
)
from evals.runner import GradeCache, TaskResult, run_task
from evals.tasks import Task
from evals.workspace import WorkspacePool

DEFAULT_BUDGETS: tuple[int | None, ...] = (0, 256, 512, 1024, 2048, 4096, None)
BUDGETED_ARMS = ("bank", "placebo", "placebo_other", "compare")
CONTROL_ARMS = ("no_memory", "smallest", "largest", "random", "oracle")
PLACEBOS = ("placebo", "placebo_other")

__all__ = ["DEFAULT_BUDGETS", "SuiteConfig", "SuitePlan", "SuiteResult", "as_of", "attempt_row",
           "finish_suite", "oracle_bank", "plan_suite", "run_suite", "task_pack"]


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


@dataclass
class SuiteResult:
    """The outcome of a suite run: the per-attempt table and its summary."""

    config: SuiteConfig
    bank_id: str | None
    table: pd.DataFrame
    run_dir: Path
    wall_s: float
    bank_tokens: int
    tasks: int
    rates: dict[str, dict[str, ArmRate]] = field(default_factory=dict)
    """Arm -> budget label -> success (controls under the label ``-``)."""
    lifts: dict[str, Lift] = field(default_factory=dict)
    """Budget label -> lift of the bank over the stronger placebo."""
    lifts_by_placebo: dict[str, dict[str, Lift]] = field(default_factory=dict)
    """Placebo arm -> budget label -> lift of the bank over it."""
    comparison: dict[str, Lift] = field(default_factory=dict)
    """Budget label -> lift of the bank over the ``compare`` bank."""
    chance: float = 0.0
    """Mean over tasks of 1/k (k candidates): what a blind pick resolves."""
    leak_findings: dict[str, list[LeakFinding]] = field(default_factory=dict)
    """Arm -> the leaks found in the packs handed out to it (those cells were not attempted)."""
    excluded: dict[str, int] = field(default_factory=dict)
    """Memories ``as_of`` left out over the bank's packs: ``later`` and ``untimed`` (summed over
    tasks)."""

    @property
    def success(self) -> dict[str, ArmRate]:
        """The bank's success by budget label."""
        return self.rates.get("bank", {})

    @property
    def controls(self) -> dict[str, ArmRate]:
        """Each control arm's success."""
        return {arm: next(iter(r.values())) for arm, r in self.rates.items()
                if arm in CONTROL_ARMS and r}

    @property
    def auc(self) -> float:
        return auc({(None if k == "all" else int(k)): r.rate for k, r in self.success.items()})

    @property
    def test_time_s(self) -> float:
        """Raw time of the test runs actually executed (reused grades not counted twice)."""
        fresh = self.table[~self.table["cached"]]
        return float(fresh["test_duration_s"].sum())

    def counts(self, column: str) -> dict[str, dict[str, int]]:
        """Arm -> budget label -> how many attempts have ``column`` true (``leak``, ``tie``,
        ``abstained``)."""
        out: dict[str, dict[str, int]] = {}
        hits = self.table[self.table[column].astype(bool)]
        for (arm, label), rows in hits.groupby(["arm", "budget"], sort=True):
            out.setdefault(str(arm), {})[str(label)] = len(rows)
        return out

    def summary(self) -> dict[str, Any]:
        """The JSON summary ``dreamer eval --json`` prints."""
        bank = self.table[self.table["arm"] == "bank"]
        return {
            "bank": self.bank_id, "suite": self.config.suite, "agent": self.config.agent,
            "tasks": self.tasks, "attempts": len(self.table),
            "permutations": self.config.permutations, "seed": self.config.seed,
            "success": {k: r.rate for k, r in self.success.items()},
            "intervals": {k: [r.low, r.high] for k, r in self.success.items()},
            "spread": {k: [r.spread_low, r.spread_high] for k, r in self.success.items()},
            "lift": {k: lift.model_dump() for k, lift in self.lifts.items()},
            "lift_by_placebo": {arm: {k: v.model_dump() for k, v in by.items()}
                                for arm, by in self.lifts_by_placebo.items()},
            "arms": {arm: {k: r.model_dump() for k, r in by.items()}
                     for arm, by in self.rates.items()},
            "controls": {arm: r.rate for arm, r in self.controls.items()},
            "chance": self.chance,
            "leaks": self.counts("leak"), "ties": self.counts("tie"),
            "abstentions": self.counts("abstained"),
            "excluded_as_of": self.excluded,
            "auc": self.auc, "bank_tokens": self.bank_tokens,
            "resolved": int((bank["status"] == "resolved").sum()),
            "unresolved": int((bank["status"] == "unresolved").sum()),
            "infra_errors": int((bank["status"] == "infra_error").sum()),
            "comparison": {k: v.model_dump() for k, v in self.comparison.items()},
            "wall_s": round(self.wall_s, 3), "test_time_s": round(self.test_time_s, 3),
            "run_dir": str(self.run_dir),
        }


@dataclass(frozen=True)
class _Job:
    task: Task
    arm: str
    budget: int | None
    pack: MemoryPack
    agent: Agent
    leaks: tuple[LeakFinding, ...] = ()


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

    def attempt(item: tuple[_Job, int]) -> dict[str, Any]:
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


@dataclass
class SuitePlan:
    """A suite run before any attempt: every job (task × arm × budget, its pack built and
    leak-checked), in the order the table lists them."""

    tasks: list[Task]
    bank: Bank | None
    config: SuiteConfig
    run_dir: Path
    jobs: list[_Job]
    excluded: dict[str, int]
    started: float

    @property
    def runs(self) -> list[tuple[_Job, int]]:
        """Every attempt: each job under each relabelling, in the table's order."""
        return [(job, p) for job in self.jobs for p in range(self.config.permutations)]


def plan_suite(
    tasks: list[Task], bank: Bank | None, config: SuiteConfig, run_dir: Path,
    compare: Bank | None = None, agent: Agent | None = None, *,
    placebo_pool: Sequence[Memory] = (), source_times: Mapping[str, datetime] | None = None,
) -> SuitePlan:
    """Build and check every pack of the suite (in the calling thread, in order)."""
    start = time.monotonic()
    worker = agent or make_agent(config.agent, config.agent_options)
    times = source_times if source_times is not None else suite_times(config.suite)
    jobs, excluded = _plan(tasks, bank or Bank(), config, worker, compare, placebo_pool, times)
    return SuitePlan(tasks, bank, config, run_dir, jobs, excluded, start)


def attempt_row(job: _Job, permutation: int, config: SuiteConfig, run_dir: Path,
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
                         leak_findings=_findings(plan.jobs))
    _summarise(result, [t.instance_id for t in plan.tasks])
    return result


def _spread(runs: Sequence[tuple[_Job, int]]) -> list[int]:
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


def suite_times(suite: str) -> dict[str, datetime]:
    """When each session and commit of a suite's folder ended (its ``sessions.jsonl`` and
    ``repos/``); empty for a suite without them."""
    from evals.corpus.info import commit_times, session_times
    from evals.tasks import resolve_suite

    try:
        path = resolve_suite(suite)
    except Exception:
        return {}
    folder = path if path.is_dir() else path.parent
    times: dict[str, datetime] = {}
    if (folder / "repos").is_dir():
        times.update(commit_times(folder))
    if (folder / "sessions.jsonl").is_file():
        times.update(session_times(folder))
    return times


def _plan(tasks: list[Task], bank: Bank, config: SuiteConfig, worker: Agent,
          compare: Bank | None, pool: Sequence[Memory],
          times: Mapping[str, datetime]) -> tuple[list[_Job], dict[str, int]]:
    jobs: list[_Job] = []
    excluded = {"later": 0, "untimed": 0}
    others = [*bank.memories, *pool]
    given = donors(tasks, config.seed) if config.controls else {}

    def job(task: Task, arm: str, budget: int | None, pack: MemoryPack,
            agent: Agent = worker) -> _Job:
        found = tuple(check_pack(task, pack, times)) if config.leak_check and pack.items else ()
        return _Job(task, arm, budget, pack, agent, found)

    for task in tasks:
        cut = as_of(bank, task.created_at)
        excluded["later"] += cut.later
        excluded["untimed"] += cut.untimed
        whole = visible_count(bank, task)
        for budget in config.budgets:
            mine = route(cut.bank, task.problem_statement, task.repo, budget)
            jobs.append(job(task, "bank", budget, mine))
            if compare is not None:
                jobs.append(job(task, "compare", budget, task_pack(compare, task, budget)))
            if not config.controls:
                continue
            donor = given.get(task.instance_id)
            if donor is not None and (len(mine.items) < whole or budget == 0):
                jobs.append(job(task, "placebo", budget,
                                placebo_pack(bank, task, donor, budget)))
            if any(m.scope.repo != task.repo for m in others):
                jobs.append(job(task, "placebo_other", budget,
                                placebo_other_pack(others, task, budget)))
        if config.controls:
            jobs += _controls(task, worker, config)
    return jobs, excluded


def _controls(task: Task, worker: Agent, config: SuiteConfig) -> list[_Job]:
    empty = MemoryPack(query=task.problem_statement, budget=0)
    jobs = [_Job(task, "no_memory", 0, empty, worker),
            _Job(task, "smallest", 0, empty, make_agent("smallest")),
            _Job(task, "largest", 0, empty, make_agent("largest")),
            _Job(task, "random", 0, empty, make_agent("random", {"seed": config.seed}))]
    gold = oracle_bank(task)
    if gold is not None:
        jobs.append(_Job(task, "oracle", None, task_pack(gold, task, None), worker))
    else:
        jobs.append(_Job(task, "oracle", None, MemoryPack(budget=None), make_agent("oracle")))
    return jobs


_COLUMNS = ["instance_id", "repo", "family", "arm", "budget", "budget_tokens", "permutation",
            "agent", "pack_tokens", "pack_memories", "status", "resolved", "reason", "chosen",
            "gold_chosen", "abstained", "tie", "leak", "apply_method", "cached", "duration_s",
            "test_duration_s"]


def _row(job: _Job, result: TaskResult) -> dict[str, Any]:
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


def _findings(jobs: list[_Job]) -> dict[str, list[LeakFinding]]:
    found: dict[str, list[LeakFinding]] = {}
    for job in jobs:
        if job.leaks:
            found.setdefault(job.arm, []).extend(job.leaks)
    return found


def _chance(tasks: list[Task]) -> float:
    shares = [1 / len(t.candidates) for t in tasks if t.candidates]
    return sum(shares) / len(tasks) if tasks else 0.0


def per_task(rows: pd.DataFrame, ids: Sequence[str]) -> dict[str, float]:
    """Task id -> mean resolved over its attempts in ``rows`` (0 for a task with none)."""
    means = rows.groupby("instance_id")["resolved"].mean().to_dict()
    return {t: float(means.get(t, 0.0)) for t in ids}


def _summarise(result: SuiteResult, ids: list[str]) -> None:
    # One pass over the rows in plain Python: filtering the frame per arm, budget and
    # permutation cost a second at the demo suite's size, more than its harness otherwise.
    k, seed, n = result.config.permutations, result.config.seed, len(ids)
    resolved: dict[tuple[str, str], list[int]] = {}
    outcomes: dict[tuple[str, str], dict[str, list[bool]]] = {}
    columns = ["arm", "budget", "permutation", "instance_id", "resolved"]
    for arm, label, permutation, task, ok in result.table[columns].itertuples(index=False):
        cell = (str(arm), str(label))
        counts = resolved.setdefault(cell, [0] * k)
        if 0 <= permutation < k:
            counts[int(permutation)] += bool(ok)
        outcomes.setdefault(cell, {}).setdefault(str(task), []).append(bool(ok))
    for (arm, label), counts in resolved.items():
        result.rates.setdefault(arm, {})[label] = arm_rate(counts, n)
    order = {budget_label(b): i for i, b in enumerate(result.config.budgets)}
    for arm in result.rates:
        result.rates[arm] = dict(sorted(result.rates[arm].items(),
                                        key=lambda kv: order.get(kv[0], -1)))

    def means(cell: tuple[str, str]) -> dict[str, float]:
        got = outcomes.get(cell, {})
        return {t: sum(got[t]) / len(got[t]) if got.get(t) else 0.0 for t in ids}

    for label in result.success:
        mine = means(("bank", label))
        against: dict[str, Lift] = {}
        for arm in PLACEBOS:
            if (arm, label) in outcomes:
                lift = paired_lift(mine, means((arm, label)), arm, seed)
                result.lifts_by_placebo.setdefault(arm, {})[label] = lift
                against[arm] = lift
        if against:
            # The stronger placebo is the one with the smaller lift (the higher success).
            result.lifts[label] = min(against.values(), key=lambda lift: lift.lift)
        if ("compare", label) in outcomes:
            result.comparison[label] = paired_lift(mine, means(("compare", label)), "compare",
                                                   seed)
