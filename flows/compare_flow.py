"""Compare strategies and ablations × budgets on the same tasks: every strategy's dream, then
every task × relabelling × strategy × agent as a Prefect task (``evals.sweep``: each unit runs
every budget of its task), on the configuration's task runner (``dreamer.fanout``: Prefect's
threads by default, or a Dask cluster); one MLflow parent run with a nested run per strategy, a
comparison table and one plot of success against memory tokens for all of them. The table is
the one the sequential ``run_suite`` gives (a test)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NONE as NO_CACHE
from prefect.logging import get_run_logger

from dreamer import settings
from dreamer.fanout import task_runner
from dreamer.loop import (
    NightlyConfig,
    dream_union,
    extract_new,
    heldout_tasks,
    ingest_sources,
    load_nightly,
    project_path,
)
from dreamer.models import Bank
from dreamer.sources import SourceTimes
from dreamer.store import open_store
from evals.compare import comparison_table, log_comparison, plot_comparison
from evals.metrics import budget_label
from evals.suite import SuiteConfig, SuitePlan, plan_suite
from evals.sweep import Rows, Unit, forget, gather, run_unit, units
from evals.tasks import Task


@task(cache_policy=NO_CACHE)
def dream_strategy(config_ref: str, strategy: str, lm: str | None) -> Bank:
    """Dream ``strategy`` over the suite's repositories (the union of their candidates)."""
    repos = sorted({t.repo for t in _tasks(load_nightly(config_ref))})
    return dream_union(open_store(), repos, strategy, lm=lm)


def _folder(strategy: str) -> str:
    """A strategy's folder in the run: its name, or a path's file name without the suffix (an
    absolute path joined to the run's folder would replace it)."""
    return Path(strategy).stem if strategy.endswith((".yaml", ".yml")) else strategy


def _tasks(config: NightlyConfig) -> list[Task]:
    """The held-out tasks of the configuration's repositories (all of the suite's if none)."""
    return [t for t in heldout_tasks(config) if not config.repos or t.repo in config.repos]


@task(cache_policy=NO_CACHE, task_run_name="attempt {unit}")
def attempt_unit(unit: Unit) -> Rows:
    """One task under one relabelling, at every budget and arm."""
    return run_unit(unit)


@task(cache_policy=NO_CACHE)
def take_in(config_ref: str) -> dict[str, Any]:
    """Ingest the configuration's sources and extract what is new."""
    config = load_nightly(config_ref)
    store = open_store()
    return {"ingested": ingest_sources(store, config), "extracted": extract_new(store, config)}


@flow(name="compare-strategies", log_prints=True)
def compare_strategies(
    strategies: list[str] | None = None, budgets: list[int | None] | None = None,
    config_ref: str = "default", lm: str | None = None, agents: list[str] | None = None,
    runner: str | None = None, dask_address: str | None = None,
) -> dict[str, Any]:
    """Run every strategy at every budget on the configuration's held-out tasks (of its
    ``repos``, when it names some), with each agent. Strategies, budgets and agents default to
    the configuration's ``compare`` section (agents: its agent and ``embedding``); ``runner``
    (``threads`` or ``dask``) and ``dask_address`` override its ``fan_out``. The
    configuration's sources are ingested and extracted first (a no-op when nothing is new)."""
    config = load_nightly(config_ref)
    names = list(strategies or config.compare.strategies)
    sizes = list(budgets if budgets is not None else config.compare.budgets)
    chosen = tuple(dict.fromkeys(agents or config.compare.agents
                                 or [config.agent, "embedding"]))
    fan_out = config.fan_out.resolved(runner, dask_address)
    get_run_logger().info("fan-out: %s", fan_out.describe())
    take_in(config_ref)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    run_dir = settings.home() / "runs" / f"compare-{stamp}-{os.getpid()}"
    tasks = _tasks(config)
    times = SourceTimes(open_store(), project_path(config.suite))
    plans: dict[str, SuitePlan] = {}
    with task_runner(fan_out) as pool:
        dreams = {name: pool.submit(dream_strategy, {"config_ref": config_ref, "strategy": name,
                                                     "lm": lm}) for name in names}
        pending = {}
        for name in names:
            bank = dreams[name].result()
            for agent in chosen:
                suite = SuiteConfig(suite=config.suite, agent=agent, budgets=tuple(sizes),
                                    timeout_s=config.timeout_s,
                                    permutations=config.permutations, workers=1)
                key = f"{name}@{agent}"
                plans[key] = plan_suite(tasks, bank, suite, run_dir / _folder(name) / agent,
                                        source_times=times)
                pending[key] = [pool.submit(attempt_unit, {"unit": unit})
                                for unit in units(plans[key], str(run_dir))]
        results = {key: gather(plans[key], (f.result() for f in pending[key]))
                   for key in plans}
    forget(str(run_dir))
    table = comparison_table(results)
    plot = plot_comparison(results, run_dir / "comparison.png",
                           title=f"{config.suite}: strategies × budgets")
    run_id = log_comparison(results, table, plot, {
        "strategies": ",".join(names), "budgets": ",".join(budget_label(b) for b in sizes),
        "config": config_ref, "agents": ",".join(chosen), "fan_out": fan_out.describe(),
    })
    create_table_artifact(key="strategy-comparison", table=table.round(4).to_dict("records"),
                          description="Strategies × agents × budgets: success, lift over placebo "
                                      "with its interval, active tokens, curve area; controls.")
    create_markdown_artifact(key="strategy-comparison-plot",
                             markdown=f"Plot: `{plot}`; MLflow parent run `{run_id}`.")
    return {"table": table, "plot": plot, "run_id": run_id, "results": results,
            "run_dir": run_dir, "fan_out": fan_out.describe()}


if __name__ == "__main__":
    compare_strategies()
