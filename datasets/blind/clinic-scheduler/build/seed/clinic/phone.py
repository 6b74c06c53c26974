"""Phone numbers, normalised to E.164 for the SMS gateway."""

from __future__ import annotations

import re


def normalize(raw: str, default_country: str = "1") -> str:
    """``raw`` as ``+<country><number>``; raises ``ValueError`` when it is not a number."""
    text = raw.strip()
    digits = re.sub(r"\D", "", text)
    if text.startswith("+"):
        number = digits
    elif len(digits) == 10:
        number = default_country + digits
    elif len(digits) == 11 and digits.startswith(default_country):
        number = digits
    else:
        raise ValueError(f"not a phone number: {raw!r}")
    if not 8 <= len(number) <= 15:
        raise ValueError(f"not a phone number: {raw!r}")
    return "+" + number
