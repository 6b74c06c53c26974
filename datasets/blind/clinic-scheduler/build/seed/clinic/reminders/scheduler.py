"""Which reminders to send for a booking, and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..config import Settings
from ..models import Booking, Patient, Practitioner
from ..phone import normalize
from ..timeutil import fmt_day, fmt_time
from .templates import VIDEO_SUFFIX, render

REMINDER_LEAD = timedelta(hours=24)


@dataclass(frozen=True)
class Reminder:
    booking_id: str
    send_at: datetime
    phone: str
    text: str


def video_link(booking: Booking, settings: Settings | None = None) -> str:
    base = (settings or Settings()).video_base_url
    return f"{base}/{booking.id}"


def plan_reminders(booking: Booking, patient: Patient, practitioner: Practitioner) -> list[Reminder]:
    text = render(
        booking.visit_type,
        first_name=patient.first_name,
        practitioner=practitioner.name,
        day=fmt_day(booking.start),
        time=fmt_time(booking.start),
    )
    if text is None:
        return []
    if booking.telehealth:
        text += VIDEO_SUFFIX.format(link=video_link(booking))
    return [Reminder(booking.id, booking.start - REMINDER_LEAD, normalize(patient.phone), text)]
