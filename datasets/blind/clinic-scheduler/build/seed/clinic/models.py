"""The records the service keeps."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass
class Patient:
    id: str
    name: str
    phone: str
    tz: str = "America/New_York"
    mrn: str = ""

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


@dataclass
class Practitioner:
    id: str
    name: str
    hours: tuple[int, int] = (9, 17)
    """Working hours on the clinic's wall clock: (first hour, end hour)."""


@dataclass
class Booking:
    id: str
    patient_id: str
    practitioner_id: str
    start: datetime
    end: datetime
    visit_type: str
    telehealth: bool = False
    status: str = "booked"
    """``booked``, ``cancelled``, ``no_show`` or ``completed``."""

    @property
    def active(self) -> bool:
        return self.status == "booked"

    @property
    def minutes(self) -> int:
        return int((self.end - self.start).total_seconds() // 60)


@dataclass
class TimeOff:
    practitioner_id: str
    start: datetime
    end: datetime
    reason: str = ""
