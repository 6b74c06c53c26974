"""Comparing strategies on the same tasks: one table, one plot, one MLflow parent run with a
nested run per strategy and agent.

Every strategy's suite runs the same tasks at the same budgets under the same relabellings; the
table has one row per (strategy, agent): active tokens, success at each budget (mean over the
relabellings), the **lift** over placebo at each budget with its 95% interval and sign-test
p-value, the curve area and the leaking cells. The controls follow as rows (no memory, smallest,
largest, random, oracle; chance = 1/k). A strategy's gain counts when its lift holds for both
offline agents. The plot draws every strategy's success against the budget on the area's log2
axis, with the controls as horizontal lines.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from dreamer import tracking
from evals.metrics import budget_position
from evals.suite_result import SuiteResult
from evals.tracking import log_run

EXPERIMENT = "dreamer-compare"


def split_name(name: str) -> tuple[str, str]:
    """``strategy@agent`` -> (strategy, agent); a bare name has the agent ``""``."""
    strategy, _, agent = name.partition("@")
    return strategy, agent


def comparison_table(results: Mapping[str, SuiteResult]) -> pd.DataFrame:
    """One row per ``strategy@agent``: tokens, success and lift per budget, area, leaks; then
    the controls of each agent and chance."""
    rows: list[dict[str, object]] = []
    for name, result in results.items():
        strategy, agent = split_name(name)
        row: dict[str, object] = {"strategy": strategy, "agent": agent or result.config.agent,
                                  "active_tokens": result.bank_tokens}
        row.update({f"success@{label}": rate.rate for label, rate in result.success.items()})
        for label, lift in result.lifts.items():
            row[f"lift@{label}"] = lift.lift
            row[f"lift_low@{label}"] = lift.low
            row[f"lift_high@{label}"] = lift.high
            row[f"lift_p@{label}"] = lift.p_value
        row["auc"] = result.auc
        row["leaks"] = int(result.table[result.table["arm"] == "bank"]["leak"].sum())
        rows.append(row)
    seen: set[str] = set()
    for name, result in results.items():
        agent = split_name(name)[1] or result.config.agent
        if agent in seen:
            continue
        seen.add(agent)
        labels = list(result.success)
        for arm, rate in result.controls.items():
            rows.append({"strategy": f"({arm.replace('_', ' ')})", "agent": agent,
                         "active_tokens": 0, **{f"success@{k}": rate.rate for k in labels},
                         "auc": rate.rate})
        rows.append({"strategy": "(chance 1/k)", "agent": "-", "active_tokens": 0,
                     **{f"success@{k}": result.chance for k in labels}, "auc": result.chance})
    table = pd.DataFrame(rows)
    return table.drop_duplicates(subset=["strategy", "agent"], keep="first", ignore_index=True)


def display_rows(table: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The table as a terminal shows it: success and lift per budget, the lift's 95% interval
    and p-value in the same cell; "no placebo" where none could be drawn (the pack is the whole
    visible bank and the suite has a single repository)."""
    budgets = [c.split("@", 1)[1] for c in table.columns if c.startswith("success@")]
    header = ["strategy", "agent", "tokens", *(f"@{b}" for b in budgets),
              *(f"lift@{b}" for b in budgets if f"lift@{b}" in table.columns), "area", "leaks"]
    out = []
    for _, row in table.iterrows():
        cells = [str(row["strategy"]), str(row["agent"]), str(int(row["active_tokens"]))]
        cells += [f"{row[f'success@{b}']:.2f}" for b in budgets]
        for b in budgets:
            if f"lift@{b}" not in table.columns:
                continue
            lift = row[f"lift@{b}"]
            bank_row = not str(row["strategy"]).startswith("(")
            # No placebo at a budget where the pack is the whole visible bank and no other
            # repository's memories exist: shuffling the bank would hand out the same pack.
            cells.append(("no placebo" if bank_row else "") if pd.isna(lift) else
                         f"{lift:+.2f} [{row[f'lift_low@{b}']:+.2f},{row[f'lift_high@{b}']:+.2f}]"
                         f" p={row[f'lift_p@{b}']:.2g}")
        leaks = row.get("leaks")
        cells += [f"{row['auc']:.2f}", "" if leaks is None or pd.isna(leaks) else str(int(leaks))]
        out.append(cells)
    return header, out


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
        from evals.plot import CONTROL_STYLES

        for arm, rate in first.controls.items():
            name, colour, dash = CONTROL_STYLES.get(arm, (arm, "grey", ":"))
            ax.axhline(rate.rate, color=colour, linestyle=dash, label=f"{name} ({rate.rate:.0%})")
        ax.axhline(first.chance, color="black", linestyle=(0, (1, 4)), alpha=0.6,
                   label=f"chance 1/k ({first.chance:.0%})")
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
    log_run(client, pid, params, {})
    for name, result in results.items():
        child = client.create_run(experiment, run_name=name, tags={
            "mlflow.parentRunId": pid, "dreamer.kind": "strategy", "strategy": name})
        cid = child.info.run_id
        strategy, agent = split_name(name)
        log_run(client, cid, {"strategy": strategy, "agent": agent or result.config.agent,
                              "bank_id": result.bank_id or "none"},
                {"auc": result.auc, "bank_tokens": result.bank_tokens}, result)
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
