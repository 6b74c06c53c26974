"""Success rates with Wilson intervals, the success-versus-budget curve's area, paired tests.

**Area under the curve** (``auc``). Budgets ``b_1 < ... < b_k`` (token counts; ``None`` is
"all", the whole in-scope bank) are placed at ``x = log2(1 + b)``, and "all" one unit (one
doubling) past the largest finite budget, at ``1 + log2(1 + max(b))``. The area is the
trapezoid rule over ``(x_i, success_i)`` divided by ``x_k - x_1``: a
number in [0, 1], the mean success over log-spaced budgets, so each doubling of memory weighs
the same. With a single budget the area is its success rate.

**McNemar's test** (paired, exact): ``b`` tasks only the first arm resolves, ``c`` only the
second; the two-sided p-value is ``binomtest(min(b, c), b + c, 0.5)``, 1.0 when ``b + c = 0``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

Z95 = 1.959963984540054


class Rate(BaseModel):
    """A success rate with its Wilson score interval."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    successes: int
    trials: int
    rate: float
    low: float
    high: float


def wilson(successes: int, trials: int, z: float = Z95) -> Rate:
    """The Wilson score interval of ``successes`` out of ``trials`` (95% by default)."""
    if trials <= 0:
        return Rate(successes=0, trials=0, rate=0.0, low=0.0, high=1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # The exact ends: floating error must not put 0/n's lower bound a hair above 0.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Rate(successes=successes, trials=trials, rate=p, low=low, high=high)


def budget_position(budget: int | None, finite: Sequence[int]) -> float:
    """Where a budget sits on the curve's x axis (see the module docstring)."""
    if budget is None:
        return 1 + math.log2(1 + max(finite, default=0))
    return math.log2(1 + budget)


def auc(success: Mapping[int | None, float]) -> float:
    """Normalised area under success-versus-budget (see the module docstring)."""
    if not success:
        return 0.0
    finite = [b for b in success if b is not None]
    points = sorted((budget_position(b, finite), rate) for b, rate in success.items())
    if len(points) == 1:
        return points[0][1]
    pairs = zip(points, points[1:], strict=False)
    area = sum((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in pairs)
    return area / (points[-1][0] - points[0][0])


class McNemar(BaseModel):
    """A paired comparison of two arms on the same tasks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n: int
    only_first: int
    only_second: int
    p_value: float


def mcnemar(first: Mapping[str, bool], second: Mapping[str, bool]) -> McNemar:
    """Exact McNemar test over the tasks both arms attempted (by task id)."""
    from evals.exact import sign_test_two_sided

    shared = sorted(first.keys() & second.keys())
    b = sum(1 for t in shared if first[t] and not second[t])
    c = sum(1 for t in shared if second[t] and not first[t])
    p = sign_test_two_sided(min(b, c), b + c)
    return McNemar(n=len(shared), only_first=b, only_second=c, p_value=p)


def parse_budgets(text: str) -> list[int | None]:
    """``"0,256,all"`` -> ``[0, 256, None]``; sorted, duplicates dropped."""
    budgets: set[int | None] = set()
    for part in (p.strip().lower() for p in text.split(",") if p.strip()):
        if part in ("all", "inf", "none", "unlimited"):
            budgets.add(None)
        elif part.isdigit():
            budgets.add(int(part))
        else:
            raise ValueError(f"budget {part!r} is neither a token count nor 'all'")
    return sorted(budgets, key=lambda b: math.inf if b is None else b)


def budget_label(budget: int | None) -> str:
    return "all" if budget is None else str(budget)


class ArmRate(BaseModel):
    """One arm's success over a suite, as the mean over K relabellings of candidate ids.

    ``rate`` is the mean share of tasks resolved; ``low``/``high`` the Wilson 95% interval of that
    mean count over the tasks; ``spread_low``/``spread_high`` the least and most any single
    relabelling gave (the spread a relabelling can cause).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rate: float
    low: float
    high: float
    spread_low: float
    spread_high: float
    tasks: int
    permutations: int

    @property
    def successes(self) -> float:
        """Mean count of resolved tasks."""
        return self.rate * self.tasks

    @property
    def trials(self) -> int:
        return self.tasks


def arm_rate(by_permutation: Sequence[int], tasks: int) -> ArmRate:
    """``by_permutation[p]`` tasks resolved under relabelling p, out of ``tasks``."""
    k = max(1, len(by_permutation))
    shares = [s / tasks if tasks else 0.0 for s in by_permutation] or [0.0]
    mean = sum(shares) / k
    interval = wilson(round(mean * tasks), tasks)
    return ArmRate(rate=mean, low=interval.low, high=interval.high, spread_low=min(shares),
                   spread_high=max(shares), tasks=tasks, permutations=len(by_permutation))


class Lift(BaseModel):
    """A paired difference in success between two arms over the same tasks.

    Per task, ``d`` = its mean success in the first arm minus the second's (each averaged over
    the relabellings); ``lift`` is the mean ``d``; ``low``/``high`` a seeded percentile
    bootstrap 95% interval over tasks; ``p_value`` the one-sided exact sign test that the first
    arm wins more tasks than it loses (``wins``: tasks with ``d > 0``; ``losses``: ``d < 0``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    against: str
    lift: float
    low: float
    high: float
    p_value: float
    wins: int
    losses: int
    tasks: int

    def significant(self, alpha: float) -> bool:
        """A positive lift whose sign test passes at ``alpha``."""
        return self.lift > 0 and self.p_value <= alpha


def paired_lift(first: Mapping[str, float], second: Mapping[str, float], against: str = "",
                seed: int = 0, resamples: int = 2000) -> Lift:
    """The lift of ``first`` over ``second`` (task id -> mean success), over shared tasks."""
    import numpy as np

    from evals.exact import bootstrap_mean_interval, sign_test_greater

    shared = sorted(first.keys() & second.keys())
    diffs = np.array([first[t] - second[t] for t in shared], dtype=float)
    if not len(diffs):
        return Lift(against=against, lift=0.0, low=0.0, high=0.0, p_value=1.0, wins=0,
                    losses=0, tasks=0)
    wins, losses = int((diffs > 0).sum()), int((diffs < 0).sum())
    p = sign_test_greater(wins, wins + losses)
    mean = float(diffs.mean())
    if np.ptp(diffs) == 0:
        low = high = mean
    else:
        low, high = bootstrap_mean_interval(diffs, resamples, np.random.default_rng(seed))
    return Lift(against=against, lift=mean, low=low, high=high, p_value=p, wins=wins,
                losses=losses, tasks=len(diffs))
