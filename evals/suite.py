"""A suite: every task at every budget for a bank, with baselines, run in parallel.

Arms of one run (column ``arm`` of the table):

- ``bank``: the agent under test with the bank's pack at each budget (``dreamer.router.pack``);
- ``no_memory``: the same agent with an empty pack;
- ``oracle``: the same agent with the task's ``oracle_memories`` packed without a budget (the
  bank-free oracle pack); a task without them runs the ``oracle`` agent (its gold patch);
- ``compare``: the agent with a second bank's packs, paired with ``bank`` by McNemar's test.

Each task sees the bank *as of* its opening: only memories whose evidence is strictly older
(``as_of``), so a replay never uses the future.

Packs are built first, in order, in the calling thread; attempts then run on a thread pool (the
tests are subprocesses). Identical patches of one task are tested once (``GradeCache``). A
success rate counts every task of the suite, infrastructure errors included as not resolved
(as SWE-bench does); the errors are also reported apart.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from dreamer.models import Bank, Memory, MemoryPack
from evals.agents.base import Agent, make_agent
from evals.metrics import Rate, auc, budget_label, mcnemar, wilson
from evals.runner import GradeCache, TaskResult, run_task
from evals.tasks import Task

DEFAULT_BUDGETS: tuple[int | None, ...] = (0, 256, 512, 1024, 2048, 4096, None)


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
    baselines: bool = True
    """Also run the ``no_memory`` and ``oracle`` arms."""


@dataclass
class SuiteResult:
    """The outcome of a suite run: the per-attempt table and its summary."""

    config: SuiteConfig
    bank_id: str | None
    table: pd.DataFrame
    run_dir: Path
    wall_s: float
    bank_tokens: int
    success: dict[str, Rate] = field(default_factory=dict)
    baselines: dict[str, Rate] = field(default_factory=dict)
    comparison: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def auc(self) -> float:
        return auc({(None if k == "all" else int(k)): r.rate for k, r in self.success.items()})

    @property
    def test_time_s(self) -> float:
        """Raw time of the test runs actually executed (reused grades not counted twice)."""
        fresh = self.table[~self.table["cached"]]
        return float(fresh["test_duration_s"].sum())

    def summary(self) -> dict[str, Any]:
        """The JSON summary ``dreamer eval --json`` prints."""
        bank = self.table[self.table["arm"] == "bank"]
        return {
            "bank": self.bank_id, "suite": self.config.suite, "agent": self.config.agent,
            "tasks": int(self.table["instance_id"].nunique()),
            "success": {k: r.rate for k, r in self.success.items()},
            "intervals": {k: [r.low, r.high] for k, r in self.success.items()},
            "auc": self.auc, "bank_tokens": self.bank_tokens,
            "resolved": int((bank["status"] == "resolved").sum()),
            "unresolved": int((bank["status"] == "unresolved").sum()),
            "infra_errors": int((bank["status"] == "infra_error").sum()),
            "baselines": {k: r.rate for k, r in self.baselines.items()},
            "comparison": self.comparison,
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


def bank_tokens(bank: Bank) -> int:
    """Tokens of the bank's active memories, counted as the dream counts them."""
    from dreamer.pipeline import active_tokens

    return active_tokens(bank)


def task_pack(bank: Bank, task: Task, budget: int | None) -> MemoryPack:
    """The pack ``task`` gets from ``bank`` at ``budget``: the bank as of the task's opening,
    through the router; empty at budget 0 or when nothing is active."""
    from dreamer.router import pack

    source = as_of(bank, task.created_at)
    if budget == 0 or not source.active:
        return MemoryPack(query=task.problem_statement, budget=budget)
    return pack(source, task.problem_statement, repo=task.repo, budget=budget)


def as_of(bank: Bank, when: datetime | None) -> Bank:
    """``bank`` as it could have been when a task was opened: only memories whose evidence is
    strictly older. A memory of unknown time cannot be shown to be older, so it is left out
    (memory never comes from the task itself or from anything later)."""
    if when is None:
        return bank
    cutoff = _utc(when)
    kept = tuple(m for m in bank.memories
                 if m.created_at is not None and _utc(m.created_at) < cutoff)
    if len(kept) == len(bank.memories):
        return bank
    return Bank(repo=bank.repo, parent_id=bank.parent_id, origin=bank.origin, memories=kept)


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def oracle_bank(task: Task) -> Bank | None:
    """The bank of the task's ``oracle_memories``, or None when it carries none."""
    if not task.oracle_memories:
        return None
    memories = tuple(Memory.model_validate({k: v for k, v in m.items() if k != "id"})
                     for m in task.oracle_memories)
    return Bank(repo=task.repo, memories=memories)


def run_suite(
    tasks: list[Task], bank: Bank | None, config: SuiteConfig, run_dir: Path,
    compare: Bank | None = None, agent: Agent | None = None,
) -> SuiteResult:
    """Run ``tasks`` for ``bank`` (None: an empty bank) per ``config``; artifacts in ``run_dir``."""
    start = time.monotonic()
    worker = agent or make_agent(config.agent, config.agent_options)
    jobs = _plan(tasks, bank or Bank(), config, worker, compare)
    cache = GradeCache()

    def attempt(job: _Job) -> dict[str, Any]:
        folder = run_dir / job.arm / budget_label(job.budget)
        try:
            result = run_task(job.task, job.agent, job.pack, folder, config.timeout_s, cache=cache)
        except Exception as exc:  # a harness bug must not sink the other attempts
            result = TaskResult(instance_id=job.task.instance_id, status="infra_error",
                                resolved=False, reason=f"harness error: {exc!r}")
        return _row(job, result)

    with ThreadPoolExecutor(max_workers=max(1, config.workers)) as pool:
        rows = list(pool.map(attempt, jobs))
    table = pd.DataFrame(rows)
    result = SuiteResult(config=config, bank_id=bank.id if bank else None, table=table,
                         run_dir=run_dir, wall_s=time.monotonic() - start,
                         bank_tokens=bank_tokens(bank) if bank else 0)
    n = len(tasks)
    result.success = _rates(table[table["arm"] == "bank"], n)
    for arm in ("no_memory", "oracle"):
        rates = _rates(table[table["arm"] == arm], n)
        if rates:
            result.baselines[arm] = next(iter(rates.values()))
    if compare is not None:
        result.comparison = _compare(table, config.budgets, compare.id)
    return result


def _plan(tasks: list[Task], bank: Bank, config: SuiteConfig, worker: Agent,
          compare: Bank | None) -> list[_Job]:
    jobs: list[_Job] = []
    oracle_agent = make_agent("oracle")
    for task in tasks:
        for budget in config.budgets:
            jobs.append(_Job(task, "bank", budget, task_pack(bank, task, budget), worker))
            if compare is not None:
                jobs.append(_Job(task, "compare", budget, task_pack(compare, task, budget),
                                 worker))
        if config.baselines:
            jobs.append(_Job(task, "no_memory", 0, MemoryPack(query=task.problem_statement,
                                                             budget=0), worker))
            gold = oracle_bank(task)
            jobs.append(_Job(task, "oracle", None, task_pack(gold, task, None), worker)
                        if gold
                        else _Job(task, "oracle", None, MemoryPack(budget=None), oracle_agent))
    return jobs


def _row(job: _Job, result: TaskResult) -> dict[str, Any]:
    return {
        "instance_id": job.task.instance_id, "repo": job.task.repo, "family": job.task.family,
        "arm": job.arm, "budget": budget_label(job.budget),
        "budget_tokens": math.inf if job.budget is None else job.budget,
        "agent": result.agent, "pack_tokens": job.pack.tokens,
        "pack_memories": len(job.pack.items), "status": result.status,
        "resolved": result.resolved, "reason": result.reason, "chosen": result.chosen,
        "apply_method": result.apply_method, "cached": result.cached,
        "duration_s": result.duration_s, "test_duration_s": result.test_duration_s,
    }


def _rates(rows: pd.DataFrame, n: int) -> dict[str, Rate]:
    if rows.empty:
        return {}
    ordered = rows.sort_values("budget_tokens")
    return {str(label): wilson(int(group["resolved"].sum()), n)
            for label, group in ordered.groupby("budget", sort=False)}


def _compare(table: pd.DataFrame, budgets: tuple[int | None, ...], other: str) -> dict[str, Any]:
    out: dict[str, Any] = {"bank": other}
    for budget in budgets:
        label = budget_label(budget)
        def by_task(arm: str, label: str = label) -> dict[str, bool]:
            rows = table[(table["arm"] == arm) & (table["budget"] == label)]
            return dict(zip(rows["instance_id"], rows["resolved"].astype(bool), strict=True))
        out[label] = mcnemar(by_task("bank"), by_task("compare")).model_dump()
    return out
