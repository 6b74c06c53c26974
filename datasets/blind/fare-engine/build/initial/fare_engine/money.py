from fractions import Fraction


def format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100}.{cents % 100:02d}"


def apply_rate(cents: int, rate: Fraction) -> int:
    """Multiply an amount of cents by a rate, rounding half up to the cent."""
    value = Fraction(cents) * Fraction(rate)
    whole, rest = divmod(value.numerator, value.denominator)
    if 2 * rest >= value.denominator:
        whole += 1
    return whole
