"""A suite's attempts fanned out as units that run anywhere: a thread, a Dask worker process.

A unit is one task under one relabelling, with every budget and arm of it (about twenty
attempts on the sample): the attempts of one task share its working copies and grade the same
patch once, so cutting finer would multiply clones and test runs, while tasks × relabellings ×
strategies × agents gives a sweep far more units than a cluster has workers. Each unit returns
its rows with their places in ``SuitePlan.runs``; ``gather`` puts them back in that order, so
the table is exactly the one ``run_suite`` builds in a single process.

Grades are shared by every unit of a run that lands in the same process (``grades``), as the
threads of ``run_suite`` share them; a unit in another process grades its patches anew, with the
same outcome (a grade depends only on the task and the patch).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evals.runner import GradeCache
from evals.suite import SuiteConfig, SuitePlan, SuiteResult, attempt_row, finish_suite
from evals.workspace_pool import WorkspacePool

Rows = list[tuple[int, dict[str, Any]]]
"""A unit's rows, each with its index in ``SuitePlan.runs``."""

_GRADES: OrderedDict[str, GradeCache] = OrderedDict()
_GRADES_LOCK = threading.Lock()
_GRADES_KEPT = 4
"""Runs whose grades a process keeps (a long-lived Dask worker serves run after run)."""


class Unit:
    """The attempts of one task under one relabelling: ``(index, job, permutation)`` each.

    A plain class, not a dataclass: Prefect walks dataclass parameters looking for futures,
    and a unit holds packs and tasks that need no walking."""

    __slots__ = ("config", "items", "run_dir", "run_key")

    def __init__(self, run_key: str, config: SuiteConfig, run_dir: Path,
                 items: tuple[tuple[int, Any, int], ...]) -> None:
        self.run_key = run_key
        """The run the unit belongs to: units of one run share grades within a process."""
        self.config = config
        self.run_dir = run_dir
        self.items = items

    def __reduce__(self) -> tuple[Any, ...]:
        return (Unit, (self.run_key, self.config, self.run_dir, self.items))

    def __repr__(self) -> str:
        first = self.items[0][1].task.instance_id if self.items else "-"
        return f"Unit({first}, {len(self.items)} attempts)"


def units(plan: SuitePlan, run_key: str) -> list[Unit]:
    """The plan's attempts grouped by task and relabelling, in the plan's order."""
    groups: dict[tuple[str, int], list[tuple[int, Any, int]]] = {}
    for index, (job, permutation) in enumerate(plan.runs):
        groups.setdefault((job.task.instance_id, permutation), []).append(
            (index, job, permutation))
    return [Unit(run_key, plan.config, plan.run_dir, tuple(items)) for items in groups.values()]


def run_unit(unit: Unit) -> Rows:
    """Run a unit's attempts one after another (the runner's workers give the parallelism)."""
    cache = grades(unit.run_key)
    with WorkspacePool() as copies:
        return [(index, attempt_row(job, permutation, unit.config, unit.run_dir, cache, copies))
                for index, job, permutation in unit.items]


def gather(plan: SuitePlan, results: Iterable[Rows]) -> SuiteResult:
    """The suite's result from every unit's rows, in the order of ``plan.runs``."""
    rows: dict[int, dict[str, Any]] = {}
    for unit_rows in results:
        rows.update(unit_rows)
    missing = len(plan.runs) - len(rows)
    if missing:
        raise ValueError(f"{missing} of {len(plan.runs)} attempts of {plan.run_dir} returned "
                         "no row: gather every unit's result")
    return finish_suite(plan, [rows[i] for i in range(len(plan.runs))])


def forget(run_key: str) -> None:
    """Drop a finished run's grades in this process."""
    with _GRADES_LOCK:
        _GRADES.pop(run_key, None)


def grades(run_key: str) -> GradeCache:
    """This process's grade cache for the run ``run_key``."""
    with _GRADES_LOCK:
        cache = _GRADES.setdefault(run_key, GradeCache())
        _GRADES.move_to_end(run_key)
        while len(_GRADES) > _GRADES_KEPT:
            _GRADES.popitem(last=False)
        return cache
