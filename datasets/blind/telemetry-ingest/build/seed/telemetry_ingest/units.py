"""Unit normalisation and conversion."""

from __future__ import annotations

from collections.abc import Callable

from telemetry_ingest.metrics import canonical_units


class UnknownUnit(ValueError):
    pass


UNIT_ALIASES: dict[str, str] = {
    "°C": "C",
    "degC": "C",
    "celsius": "C",
    "°F": "F",
    "degF": "F",
    "fahrenheit": "F",
    "%": "%RH",
    "rh": "%RH",
    "pa": "Pa",
    "mb": "mbar",
}

_TO_CANONICAL: dict[str, tuple[str, Callable[[float], float]]] = {
    "F": ("C", lambda v: (v - 32.0) * 5.0 / 9.0),
    "K": ("C", lambda v: v - 273.15),
    "Pa": ("kPa", lambda v: v / 1000.0),
    "hPa": ("kPa", lambda v: v / 10.0),
    "mbar": ("kPa", lambda v: v / 10.0),
    "psi": ("kPa", lambda v: v * 6.894757),
    "ratio": ("%RH", lambda v: v * 100.0),
    "mV": ("V", lambda v: v / 1000.0),
}


def normalize_unit(unit: str) -> str:
    unit = unit.strip()
    return UNIT_ALIASES.get(unit, UNIT_ALIASES.get(unit.lower(), unit))


def to_canonical(value: float, unit: str) -> tuple[float, str]:
    """``value`` in ``unit`` expressed in the canonical unit of its quantity."""
    unit = normalize_unit(unit)
    if unit in _TO_CANONICAL:
        canonical, fn = _TO_CANONICAL[unit]
        return round(fn(float(value)), 6), canonical
    if unit in canonical_units():
        return float(value), unit
    raise UnknownUnit(unit)


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert between two units of the same quantity."""
    canonical_value, canonical = to_canonical(value, from_unit)
    to_unit = normalize_unit(to_unit)
    if to_unit == canonical:
        return canonical_value
    if to_unit not in _TO_CANONICAL or _TO_CANONICAL[to_unit][0] != canonical:
        raise UnknownUnit(f"cannot convert {from_unit} to {to_unit}")
    # invert numerically: all conversions are affine
    fn = _TO_CANONICAL[to_unit][1]
    zero, one = fn(0.0), fn(1.0)
    return round((canonical_value - zero) / (one - zero), 6)
