"""Append-only audit trail of changes to bookings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class AuditEntry:
    event: str
    ref: str
    data: dict[str, Any] = field(default_factory=dict)


class AuditLog:
    def __init__(self) -> None:
        self._entries: list[AuditEntry] = []

    def record(self, event: str, ref: str, **data: Any) -> AuditEntry:
        entry = AuditEntry(event, ref, dict(data))
        self._entries.append(entry)
        return entry

    def entries(self, ref: str | None = None) -> list[AuditEntry]:
        return [e for e in self._entries if ref is None or e.ref == ref]
