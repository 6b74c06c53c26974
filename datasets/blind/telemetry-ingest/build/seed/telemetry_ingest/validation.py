"""Plausibility checks applied to every reading before it is stored."""

from __future__ import annotations

from datetime import datetime, timedelta

from telemetry_ingest.metrics import METRICS
from telemetry_ingest.models import Reading
from telemetry_ingest.units import UnknownUnit, to_canonical

DEFAULT_MAX_SKEW = timedelta(minutes=5)


def validate(reading: Reading, now: datetime, max_skew: timedelta = DEFAULT_MAX_SKEW) -> list[str]:
    """The problems of ``reading``; an empty list means it is acceptable."""
    problems: list[str] = []
    spec = METRICS.get(reading.metric)
    if spec is None:
        return [f"unknown metric {reading.metric!r}"]
    try:
        value, unit = to_canonical(reading.value, reading.unit)
    except UnknownUnit:
        return [f"unknown unit {reading.unit!r}"]
    if unit != spec.canonical_unit:
        problems.append(f"unit {reading.unit!r} does not measure {spec.name}")
    elif not spec.min_value <= value <= spec.max_value:
        problems.append(f"{spec.name} {value:g} {unit} out of range")
    if reading.ts - now > max_skew:
        problems.append("timestamp in the future")
    return problems
