"""Compare strategies and ablations × budgets on the same tasks, in parallel through Prefect's
task runner: one MLflow parent run with a nested run per strategy, a comparison table and one
plot of success against memory tokens for all of them."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NONE as NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner

from dreamer import settings
from dreamer.loop import (
    dream_union,
    extract_new,
    heldout_tasks,
    ingest_sources,
    load_nightly,
    project_path,
)
from dreamer.sources import SourceTimes
from dreamer.store import open_store
from evals.compare import comparison_table, log_comparison, plot_comparison
from evals.metrics import budget_label
from evals.runner import GradeCache
from evals.suite import SuiteConfig, SuiteResult, run_suite

_GRADES: dict[str, GradeCache] = {}
"""One grade cache per comparison run: every strategy and agent tests a patch of a task once."""


@task(cache_policy=NO_CACHE)
def evaluate_strategy(config_ref: str, strategy: str, agents: tuple[str, ...],
                      budgets: tuple[int | None, ...], run_dir: str,
                      lm: str | None) -> dict[str, SuiteResult]:
    """Dream ``strategy`` over the suite's repositories and evaluate it with each agent."""
    config = load_nightly(config_ref)
    store = open_store()
    tasks = heldout_tasks(config)
    bank = dream_union(store, sorted({t.repo for t in tasks}), strategy, lm=lm)
    extra: dict[str, Any] = {"workers": config.workers} if config.workers else {}
    times = SourceTimes(store, project_path(config.suite))
    cache = _GRADES.setdefault(run_dir, GradeCache())
    out = {}
    for agent in agents:
        suite = SuiteConfig(suite=config.suite, agent=agent, budgets=budgets,
                            timeout_s=config.timeout_s, permutations=config.permutations,
                            **extra)
        out[f"{strategy}@{agent}"] = run_suite(tasks, bank, suite,
                                               Path(run_dir) / strategy / agent,
                                               source_times=times, cache=cache)
    return out


@task(cache_policy=NO_CACHE)
def take_in(config_ref: str) -> dict[str, Any]:
    """Ingest the configuration's sources and extract what is new."""
    config = load_nightly(config_ref)
    store = open_store()
    return {"ingested": ingest_sources(store, config), "extracted": extract_new(store, config)}


@flow(name="compare-strategies", log_prints=True,
      task_runner=ThreadPoolTaskRunner(max_workers=2))  # type: ignore[arg-type]
def compare_strategies(
    strategies: list[str], budgets: list[int | None], config_ref: str = "default",
    lm: str | None = None, agents: list[str] | None = None,
) -> dict[str, Any]:
    """Run every strategy at every budget on the configuration's held-out tasks, with each
    agent (default: the configuration's agent and ``embedding``, the two offline agents). The
    configuration's sources are ingested and extracted first (a no-op when nothing is new)."""
    take_in(config_ref)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    run_dir = settings.home() / "runs" / f"compare-{stamp}-{os.getpid()}"
    chosen = tuple(dict.fromkeys(agents or [load_nightly(config_ref).agent, "embedding"]))
    futures = {
        name: evaluate_strategy.submit(config_ref, name, chosen, tuple(budgets), str(run_dir), lm)
        for name in strategies
    }
    results = {key: res for future in futures.values() for key, res in future.result().items()}
    _GRADES.pop(str(run_dir), None)
    table = comparison_table(results)
    plot = plot_comparison(results, run_dir / "comparison.png",
                           title=f"{load_nightly(config_ref).suite}: strategies × budgets")
    run_id = log_comparison(results, table, plot, {
        "strategies": ",".join(strategies), "budgets": ",".join(budget_label(b) for b in budgets),
        "config": config_ref, "agents": ",".join(chosen),
    })
    create_table_artifact(key="strategy-comparison", table=table.round(4).to_dict("records"),
                          description="Strategies × agents × budgets: success, lift over placebo "
                                      "with its interval, active tokens, curve area; controls.")
    create_markdown_artifact(key="strategy-comparison-plot",
                             markdown=f"Plot: `{plot}`; MLflow parent run `{run_id}`.")
    return {"table": table, "plot": plot, "run_id": run_id, "results": results,
            "run_dir": run_dir}


if __name__ == "__main__":
    compare_strategies(["none", "default"], [0, 256, 1024, None])
