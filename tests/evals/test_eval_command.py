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
    assert (summary["tasks"], summary["permutations"]) == (3, 3)
    # Every attempt (task x arm x budget x relabelling) leaves its artifacts; tasks are apart.
    assert summary["attempts"] == len(list(run_dir.glob("*/*/p*/*/result.json"))) > 3 * 9
    assert summary["success"] == {"0": 0.0, "all": 1.0}
    assert summary["controls"]["no_memory"] == 0.0 and summary["controls"]["oracle"] == 1.0
    assert summary["leaks"] == {}
    assert summary["lift"]["0"]["lift"] == 0.0
    lift = summary["lift"]["all"]
    assert lift["lift"] > 0 and lift["tasks"] == 3 and lift["low"] <= lift["lift"] <= lift["high"]
    assert 0.0 < summary["auc"] < 1.0 and summary["bank_tokens"] > 100
    assert (summary["resolved"], summary["unresolved"], summary["infra_errors"]) == (9, 9, 0)
    assert summary["comparison"]["all"]["wins"] == 3
    assert summary["comparison"]["all"]["p_value"] == 0.125
    assert Path(summary["plot"]).read_bytes()[:4] == b"\x89PNG"
    report = run_dir / "bank" / "all" / "p0" / "acme__textkit-1" / "report.json"
    assert json.loads(report.read_text())["acme__textkit-1"]["resolved"] is True

    from mlflow.tracking import MlflowClient

    from dreamer import settings

    client = MlflowClient(settings.mlflow_tracking_uri())
    run = client.get_run(summary["mlflow_run_id"])
    # One curve: `success` at step = budget in tokens ("all" one doubling past the largest).
    curve = {m.step: m.value for m in client.get_metric_history(run.info.run_id, "success")}
    budgets = [int(b) for b in run.data.params["budgets"].split(",") if b != "all"]
    assert curve[0] == 0.0 and curve[2 * max(budgets) + 1] == 1.0
    assert sorted(curve) == sorted({*budgets, 2 * max(budgets) + 1})
    assert run.data.params["bank_id"] == demo.bank.id and run.data.params["agent"] == "selector"
    artifacts = {a.path for a in MlflowClient(settings.mlflow_tracking_uri())
                 .list_artifacts(run.info.run_id)}
    assert {"results.csv", "success_vs_tokens.png", "reports"} <= artifacts


def test_eval_prints_a_table_and_refuses_unknown_agents(demo: DemoSuite, tmp_path: Path) -> None:
    shown = CliRunner().invoke(app, [
        "eval", "--suite", str(demo.path), "--agent", "oracle", "--budgets", "0",
        "--no-controls", "--no-track", "--permutations", "2", "--run-dir", str(tmp_path / "r"),
    ])
    assert shown.exit_code == 0, shown.output
    assert "acme__pricing-1" in shown.stdout and "budget     0: 100%" in shown.stdout
    assert "2/2" in shown.stdout
    one = CliRunner().invoke(app, [
        "eval", "--suite", str(demo.path), "--agent", "oracle", "--budgets", "0",
        "--repo", "acme/textkit", "--no-track", "--json", "--run-dir", str(tmp_path / "one"),
    ])
    assert one.exit_code == 0, one.output
    summary = json.loads(one.stdout)
    assert summary["tasks"] == 1 and summary["attempts"] > summary["tasks"]
    missing = CliRunner().invoke(app, ["eval", "--suite", str(demo.path), "--repo", "acme/nope"])
    assert missing.exit_code == 2 and "holds no task of 'acme/nope'" in missing.output
    unknown = CliRunner().invoke(app, ["eval", "--suite", str(demo.path), "--agent", "psychic"])
    assert unknown.exit_code == 2 and "unknown agent 'psychic'" in unknown.output
