import pytest

from clinic.errors import PolicyError, SlotUnavailable, UnknownVisitType

from .conftest import at


def test_book_sets_end_from_visit_type(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "new-patient")
    assert booking.end == at(9, 40)
    assert booking.id == "b-1001"


def test_double_booking_rejected(service):
    service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    with pytest.raises(SlotUnavailable):
        service.book("p-ana", "pr-okafor", at(9, 0), "follow-up")


def test_outside_hours_rejected(service):
    with pytest.raises(SlotUnavailable):
        service.book("p-maya", "pr-okafor", at(16, 50), "follow-up")


def test_video_only_for_allowed_types(service):
    with pytest.raises(PolicyError):
        service.book("p-maya", "pr-okafor", at(9, 0), "annual-physical", telehealth=True)
    assert service.book("p-ana", "pr-okafor", at(9, 0), "follow-up", telehealth=True).telehealth


def test_unknown_visit_type(service):
    with pytest.raises(UnknownVisitType):
        service.book("p-maya", "pr-okafor", at(9, 0), "massage")


def test_cancel_late_charges_fee(service):
    booking = service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    result = service.cancel(booking.id, now=at(8, 0))
    assert result.fee_cents == 5000
    assert booking.status == "cancelled"


def test_reschedule_moves_booking(service):
    booking = service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    service.reschedule(booking.id, at(11, 0))
    assert (booking.start, booking.end) == (at(11, 0), at(11, 20))
