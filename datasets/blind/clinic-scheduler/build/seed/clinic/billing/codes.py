"""Procedure codes and fees of the visits we bill."""

from __future__ import annotations

# visit type -> (procedure code, fee in cents)
VISIT_CODES: dict[str, tuple[str, int]] = {
    "new-patient": ("99203", 16500),
    "follow-up": ("99213", 9500),
    "annual-physical": ("99396", 21000),
}

# Claim modifier for synchronous (video) telehealth services.
TELEHEALTH_MODIFIER = "GT"


def code_for(visit_type: str) -> str:
    return VISIT_CODES[visit_type][0]


def fee_for(visit_type: str) -> int:
    return VISIT_CODES[visit_type][1]
