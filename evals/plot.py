"""The picture of a suite: success rate against memory tokens, with the baselines drawn in.

The x axis is the budget on the same log2 positions the area uses ("all" one doubling past the
largest budget); each point carries its Wilson 95% interval. ``no memory`` and ``oracle`` are
horizontal lines; the bank's active tokens are a vertical line.
"""

from __future__ import annotations

import math
from pathlib import Path

from evals.metrics import budget_position
from evals.suite import SuiteResult


def plot_suite(result: SuiteResult, path: Path) -> Path:
    """Write the PNG of ``result`` to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(result.success)
    budgets = [None if k == "all" else int(k) for k in labels]
    finite = [b for b in budgets if b is not None]
    xs = [budget_position(b, finite) for b in budgets]
    rates = [result.success[k] for k in labels]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.errorbar(xs, [r.rate for r in rates],
                yerr=[[max(0.0, r.rate - r.low) for r in rates],
                      [max(0.0, r.high - r.rate) for r in rates]],
                marker="o", capsize=3, label=f"bank ({result.config.agent})")
    styles = {"no_memory": ("no memory", "tab:red", ":"), "oracle": ("oracle", "tab:green", "--")}
    for arm, rate in result.baselines.items():
        name, colour, dash = styles[arm]
        ax.axhline(rate.rate, color=colour, linestyle=dash, label=f"{name} ({rate.rate:.0%})")
    if result.bank_tokens and xs:
        ax.axvline(math.log2(1 + result.bank_tokens), color="grey", alpha=0.5,
                   label=f"bank: {result.bank_tokens} tokens")
    ax.set_xticks(xs, labels)
    ax.set_xlabel("memory budget (tokens, log scale)")
    ax.set_ylabel("tasks resolved")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"{result.config.suite}: area {result.auc:.3f}")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
