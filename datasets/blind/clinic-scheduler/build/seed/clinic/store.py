"""In-memory storage of patients, practitioners, bookings and time off."""

from __future__ import annotations

from datetime import datetime

from .errors import NotFound
from .models import Booking, Patient, Practitioner, TimeOff


class Store:
    def __init__(self) -> None:
        self.patients: dict[str, Patient] = {}
        self.practitioners: dict[str, Practitioner] = {}
        self.bookings: dict[str, Booking] = {}
        self.time_off: list[TimeOff] = []
        self._next_booking = 1000

    def __repr__(self) -> str:
        return f"<Store: {len(self.patients)} patients, {len(self.bookings)} bookings>"

    # -- patients and practitioners ------------------------------------------------

    def add_patient(self, patient: Patient) -> Patient:
        self.patients[patient.id] = patient
        return patient

    def add_practitioner(self, practitioner: Practitioner) -> Practitioner:
        self.practitioners[practitioner.id] = practitioner
        return practitioner

    def patient(self, patient_id: str) -> Patient:
        try:
            return self.patients[patient_id]
        except KeyError:
            raise NotFound(f"no patient {patient_id}") from None

    def practitioner(self, practitioner_id: str) -> Practitioner:
        try:
            return self.practitioners[practitioner_id]
        except KeyError:
            raise NotFound(f"no practitioner {practitioner_id}") from None

    # -- bookings ------------------------------------------------------------------

    def new_booking_id(self) -> str:
        self._next_booking += 1
        return f"b-{self._next_booking}"

    def add_booking(self, booking: Booking) -> Booking:
        self.bookings[booking.id] = booking
        return booking

    def booking(self, booking_id: str) -> Booking:
        try:
            return self.bookings[booking_id]
        except KeyError:
            raise NotFound(f"no booking {booking_id}") from None

    def bookings_for(self, practitioner_id: str, *, active_only: bool = True) -> list[Booking]:
        found = [
            b
            for b in self.bookings.values()
            if b.practitioner_id == practitioner_id and (b.active or not active_only)
        ]
        return sorted(found, key=lambda b: b.start)

    def bookings_between(
        self, start: datetime, end: datetime, *, active_only: bool = True
    ) -> list[Booking]:
        found = [
            b
            for b in self.bookings.values()
            if start <= b.start < end and (b.active or not active_only)
        ]
        return sorted(found, key=lambda b: (b.start, b.practitioner_id))

    # -- time off ------------------------------------------------------------------

    def add_time_off(self, block: TimeOff) -> TimeOff:
        self.time_off.append(block)
        return block

    def time_off_for(self, practitioner_id: str) -> list[TimeOff]:
        return [t for t in self.time_off if t.practitioner_id == practitioner_id]
