"""The picture of a suite: success rate against memory tokens, beside its placebos and controls.

The x axis is the budget on the same log2 positions the area uses ("all" one doubling past the
largest budget). The bank and the placebo arms are curves (each point the mean over the
relabellings, with its Wilson 95% interval for the bank); the controls that carry no budget (no
memory, largest, random, oracle) and chance (1/k) are horizontal lines; the bank's active tokens
are a vertical line.
"""

from __future__ import annotations

import math
from pathlib import Path

from evals.metrics import budget_position
from evals.suite_result import SuiteResult

CONTROL_STYLES = {
    "no_memory": ("no memory", "tab:red", ":"),
    "smallest": ("smallest patch", "tab:brown", ":"),
    "largest": ("largest patch", "tab:purple", ":"),
    "random": ("random candidate", "tab:olive", ":"),
    "oracle": ("oracle", "tab:green", "--"),
}
PLACEBO_STYLES = {"placebo": ("placebo (shuffled)", "tab:orange"),
                  "placebo_other": ("placebo (other repository)", "tab:pink")}


def plot_suite(result: SuiteResult, path: Path) -> Path:
    """Write the PNG of ``result`` to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(result.success)
    budgets = [None if k == "all" else int(k) for k in labels]
    finite = [b for b in budgets if b is not None]
    where = {label: budget_position(b, finite) for label, b in zip(labels, budgets, strict=True)}
    rates = [result.success[k] for k in labels]
    fig, ax = plt.subplots(figsize=(7.5, 4.5), dpi=120)
    ax.errorbar([where[k] for k in labels], [r.rate for r in rates],
                yerr=[[max(0.0, r.rate - r.low) for r in rates],
                      [max(0.0, r.high - r.rate) for r in rates]],
                marker="o", capsize=3, label=f"bank ({result.config.agent})")
    for arm, (name, colour) in PLACEBO_STYLES.items():
        curve = [(where[k], r.rate) for k, r in result.rates.get(arm, {}).items() if k in where]
        if curve:
            xs, ys = zip(*curve, strict=True)
            ax.plot(xs, ys, marker="x", linestyle="--", color=colour, label=name)
    for arm, rate in result.controls.items():
        name, colour, dash = CONTROL_STYLES.get(arm, (arm, "grey", ":"))
        ax.axhline(rate.rate, color=colour, linestyle=dash, label=f"{name} ({rate.rate:.0%})")
    ax.axhline(result.chance, color="black", linestyle=(0, (1, 4)), alpha=0.6,
               label=f"chance 1/k ({result.chance:.0%})")
    if result.bank_tokens and labels:
        ax.axvline(math.log2(1 + result.bank_tokens), color="grey", alpha=0.5,
                   label=f"bank: {result.bank_tokens} tokens")
    ax.set_xticks([where[k] for k in labels], labels)
    ax.set_xlabel("memory budget (tokens, log scale)")
    ax.set_ylabel(f"tasks resolved (mean of {result.config.permutations} relabellings)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"{Path(result.config.suite).name}: area {result.auc:.3f}")
    ax.legend(loc="best", fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
