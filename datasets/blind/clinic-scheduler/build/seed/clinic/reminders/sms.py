"""The SMS gateway client (a recording fake outside production)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from .scheduler import Reminder


@dataclass
class SmsGateway:
    settings: Settings = field(default_factory=Settings)
    sent: list[tuple[str, str]] = field(default_factory=list)

    def send(self, reminder: Reminder) -> None:
        if len(reminder.text) > 480:
            raise ValueError("reminder longer than 3 SMS segments")
        self.sent.append((reminder.phone, reminder.text))

    def send_due(self, reminders: list[Reminder], now) -> list[Reminder]:
        due = [r for r in reminders if r.send_at <= now]
        for reminder in due:
            self.send(reminder)
        return due
