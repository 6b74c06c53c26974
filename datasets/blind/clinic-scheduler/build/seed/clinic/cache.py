"""Cache of the free slots the patient portal shows."""

from __future__ import annotations

from datetime import date, datetime

from .timeutil import CLINIC_TZ


def day_key(instant: datetime) -> date:
    return instant.astimezone(CLINIC_TZ).date()


class AvailabilityCache:
    def __init__(self) -> None:
        self._entries: dict[tuple[str, date], list[datetime]] = {}
        self.hits = 0
        self.misses = 0

    def __repr__(self) -> str:
        return f"<AvailabilityCache: {len(self._entries)} days, {self.hits} hits, {self.misses} misses>"

    def get(self, practitioner_id: str, day: date) -> list[datetime] | None:
        entry = self._entries.get((practitioner_id, day))
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        return list(entry)

    def put(self, practitioner_id: str, day: date, starts: list[datetime]) -> None:
        self._entries[(practitioner_id, day)] = list(starts)

    def invalidate(self, practitioner_id: str, day: date) -> None:
        self._entries.pop((practitioner_id, day), None)

    def clear(self) -> None:
        self._entries.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)
