"""A suite's plan: every job (task x arm x budget) with its pack built and leak-checked.

Packs are built first, in order, in the calling thread: each task sees the bank *as of* its
opening (``evals.packs.as_of``), and every pack handed out is checked for leaks
(``evals.leaks``, the one definition); a leaking cell is not attempted and counts as unresolved.
The arms are listed in ``evals.suite``'s docstring.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dreamer.models import Bank, Memory, MemoryPack
from evals.agents.base import Agent, make_agent
from evals.leaks import LeakFinding, check_pack
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
from evals.tasks import Task

if TYPE_CHECKING:
    from evals.suite import SuiteConfig


@dataclass(frozen=True)
class Job:
    """One cell of a suite: a task, an arm and a budget, its pack (built and leak-checked) and
    the agent that attempts it."""

    task: Task
    arm: str
    budget: int | None
    pack: MemoryPack
    agent: Agent
    leaks: tuple[LeakFinding, ...] = ()


@dataclass
class SuitePlan:
    """A suite run before any attempt: every job (task × arm × budget, its pack built and
    leak-checked), in the order the table lists them."""

    tasks: list[Task]
    bank: Bank | None
    config: SuiteConfig
    run_dir: Path
    jobs: list[Job]
    excluded: dict[str, int]
    started: float

    @property
    def runs(self) -> list[tuple[Job, int]]:
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
          times: Mapping[str, datetime]) -> tuple[list[Job], dict[str, int]]:
    jobs: list[Job] = []
    excluded = {"later": 0, "untimed": 0}
    others = [*bank.memories, *pool]
    given = donors(tasks, config.seed) if config.controls else {}

    def job(task: Task, arm: str, budget: int | None, pack: MemoryPack,
            agent: Agent = worker) -> Job:
        found = tuple(check_pack(task, pack, times)) if config.leak_check and pack.items else ()
        return Job(task, arm, budget, pack, agent, found)

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


def _controls(task: Task, worker: Agent, config: SuiteConfig) -> list[Job]:
    empty = MemoryPack(query=task.problem_statement, budget=0)
    jobs = [Job(task, "no_memory", 0, empty, worker),
            Job(task, "smallest", 0, empty, make_agent("smallest")),
            Job(task, "largest", 0, empty, make_agent("largest")),
            Job(task, "random", 0, empty, make_agent("random", {"seed": config.seed}))]
    gold = oracle_bank(task)
    if gold is not None:
        jobs.append(Job(task, "oracle", None, task_pack(gold, task, None), worker))
    else:
        jobs.append(Job(task, "oracle", None, MemoryPack(budget=None), make_agent("oracle")))
    return jobs


def leak_findings(jobs: list[Job]) -> dict[str, list[LeakFinding]]:
    found: dict[str, list[LeakFinding]] = {}
    for job in jobs:
        if job.leaks:
            found.setdefault(job.arm, []).extend(job.leaks)
    return found
