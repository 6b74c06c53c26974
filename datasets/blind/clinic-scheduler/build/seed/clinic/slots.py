"""Free time on a practitioner's calendar."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from .models import Practitioner
from .store import Store
from .timeutil import CLINIC_TZ, clinic_datetime

GRID_MINUTES = 20


def working_window(practitioner: Practitioner, day: date) -> tuple[datetime, datetime]:
    first, last = practitioner.hours
    return clinic_datetime(day, first), clinic_datetime(day, last)


def overlaps(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> bool:
    return a_start < b_end and b_start < a_end


def within_hours(practitioner: Practitioner, start: datetime, end: datetime) -> bool:
    day = start.astimezone(CLINIC_TZ).date()
    open_at, close_at = working_window(practitioner, day)
    return open_at <= start and end <= close_at


def is_free(
    store: Store,
    practitioner_id: str,
    start: datetime,
    end: datetime,
    *,
    ignore: str | None = None,
) -> bool:
    """Whether nothing is booked or blocked between ``start`` and ``end``."""
    for booking in store.bookings_for(practitioner_id):
        if booking.id != ignore and overlaps(start, end, booking.start, booking.end):
            return False
    for block in store.time_off_for(practitioner_id):
        if overlaps(start, end, block.start, block.end):
            return False
    return True


def free_starts(store: Store, practitioner_id: str, day: date) -> list[datetime]:
    """The free grid slots of a practitioner on a clinic day, as UTC instants."""
    practitioner = store.practitioner(practitioner_id)
    open_at, close_at = working_window(practitioner, day)
    step = timedelta(minutes=GRID_MINUTES)
    starts = []
    moment = open_at
    while moment + step <= close_at:
        if is_free(store, practitioner_id, moment, moment + step):
            starts.append(moment)
        moment += step
    return starts
