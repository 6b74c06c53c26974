"""Fees that do not come from a visit's procedure code."""

LATE_CANCEL_FEE_CENTS = 5000
NO_SHOW_FEE_CENTS = 7500


def dollars(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"
