"""Handlers behind the patient portal's JSON API."""

from __future__ import annotations

from datetime import date, datetime

from .booking import BookingService
from .cache import AvailabilityCache
from .errors import ClinicError, NotFound, SlotUnavailable
from .slots import free_starts
from .store import Store


class PortalAPI:
    def __init__(self, store: Store, cache: AvailabilityCache, service: BookingService):
        self.store = store
        self.cache = cache
        self.service = service

    def __repr__(self) -> str:
        return "<PortalAPI>"

    def availability(self, practitioner_id: str, day: date) -> list[datetime]:
        """The free slots the portal offers for a practitioner on a clinic day."""
        starts = self.cache.get(practitioner_id, day)
        if starts is None:
            starts = free_starts(self.store, practitioner_id, day)
            self.cache.put(practitioner_id, day, starts)
        return starts

    def book(self, payload: dict) -> dict:
        try:
            booking = self.service.book(
                payload["patient_id"],
                payload["practitioner_id"],
                datetime.fromisoformat(payload["start"]),
                payload.get("visit_type", "follow-up"),
                telehealth=bool(payload.get("telehealth", False)),
            )
        except SlotUnavailable as exc:
            return {"error": "slot_unavailable", "detail": str(exc)}
        except NotFound as exc:
            return {"error": "not_found", "detail": str(exc)}
        except ClinicError as exc:
            return {"error": "invalid", "detail": str(exc)}
        return {"id": booking.id, "start": booking.start.isoformat(), "end": booking.end.isoformat()}
