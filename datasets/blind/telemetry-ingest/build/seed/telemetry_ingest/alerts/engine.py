"""Run rules over readings, with a per (rule, device) cool-down."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from telemetry_ingest.models import Alert, Reading


class AlertEngine:
    def __init__(self, rules: Sequence, cooldown: timedelta = timedelta(minutes=10)) -> None:
        self.rules = list(rules)
        self.cooldown = cooldown
        self._last_fired: dict[tuple[str, str], datetime] = {}

    def process(self, readings: Iterable[Reading]) -> list[Alert]:
        alerts: list[Alert] = []
        for reading in sorted(readings, key=lambda r: r.ts):
            for rule in self.rules:
                alert = rule.evaluate(reading)
                if alert is None:
                    continue
                key = (rule.name, reading.device_id)
                last = self._last_fired.get(key)
                if last is not None and alert.ts - last < self.cooldown:
                    continue
                self._last_fired[key] = alert.ts
                alerts.append(alert)
        return alerts
