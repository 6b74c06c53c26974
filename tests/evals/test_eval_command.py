"""``dreamer eval`` end to end: a real suite, the table, the plot, the MLflow run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.models import Bank
from evals.examples.demo import DISTRACTORS, DemoSuite


def test_eval_json_plot_mlflow_and_comparison(demo: DemoSuite, tmp_path: Path) -> None:
    weak = tmp_path / "weak.json"
    weak.write_text(Bank(memories=tuple(DISTRACTORS)).model_dump_json())
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(app, [
        "eval", "--bank", str(demo.path / "bank.json"), "--suite", str(demo.path),
        "--agent", "selector", "--budgets", "0,all", "--compare", str(weak),
        "--run-dir", str(run_dir), "--timeout", "60", "--json",
    ])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["success"] == {"0": 0.0, "all": 1.0}
    assert summary["baselines"] == {"no_memory": 0.0, "oracle": 1.0}
    assert 0.0 < summary["auc"] < 1.0 and summary["bank_tokens"] > 100
    assert (summary["resolved"], summary["unresolved"], summary["infra_errors"]) == (3, 3, 0)
    assert summary["comparison"]["all"]["only_first"] == 3
    assert summary["comparison"]["all"]["p_value"] == 0.25
    assert Path(summary["plot"]).read_bytes()[:4] == b"\x89PNG"
    report = run_dir / "bank" / "all" / "acme__textkit-1" / "report.json"
    assert json.loads(report.read_text())["acme__textkit-1"]["resolved"] is True

    from mlflow.tracking import MlflowClient

    from dreamer import settings

    run = MlflowClient(settings.mlflow_tracking_uri()).get_run(summary["mlflow_run_id"])
    assert run.data.metrics["success_all"] == 1.0 and run.data.metrics["success_0"] == 0.0
    assert run.data.params["bank_id"] == demo.bank.id and run.data.params["agent"] == "selector"
    artifacts = {a.path for a in MlflowClient(settings.mlflow_tracking_uri())
                 .list_artifacts(run.info.run_id)}
    assert {"results.csv", "success_vs_tokens.png", "reports"} <= artifacts


def test_eval_prints_a_table_and_refuses_unknown_agents(demo: DemoSuite, tmp_path: Path) -> None:
    shown = CliRunner().invoke(app, [
        "eval", "--suite", str(demo.path), "--agent", "oracle", "--budgets", "0",
        "--no-baselines", "--no-track", "--run-dir", str(tmp_path / "r"),
    ])
    assert shown.exit_code == 0, shown.output
    assert "acme__pricing-1" in shown.stdout and "budget     0: 3/3 = 100%" in shown.stdout
    unknown = CliRunner().invoke(app, ["eval", "--suite", str(demo.path), "--agent", "psychic"])
    assert unknown.exit_code == 2 and "unknown agent 'psychic'" in unknown.output
