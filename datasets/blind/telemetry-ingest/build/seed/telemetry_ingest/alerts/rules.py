"""Alert rules. A rule looks at one reading and may raise one alert."""

from __future__ import annotations

import operator
from dataclasses import dataclass

from telemetry_ingest.models import Alert, Reading
from telemetry_ingest.units import to_canonical

_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@dataclass(frozen=True)
class ThresholdRule:
    name: str
    metric: str
    op: str
    threshold: float
    devices: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"unknown operator {self.op!r}")

    def applies_to(self, reading: Reading) -> bool:
        return reading.metric == self.metric and (
            self.devices is None or reading.device_id in self.devices
        )

    def evaluate(self, reading: Reading) -> Alert | None:
        if not self.applies_to(reading):
            return None
        value, unit = to_canonical(reading.value, reading.unit)
        if not _OPS[self.op](value, self.threshold):
            return None
        return Alert(
            rule=self.name,
            device_id=reading.device_id,
            metric=reading.metric,
            value=value,
            threshold=self.threshold,
            ts=reading.ts,
            message=f"{reading.metric} {value:g} {unit} {self.op} {self.threshold:g}",
        )
