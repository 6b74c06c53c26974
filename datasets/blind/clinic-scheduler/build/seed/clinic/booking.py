"""Booking, cancelling and rescheduling appointments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .audit import AuditLog
from .cache import AvailabilityCache, day_key
from .errors import PolicyError, SlotUnavailable
from .models import Booking
from .policies import cancellation_fee
from .reminders.scheduler import Reminder, plan_reminders
from .slots import is_free, within_hours
from .store import Store
from .visit_types import get_visit_type


@dataclass
class CancelResult:
    booking: Booking
    fee_cents: int


class BookingService:
    def __init__(self, store: Store, cache: AvailabilityCache, audit: AuditLog | None = None):
        self.store = store
        self.cache = cache
        self.audit = audit or AuditLog()
        self.reminders: list[Reminder] = []

    def __repr__(self) -> str:
        return f"<BookingService: {len(self.reminders)} reminders planned>"

    def book(
        self,
        patient_id: str,
        practitioner_id: str,
        start: datetime,
        visit_type: str,
        *,
        telehealth: bool = False,
    ) -> Booking:
        patient = self.store.patient(patient_id)
        practitioner = self.store.practitioner(practitioner_id)
        visit = get_visit_type(visit_type)
        if telehealth and not visit.telehealth_ok:
            raise PolicyError(f"{visit.label} cannot be done by video")
        end = start + timedelta(minutes=visit.minutes)
        if not within_hours(practitioner, start, end):
            raise SlotUnavailable("outside working hours")
        if not is_free(self.store, practitioner_id, start, end):
            raise SlotUnavailable("time is taken")
        booking = Booking(
            id=self.store.new_booking_id(),
            patient_id=patient_id,
            practitioner_id=practitioner_id,
            start=start,
            end=end,
            visit_type=visit_type,
            telehealth=telehealth,
        )
        self.store.add_booking(booking)
        self.cache.invalidate(practitioner_id, day_key(start))
        self.reminders.extend(plan_reminders(booking, patient, practitioner))
        self.audit.record("booked", booking.id, start=start.isoformat())
        return booking

    def cancel(self, booking_id: str, now: datetime) -> CancelResult:
        booking = self.store.booking(booking_id)
        fee = cancellation_fee(booking, now)
        booking.status = "cancelled"
        self.reminders = [r for r in self.reminders if r.booking_id != booking_id]
        self.audit.record("cancelled", booking_id, fee_cents=fee)
        return CancelResult(booking, fee)

    def reschedule(self, booking_id: str, new_start: datetime) -> Booking:
        booking = self.store.booking(booking_id)
        practitioner = self.store.practitioner(booking.practitioner_id)
        new_end = new_start + timedelta(minutes=booking.minutes)
        if not within_hours(practitioner, new_start, new_end):
            raise SlotUnavailable("outside working hours")
        if not is_free(self.store, booking.practitioner_id, new_start, new_end, ignore=booking_id):
            raise SlotUnavailable("time is taken")
        old_start = booking.start
        booking.start, booking.end = new_start, new_end
        patient = self.store.patient(booking.patient_id)
        self.reminders = [r for r in self.reminders if r.booking_id != booking_id]
        self.reminders.extend(plan_reminders(booking, patient, practitioner))
        self.audit.record("rescheduled", booking_id, old=old_start.isoformat(), new=new_start.isoformat())
        return booking
