"""Wilson intervals, the curve's area and McNemar's test."""

from __future__ import annotations

import math

import pytest

from evals.metrics import auc, mcnemar, parse_budgets, wilson


def test_wilson_matches_the_textbook_values() -> None:
    half = wilson(5, 10)
    assert (round(half.low, 4), round(half.high, 4)) == (0.2366, 0.7634)
    none = wilson(0, 3)
    assert none.low == 0.0 and round(none.high, 4) == 0.5615
    assert wilson(3, 3).high == pytest.approx(1.0)
    assert wilson(0, 0).trials == 0


def test_area_is_trapezoid_over_log2_budgets_normalised() -> None:
    assert auc({0: 1.0, 256: 1.0, None: 1.0}) == pytest.approx(1.0)
    assert auc({0: 0.0, None: 0.0}) == 0.0
    assert auc({512: 0.4}) == 0.4
    # Two points: the mean of the ends; "all" sits one doubling past 255 (x = 1 + log2 256).
    assert auc({0: 0.0, 255: 1.0}) == pytest.approx(0.5)
    x1, x2 = math.log2(256), 9.0
    expected = (x1 * 0.5 + (x2 - x1) * 1.0) / x2
    assert auc({0: 0.0, 255: 1.0, None: 1.0}) == pytest.approx(expected)


def test_mcnemar_exact_and_paired() -> None:
    first = {f"t{i}": True for i in range(10)}
    second = {f"t{i}": i < 2 for i in range(10)}
    test = mcnemar(first, second)
    assert (test.n, test.only_first, test.only_second) == (10, 8, 0)
    assert test.p_value == pytest.approx(2 * 0.5**8)
    assert mcnemar(first, first).p_value == 1.0


def test_budgets_parse_with_all_last() -> None:
    assert parse_budgets("all, 512,0,256,512") == [0, 256, 512, None]
    with pytest.raises(ValueError, match="lots"):
        parse_budgets("0,lots")
