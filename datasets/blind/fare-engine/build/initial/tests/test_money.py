from fractions import Fraction

from fare_engine.money import apply_rate, format_cents


def test_format_cents():
    assert format_cents(275) == "$2.75"
    assert format_cents(5) == "$0.05"
    assert format_cents(-125) == "-$1.25"


def test_apply_rate_rounds_half_up():
    assert apply_rate(375, Fraction(1, 2)) == 188
    assert apply_rate(250, Fraction(3, 4)) == 188
    assert apply_rate(300, Fraction(1, 2)) == 150
