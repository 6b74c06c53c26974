"""Group readings into batches for the time-series database writer."""

from __future__ import annotations

from datetime import datetime, timedelta

from telemetry_ingest.models import Reading


class Batcher:
    def __init__(self, max_size: int = 500, max_age: timedelta = timedelta(seconds=5)) -> None:
        if max_size < 1:
            raise ValueError("max_size must be positive")
        self.max_size = max_size
        self.max_age = max_age
        self._pending: list[Reading] = []
        self._opened_at: datetime | None = None

    def add(self, reading: Reading, now: datetime) -> list[list[Reading]]:
        """Add a reading; return the batches that became ready."""
        ready = self.poll(now)
        if not self._pending:
            self._opened_at = now
        self._pending.append(reading)
        if len(self._pending) >= self.max_size:
            ready.append(self.flush())
        return ready

    def poll(self, now: datetime) -> list[list[Reading]]:
        if self._pending and self._opened_at is not None and now - self._opened_at >= self.max_age:
            return [self.flush()]
        return []

    def flush(self) -> list[Reading]:
        batch, self._pending, self._opened_at = self._pending, [], None
        return batch

    def __len__(self) -> int:
        return len(self._pending)
