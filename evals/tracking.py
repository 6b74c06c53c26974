"""Each evaluation is an MLflow run: params, metrics per budget, and the run's artifacts.

Tracking goes to ``dreamer.settings.mlflow_tracking_uri()`` (``MLFLOW_TRACKING_URI``, else an
SQLite store under ``.dreamer/``): no server. The experiment (``dreamer-eval`` by default) keeps
its artifacts under ``$DREAMER_HOME/mlartifacts`` rather than the current folder. Runs use
``MlflowClient`` with explicit run ids, so nothing depends on MLflow's global active run.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from dreamer import tracking
from dreamer.models import content_hash
from evals.metrics import budget_label
from evals.suite import SuiteResult

EXPERIMENT = "dreamer-eval"


def config_hash(result: SuiteResult) -> str:
    """A short hash of everything that decides the run's outcome except the tasks' own content."""
    return content_hash({"config": result.config.model_dump(mode="json"), "bank": result.bank_id},
                        length=12)


def log_suite(result: SuiteResult, plot: Path | None = None, experiment: str = EXPERIMENT) -> str:
    """Record ``result`` as a finished MLflow run; returns its run id."""
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
        for key, value in params.items():
            client.log_param(run_id, key, str(value)[:500])
        summary = result.summary()
        for label, rate in result.success.items():
            client.log_metric(run_id, f"success_{_metric(label)}", rate.rate)
        for label, lift in result.lifts.items():
            client.log_metric(run_id, f"lift_{_metric(label)}", lift.lift)
            client.log_metric(run_id, f"lift_p_{_metric(label)}", lift.p_value)
        for arm, rate in result.controls.items():
            client.log_metric(run_id, f"control_{arm}", rate.rate)
        for key in ("auc", "bank_tokens", "chance", "tasks", "attempts", "resolved",
                    "unresolved", "infra_errors", "wall_s", "test_time_s"):
            client.log_metric(run_id, key, float(summary[key]))
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


def _metric(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", label)
