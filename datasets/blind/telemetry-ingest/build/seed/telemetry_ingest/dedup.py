"""Drop readings we have already accepted (gateways retransmit after timeouts)."""

from __future__ import annotations

from collections import OrderedDict

from telemetry_ingest.models import Reading


class DedupFilter:
    def __init__(self, capacity: int = 100_000) -> None:
        self.capacity = capacity
        self._seen: OrderedDict[tuple[str, str, str], None] = OrderedDict()

    @staticmethod
    def key(reading: Reading) -> tuple[str, str, str]:
        return (reading.device_id, reading.metric, reading.ts.isoformat())

    def seen(self, reading: Reading) -> bool:
        """True if ``reading`` was seen before; otherwise remember it."""
        key = self.key(reading)
        if key in self._seen:
            self._seen.move_to_end(key)
            return True
        self._seen[key] = None
        if len(self._seen) > self.capacity:
            self._seen.popitem(last=False)
        return False

    def __len__(self) -> int:
        return len(self._seen)
