"""The metrics the service understands."""

from __future__ import annotations

from dataclasses import dataclass


class UnknownMetric(KeyError):
    pass


@dataclass(frozen=True)
class MetricSpec:
    name: str
    canonical_unit: str
    min_value: float
    max_value: float
    description: str = ""


METRICS: dict[str, MetricSpec] = {
    spec.name: spec
    for spec in [
        MetricSpec("temperature", "C", -60.0, 125.0, "Air or surface temperature"),
        MetricSpec("humidity", "%RH", 0.0, 100.0, "Relative humidity"),
        MetricSpec("pressure", "kPa", 30.0, 110.0, "Barometric pressure"),
        MetricSpec("battery", "V", 0.0, 5.0, "Battery voltage"),
    ]
}


def get_metric(name: str) -> MetricSpec:
    try:
        return METRICS[name]
    except KeyError:
        raise UnknownMetric(name) from None


def canonical_units() -> set[str]:
    return {spec.canonical_unit for spec in METRICS.values()}
