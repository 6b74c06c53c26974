"""Comparing strategies on the same tasks: one table, one plot, one MLflow parent run with a
nested run per strategy.

Every strategy's suite runs the same tasks at the same budgets; the table has one row per
strategy (active tokens, success at each budget, curve area) plus the baselines of the run
(no memory, oracle). The plot draws every strategy's success against the budget on the area's
log2 axis, with the baselines as horizontal lines.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from dreamer import tracking
from evals.metrics import budget_position
from evals.suite import SuiteResult

EXPERIMENT = "dreamer-compare"


def comparison_table(results: Mapping[str, SuiteResult]) -> pd.DataFrame:
    """One row per strategy: active tokens, success per budget, area; baselines as rows too."""
    rows = []
    for name, result in results.items():
        row: dict[str, object] = {"strategy": name, "active_tokens": result.bank_tokens}
        row.update({f"success@{label}": rate.rate for label, rate in result.success.items()})
        row["auc"] = result.auc
        rows.append(row)
    table = pd.DataFrame(rows)
    for arm in ("no_memory", "oracle"):
        rate = next((r.baselines[arm] for r in results.values() if arm in r.baselines), None)
        if rate is not None:
            baseline = {"strategy": f"({arm.replace('_', ' ')})", "active_tokens": 0,
                        **{c: rate.rate for c in table.columns if c.startswith("success@")},
                        "auc": rate.rate}
            table = pd.concat([table, pd.DataFrame([baseline])], ignore_index=True)
    return table


def plot_comparison(results: Mapping[str, SuiteResult], path: Path, title: str = "") -> Path:
    """Write one PNG with every strategy's success against memory budget."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.8), dpi=120)
    labels: list[str] = []
    for name, result in results.items():
        labels = list(result.success)
        budgets = [None if k == "all" else int(k) for k in labels]
        finite = [b for b in budgets if b is not None]
        xs = [budget_position(b, finite) for b in budgets]
        ax.plot(xs, [r.rate for r in result.success.values()], marker="o",
                label=f"{name} ({result.bank_tokens} tok, area {result.auc:.2f})")
    first = next(iter(results.values()), None)
    if first is not None:
        styles = {
            "no_memory": ("no memory", "tab:red", ":"),
            "oracle": ("oracle", "tab:green", "--"),
        }
        for arm, rate in first.baselines.items():
            name, colour, dash = styles[arm]
            ax.axhline(rate.rate, color=colour, linestyle=dash, label=f"{name} ({rate.rate:.0%})")
        budgets = [None if k == "all" else int(k) for k in labels]
        finite = [b for b in budgets if b is not None]
        ax.set_xticks([budget_position(b, finite) for b in budgets], labels)
    ax.set_xlabel("memory budget (tokens, log scale)")
    ax.set_ylabel("tasks resolved")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(title or "success against memory tokens")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def log_comparison(results: Mapping[str, SuiteResult], table: pd.DataFrame, plot: Path | None,
                   params: Mapping[str, object]) -> str:
    """One MLflow parent run for the comparison and a nested run per strategy; returns the
    parent's run id."""
    client = tracking.client()
    experiment = tracking.experiment_id(EXPERIMENT, client)
    parent = client.create_run(experiment, run_name="compare", tags={"dreamer.kind": "compare"})
    pid = parent.info.run_id
    for key, value in params.items():
        client.log_param(pid, key, str(value)[:500])
    for name, result in results.items():
        child = client.create_run(experiment, run_name=name, tags={
            "mlflow.parentRunId": pid, "dreamer.kind": "strategy", "strategy": name})
        cid = child.info.run_id
        client.log_param(cid, "strategy", name)
        client.log_param(cid, "bank_id", result.bank_id or "none")
        for label, rate in result.success.items():
            client.log_metric(cid, f"success_{label}", rate.rate)
        client.log_metric(cid, "auc", result.auc)
        client.log_metric(cid, "bank_tokens", result.bank_tokens)
        client.set_terminated(cid)
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "comparison.csv"
        table.to_csv(csv, index=False)
        client.log_artifact(pid, str(csv))
        (Path(tmp) / "summaries.json").write_text(json.dumps(
            {name: r.summary() for name, r in results.items()}, indent=1, default=str))
        client.log_artifact(pid, str(Path(tmp) / "summaries.json"))
        if plot is not None and plot.exists():
            client.log_artifact(pid, str(plot))
    client.set_terminated(pid)
    return pid
