from fractions import Fraction

from .money import apply_rate

RATES = {
    "adult": Fraction(1),
    "child": Fraction(1, 2),
    "senior": Fraction(1, 2),
    "student": Fraction(3, 4),
}


class UnknownConcession(KeyError):
    pass


def concession_fare(cents: int, kind: str) -> int:
    try:
        rate = RATES[kind]
    except KeyError:
        raise UnknownConcession(kind) from None
    return apply_rate(cents, rate)
