from datetime import timedelta

from clinic.models import Booking
from clinic.policies import cancellation_fee, is_late_cancellation

from .conftest import at


def _booking(telehealth=False):
    return Booking("b-1", "p-maya", "pr-okafor", at(10), at(10, 20), "follow-up", telehealth)


def test_late_cancellation_window():
    booking = _booking()
    assert is_late_cancellation(booking, at(10) - timedelta(hours=23))
    assert not is_late_cancellation(booking, at(10) - timedelta(hours=25))


def test_fee_for_late_cancellation():
    assert cancellation_fee(_booking(), at(10) - timedelta(hours=2)) == 5000
    assert cancellation_fee(_booking(), at(10) - timedelta(days=3)) == 0


def test_video_visits_cancel_free():
    assert cancellation_fee(_booking(telehealth=True), at(10) - timedelta(hours=2)) == 0
