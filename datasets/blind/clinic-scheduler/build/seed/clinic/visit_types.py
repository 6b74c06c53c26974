"""The kinds of visit patients can book."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownVisitType


@dataclass(frozen=True)
class VisitType:
    key: str
    label: str
    minutes: int
    telehealth_ok: bool = False


VISIT_TYPES: dict[str, VisitType] = {
    vt.key: vt
    for vt in (
        VisitType("new-patient", "new patient visit", 40),
        VisitType("follow-up", "follow-up visit", 20, telehealth_ok=True),
        VisitType("annual-physical", "annual physical", 40),
    )
}


def get_visit_type(key: str) -> VisitType:
    try:
        return VISIT_TYPES[key]
    except KeyError:
        raise UnknownVisitType(key) from None
