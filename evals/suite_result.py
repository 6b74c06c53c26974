"""A suite's outcome: the per-attempt table, each arm's success and the lift over placebo.

``summarise`` fills a ``SuiteResult``'s rates and lifts from its table: every figure is the mean
over the relabellings with its spread (``evals.metrics.ArmRate``); the lift of the bank over the
stronger of the two placebo arms is paired by task, with a bootstrap interval and a sign test
(``evals.metrics.Lift``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from evals.leaks import LeakFinding
from evals.metrics import ArmRate, Lift, arm_rate, auc, budget_label, paired_lift

if TYPE_CHECKING:
    from evals.suite import SuiteConfig

CONTROL_ARMS = ("no_memory", "smallest", "largest", "random", "oracle")
PLACEBOS = ("placebo", "placebo_other")


@dataclass
class SuiteResult:
    """The outcome of a suite run: the per-attempt table and its summary."""

    config: SuiteConfig
    bank_id: str | None
    table: pd.DataFrame
    run_dir: Path
    wall_s: float
    bank_tokens: int
    tasks: int
    rates: dict[str, dict[str, ArmRate]] = field(default_factory=dict)
    """Arm -> budget label -> success (controls under the label ``-``)."""
    lifts: dict[str, Lift] = field(default_factory=dict)
    """Budget label -> lift of the bank over the stronger placebo."""
    lifts_by_placebo: dict[str, dict[str, Lift]] = field(default_factory=dict)
    """Placebo arm -> budget label -> lift of the bank over it."""
    comparison: dict[str, Lift] = field(default_factory=dict)
    """Budget label -> lift of the bank over the ``compare`` bank."""
    chance: float = 0.0
    """Mean over tasks of 1/k (k candidates): what a blind pick resolves."""
    leak_findings: dict[str, list[LeakFinding]] = field(default_factory=dict)
    """Arm -> the leaks found in the packs handed out to it (those cells were not attempted)."""
    excluded: dict[str, int] = field(default_factory=dict)
    """Memories ``as_of`` left out over the bank's packs: ``later`` and ``untimed`` (summed over
    tasks)."""

    @property
    def success(self) -> dict[str, ArmRate]:
        """The bank's success by budget label."""
        return self.rates.get("bank", {})

    @property
    def controls(self) -> dict[str, ArmRate]:
        """Each control arm's success."""
        return {arm: next(iter(r.values())) for arm, r in self.rates.items()
                if arm in CONTROL_ARMS and r}

    @property
    def auc(self) -> float:
        return auc({(None if k == "all" else int(k)): r.rate for k, r in self.success.items()})

    @property
    def test_time_s(self) -> float:
        """Raw time of the test runs actually executed (reused grades not counted twice)."""
        fresh = self.table[~self.table["cached"]]
        return float(fresh["test_duration_s"].sum())

    def counts(self, column: str) -> dict[str, dict[str, int]]:
        """Arm -> budget label -> how many attempts have ``column`` true (``leak``, ``tie``,
        ``abstained``)."""
        out: dict[str, dict[str, int]] = {}
        hits = self.table[self.table[column].astype(bool)]
        for (arm, label), rows in hits.groupby(["arm", "budget"], sort=True):
            out.setdefault(str(arm), {})[str(label)] = len(rows)
        return out

    def summary(self) -> dict[str, Any]:
        """The JSON summary ``dreamer eval --json`` prints."""
        bank = self.table[self.table["arm"] == "bank"]
        return {
            "bank": self.bank_id, "suite": self.config.suite, "agent": self.config.agent,
            "tasks": self.tasks, "attempts": len(self.table),
            "permutations": self.config.permutations, "seed": self.config.seed,
            "success": {k: r.rate for k, r in self.success.items()},
            "intervals": {k: [r.low, r.high] for k, r in self.success.items()},
            "spread": {k: [r.spread_low, r.spread_high] for k, r in self.success.items()},
            "lift": {k: lift.model_dump() for k, lift in self.lifts.items()},
            "lift_by_placebo": {arm: {k: v.model_dump() for k, v in by.items()}
                                for arm, by in self.lifts_by_placebo.items()},
            "arms": {arm: {k: r.model_dump() for k, r in by.items()}
                     for arm, by in self.rates.items()},
            "controls": {arm: r.rate for arm, r in self.controls.items()},
            "chance": self.chance,
            "leaks": self.counts("leak"), "ties": self.counts("tie"),
            "abstentions": self.counts("abstained"),
            "excluded_as_of": self.excluded,
            "auc": self.auc, "bank_tokens": self.bank_tokens,
            "resolved": int((bank["status"] == "resolved").sum()),
            "unresolved": int((bank["status"] == "unresolved").sum()),
            "infra_errors": int((bank["status"] == "infra_error").sum()),
            "comparison": {k: v.model_dump() for k, v in self.comparison.items()},
            "wall_s": round(self.wall_s, 3), "test_time_s": round(self.test_time_s, 3),
            "run_dir": str(self.run_dir),
        }


def per_task(rows: pd.DataFrame, ids: Sequence[str]) -> dict[str, float]:
    """Task id -> mean resolved over its attempts in ``rows`` (0 for a task with none)."""
    means = rows.groupby("instance_id")["resolved"].mean().to_dict()
    return {t: float(means.get(t, 0.0)) for t in ids}


def summarise(result: SuiteResult, ids: list[str]) -> None:
    # One pass over the rows in plain Python: filtering the frame per arm, budget and
    # permutation cost a second at the demo suite's size, more than its harness otherwise.
    k, seed, n = result.config.permutations, result.config.seed, len(ids)
    resolved: dict[tuple[str, str], list[int]] = {}
    outcomes: dict[tuple[str, str], dict[str, list[bool]]] = {}
    columns = ["arm", "budget", "permutation", "instance_id", "resolved"]
    for arm, label, permutation, task, ok in result.table[columns].itertuples(index=False):
        cell = (str(arm), str(label))
        counts = resolved.setdefault(cell, [0] * k)
        if 0 <= permutation < k:
            counts[int(permutation)] += bool(ok)
        outcomes.setdefault(cell, {}).setdefault(str(task), []).append(bool(ok))
    for (arm, label), counts in resolved.items():
        result.rates.setdefault(arm, {})[label] = arm_rate(counts, n)
    order = {budget_label(b): i for i, b in enumerate(result.config.budgets)}
    for arm in result.rates:
        result.rates[arm] = dict(sorted(result.rates[arm].items(),
                                        key=lambda kv: order.get(kv[0], -1)))

    def means(cell: tuple[str, str]) -> dict[str, float]:
        got = outcomes.get(cell, {})
        return {t: sum(got[t]) / len(got[t]) if got.get(t) else 0.0 for t in ids}

    for label in result.success:
        mine = means(("bank", label))
        against: dict[str, Lift] = {}
        for arm in PLACEBOS:
            if (arm, label) in outcomes:
                lift = paired_lift(mine, means((arm, label)), arm, seed)
                result.lifts_by_placebo.setdefault(arm, {})[label] = lift
                against[arm] = lift
        if against:
            # The stronger placebo is the one with the smaller lift (the higher success).
            result.lifts[label] = min(against.values(), key=lambda lift: lift.lift)
        if ("compare", label) in outcomes:
            result.comparison[label] = paired_lift(mine, means(("compare", label)), "compare",
                                                   seed)
