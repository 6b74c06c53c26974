"""Exact sign tests and a percentile bootstrap without scipy (importing ``scipy.stats`` costs
seconds, more than the tests of a small suite).

``sign_test_greater(k, n)`` is ``scipy.stats.binomtest(k, n, 0.5, alternative="greater")``'s
p-value, ``sign_test_two_sided(k, n)`` its two-sided one (equal under p = 0.5 to doubling the
smaller tail, capped at 1) and ``bootstrap_mean_interval`` the percentile interval of
``scipy.stats.bootstrap((x,), np.mean, method="percentile", rng=rng)``, draw for draw.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np


class Interval(NamedTuple):
    """A confidence interval's bounds."""

    low: float
    high: float


def _tail(k: int, n: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2)."""
    if k <= 0:
        return 1.0
    return min(1.0, sum(math.comb(n, i) for i in range(k, n + 1)) / 2**n)


def sign_test_greater(successes: int, trials: int) -> float:
    """The one-sided p-value of ``successes`` or more in ``trials`` fair coin flips."""
    return _tail(successes, trials) if trials else 1.0


def sign_test_two_sided(successes: int, trials: int) -> float:
    """The two-sided exact binomial p-value at p = 0.5."""
    if not trials:
        return 1.0
    low = min(successes, trials - successes)
    if 2 * low == trials:
        return 1.0
    return min(1.0, 2 * _tail(trials - low, trials))


def bootstrap_mean_interval(values: np.ndarray, resamples: int, rng: np.random.Generator,
                            confidence: float = 0.95) -> Interval:
    """The percentile bootstrap interval of the mean of ``values``."""
    import numpy as np

    draws = rng.integers(0, len(values), (resamples, len(values)), dtype=np.int64)
    means = values[draws].mean(axis=-1)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return Interval(float(low), float(high))
