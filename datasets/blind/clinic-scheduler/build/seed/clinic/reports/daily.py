"""The front desk's daily schedule."""

from __future__ import annotations

from datetime import date, timedelta

from ..store import Store
from ..timeutil import CLINIC_TZ, clinic_datetime, fmt_time, to_zone


def daily_schedule(store: Store, day: date) -> list[str]:
    """One line per active booking on the clinic day ``day``, in time order."""
    start = clinic_datetime(day, 0)
    end = start + timedelta(days=1)
    lines = []
    for booking in store.bookings_between(start, end):
        practitioner = store.practitioner(booking.practitioner_id)
        patient = store.patient(booking.patient_id)
        mode = "video" if booking.telehealth else "in person"
        local = to_zone(booking.start, CLINIC_TZ)
        lines.append(
            f"{fmt_time(local)}  {practitioner.name:<12} {patient.name:<14} "
            f"{booking.visit_type} ({mode})"
        )
    return lines
