"""Gold validation, as SWE-bench's own harness checks a dataset: per row, the gold patch must be
resolved and the empty patch must not.

``build_envs(tasks)`` builds (or finds cached) the environment of every row's spec, once per
spec. ``validate(tasks, run_dir)`` then grades each row's gold patch and the empty patch through
the runner (``evals.runner.run_task``), which writes SWE-bench's ``report.json`` per instance
under ``run_dir/gold/<instance_id>/`` and ``run_dir/empty/<instance_id>/``; the rows' outcomes go
to ``run_dir/validation.json``. A row is *judged* when gold is resolved and empty is not; every
other row is listed with its reason, so a researcher knows which instances the local harness
cannot judge.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from evals.agents.base import Agent, AgentInput, Attempt
from evals.errors import InfraError
from evals.swebench.envs import ensure_env, env_folder, is_built
from evals.swebench.pythons import find_python
from evals.swebench.specs import EnvSpec, env_spec
from evals.tasks import Task


class FixedPatch(Agent):
    """An agent that answers one given patch (the gold patch, or the empty patch)."""

    name = "fixed-patch"

    def __init__(self, patch: str, label: str) -> None:
        super().__init__()
        self.patch, self.label = patch, label

    def attempt(self, inp: AgentInput) -> Attempt:
        return Attempt(patch=self.patch, chosen=None, rationale=self.label)


@dataclass(frozen=True)
class EnvOutcome:
    """One row's environment: its cache key, whether it was built now, and any failure."""

    instance_id: str
    key: str
    python: str
    state: str
    """``cached``, ``built`` or ``failed``."""
    reason: str = ""
    seconds: float = 0.0


class ValidationRow(BaseModel):
    """The validation outcome of one row."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_id: str
    repo: str
    version: str
    env: str
    """``cached``, ``built`` or ``failed``."""
    env_key: str = ""
    gold: str
    """The gold patch's status: ``resolved``, ``unresolved`` or ``infra_error``."""
    gold_reason: str = ""
    empty: str
    empty_reason: str = ""
    wall_s: float
    """Time to grade gold and empty (environment build excluded)."""
    env_s: float = 0.0
    """Time spent building this row's environment (0 when it was cached or shared)."""

    @property
    def judged(self) -> bool:
        """Gold resolved and empty not: the local harness can judge this row."""
        return self.gold == "resolved" and self.empty != "resolved"

    @property
    def reason(self) -> str:
        if self.judged:
            return ""
        if self.gold != "resolved":
            return f"gold {self.gold}: {self.gold_reason}"
        return f"empty {self.empty}: {self.empty_reason}"


def row_spec(task: Task) -> EnvSpec:
    """The spec of ``task``'s environment, read from a working copy of its base tree."""
    from evals.swebench.grade import git_source
    from evals.workspace import Workspace

    with Workspace.create(task) as ws:
        return env_spec(task, ws.path, git_source(task))


def build_envs(
    tasks: list[Task], on_step: Callable[[str, str], None] | None = None
) -> list[EnvOutcome]:
    """Build the environment of every row's spec (each spec once); one outcome per row.

    ``on_step(instance_id, step)`` hears each build step (``spec``, ``venv``, ``pip``, ...).
    """
    outcomes: list[EnvOutcome] = []
    done: dict[str, EnvOutcome] = {}
    for task in tasks:
        def step(name: str, instance_id: str = task.instance_id) -> None:
            if on_step is not None:
                on_step(instance_id, name)

        step("spec")
        outcome = _env_of(task, done, step)
        if outcome.key and outcome.key not in done:
            done[outcome.key] = outcome
        outcomes.append(outcome)
    return outcomes


def _env_of(task: Task, done: dict[str, EnvOutcome], step: Callable[[str], None]) -> EnvOutcome:
    started = time.monotonic()
    key, python = "", ""
    try:
        spec = row_spec(task)
        python = spec.python
        key = env_folder(spec, find_python(spec.python)).name
        if key in done:  # built (or failed) for an earlier row of this run
            earlier = done[key]
            state = "failed" if earlier.state == "failed" else "cached"
            return EnvOutcome(task.instance_id, key, python, state, earlier.reason)
        state = "cached" if is_built(spec) else "built"
        ensure_env(spec, step)
        seconds = time.monotonic() - started if state == "built" else 0.0
        return EnvOutcome(task.instance_id, key, python, state, seconds=seconds)
    except InfraError as exc:
        first = exc.detail.strip().splitlines()[0] if exc.detail.strip() else ""
        reason = f"{exc.reason}: {first}" if first else exc.reason
        return EnvOutcome(task.instance_id, key, python, "failed", reason,
                          time.monotonic() - started)


def validate(
    tasks: list[Task], run_dir: Path, timeout: float = 900.0,
    on_row: Callable[[ValidationRow], None] | None = None,
    on_step: Callable[[str, str], None] | None = None,
) -> list[ValidationRow]:
    """Gold and empty patch for every row (see the module docstring)."""
    from evals.runner import run_task

    envs = {e.instance_id: e for e in build_envs(tasks, on_step)}
    rows: list[ValidationRow] = []
    for task in tasks:
        env = envs[task.instance_id]
        if on_step:
            on_step(task.instance_id, "gold")
        started = time.monotonic()
        gold = run_task(task, FixedPatch(task.patch, "gold patch"), run_dir=run_dir / "gold",
                        timeout=timeout)
        empty = run_task(task, FixedPatch("", "empty patch"), run_dir=run_dir / "empty",
                         timeout=timeout)
        row = ValidationRow(
            instance_id=task.instance_id, repo=task.repo, version=str(task.version),
            env=env.state, env_key=env.key, gold=gold.status, gold_reason=gold.reason,
            empty=empty.status, empty_reason=empty.reason,
            wall_s=round(time.monotonic() - started, 1), env_s=round(env.seconds, 1),
        )
        rows.append(row)
        if on_row:
            on_row(row)
    write_summary(rows, run_dir)
    return rows


def write_summary(rows: list[ValidationRow], run_dir: Path) -> Path:
    """``validation.json``: every row, and the rows the local harness cannot judge."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / "validation.json"
    summary = {
        "rows": [r.model_dump() | {"judged": r.judged} for r in rows],
        "judged": sum(r.judged for r in rows),
        "cannot_judge": {r.instance_id: r.reason for r in rows if not r.judged},
    }
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return path
