"""In-memory reading store (the production writer sits behind the same interface)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from telemetry_ingest.models import Reading


class InMemoryStore:
    def __init__(self) -> None:
        self._readings: list[Reading] = []

    def add(self, readings: Iterable[Reading]) -> int:
        added = list(readings)
        self._readings.extend(added)
        return len(added)

    def query(
        self,
        device_id: str | None = None,
        metric: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[Reading]:
        out = [
            r
            for r in self._readings
            if (device_id is None or r.device_id == device_id)
            and (metric is None or r.metric == metric)
            and (since is None or r.ts >= since)
            and (until is None or r.ts < until)
        ]
        return sorted(out, key=lambda r: (r.ts, r.device_id, r.metric))

    def latest(self, device_id: str) -> Reading | None:
        rows = self.query(device_id=device_id)
        return rows[-1] if rows else None

    def __len__(self) -> int:
        return len(self._readings)
