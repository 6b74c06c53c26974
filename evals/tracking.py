"""Each evaluation is an MLflow run: params, the success curve, and the run's artifacts.

The curve is one metric, ``success``, logged at ``step`` = the budget in tokens (and ``lift``,
``lift_p`` beside it), so MLflow draws it itself; "all" (the whole bank) sits one doubling past
the largest finite budget, at step ``2·max + 1``, where the curve's area puts it too
(``evals.metrics``). Params and metrics go in one ``log_batch`` call each run.

Tracking goes to ``dreamer.settings.mlflow_tracking_uri()`` (``MLFLOW_TRACKING_URI``, else an
SQLite store under ``.dreamer/``): no server. The experiment (``dreamer-eval`` by default) keeps
its artifacts under ``$DREAMER_HOME/mlartifacts`` rather than the current folder. Runs use
``MlflowClient`` with explicit run ids, so nothing depends on MLflow's global active run.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamer import tracking
from dreamer.models import content_hash
from evals.metrics import budget_label
from evals.suite_result import SuiteResult

if TYPE_CHECKING:
    from mlflow.entities import Metric

EXPERIMENT = "dreamer-eval"


def config_hash(result: SuiteResult) -> str:
    """A short hash of everything that decides the run's outcome except the tasks' own content."""
    return content_hash({"config": result.config.model_dump(mode="json"), "bank": result.bank_id},
                        length=12)


def log_suite(result: SuiteResult, plot: Path | None = None, experiment: str = EXPERIMENT,
              lm_usage: Mapping[str, Any] | None = None) -> str:
    """Record ``result`` as a finished MLflow run; returns its run id. ``lm_usage`` (the ``llm``
    agent's ``LMUsage.as_dict()``) adds its calls, failures, tokens and cost."""
    client = tracking.client()
    experiment_id = tracking.experiment_id(experiment, client)
    cfg = result.config
    run = client.create_run(experiment_id, run_name=f"eval-{cfg.agent}-{Path(cfg.suite).name}",
                            tags={"dreamer.kind": "eval"})
    run_id = run.info.run_id
    try:
        params = {
            "bank_id": result.bank_id or "none", "suite": cfg.suite, "agent": cfg.agent,
            "budgets": ",".join(budget_label(b) for b in cfg.budgets),
            "config_hash": config_hash(result), "timeout_s": cfg.timeout_s,
            "agent_options": json.dumps(cfg.agent_options, sort_keys=True),
            "permutations": cfg.permutations, "seed": cfg.seed, "controls": cfg.controls,
        }
        summary = result.summary()
        scalars = {f"control_{arm}": rate.rate for arm, rate in result.controls.items()}
        scalars.update({key: float(summary[key]) for key in (
            "auc", "bank_tokens", "chance", "tasks", "attempts", "resolved", "unresolved",
            "infra_errors", "wall_s", "test_time_s")})
        scalars.update(tracking.lm_metrics(lm_usage))
        params.update(tracking.lm_params(lm_usage))
        log_run(client, run_id, params, scalars, result)
        _log_artifacts(client, run_id, result, summary, plot)
    except Exception:
        client.set_terminated(run_id, status="FAILED")
        raise
    client.set_terminated(run_id, status="FINISHED")
    return run_id


def _log_artifacts(client: object, run_id: str, result: SuiteResult, summary: dict[str, object],
                   plot: Path | None) -> None:
    log = client.log_artifact  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        result.table.to_csv(folder / "results.csv", index=False)
        (folder / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
        log(run_id, str(folder / "results.csv"))
        log(run_id, str(folder / "summary.json"))
        if plot is not None and plot.exists():
            log(run_id, str(plot))
        reports = folder / "reports"
        for report in sorted(result.run_dir.glob("*/*/*/*/report.json")):
            target = reports.joinpath(*report.parts[-5:])
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(report, target)
        if reports.exists():
            client.log_artifacts(run_id, str(reports), artifact_path="reports")  # type: ignore[attr-defined]


def budget_step(budget: int | None, budgets: Sequence[int | None]) -> int:
    """The step a budget's point of the curve is logged at: its tokens; "all" one doubling past
    the largest finite budget."""
    if budget is not None:
        return budget
    return 2 * max((b for b in budgets if b is not None), default=0) + 1


def curve_metrics(result: SuiteResult, timestamp: int) -> list[Metric]:
    """``success``, ``lift`` and ``lift_p`` of ``result``, one point per budget (step)."""
    from mlflow.entities import Metric

    budgets = result.config.budgets
    step = {budget_label(b): budget_step(b, budgets) for b in budgets}
    points = [Metric("success", rate.rate, timestamp, step[label])
              for label, rate in result.success.items() if label in step]
    for label, lift in result.lifts.items():
        if label in step:
            points.append(Metric("lift", lift.lift, timestamp, step[label]))
            points.append(Metric("lift_p", lift.p_value, timestamp, step[label]))
    return points


def log_run(client: Any, run_id: str, params: Mapping[str, object],
            scalars: Mapping[str, float], result: SuiteResult | None = None) -> None:
    """Params, scalar metrics and (with ``result``) the curve of a run in one call."""
    from mlflow.entities import Metric, Param

    now = int(time.time() * 1000)
    metrics = [Metric(key, float(value), now, 0) for key, value in scalars.items()]
    if result is not None:
        metrics += curve_metrics(result, now)
    client.log_batch(run_id, metrics=metrics,
                     params=[Param(key, str(value)[:500]) for key, value in params.items()])
