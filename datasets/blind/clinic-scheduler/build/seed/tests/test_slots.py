from clinic.models import TimeOff
from clinic.slots import free_starts, is_free, within_hours

from .conftest import DAY, at


def test_free_starts_cover_working_hours(store):
    starts = free_starts(store, "pr-okafor", DAY)
    assert starts[0] == at(9, 0)
    assert starts[-1] == at(16, 40)
    assert len(starts) == 24


def test_booked_time_is_not_free(store, service):
    service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    assert not is_free(store, "pr-okafor", at(10, 0), at(10, 20))
    assert at(10, 0) not in free_starts(store, "pr-okafor", DAY)


def test_time_off_is_not_free(store):
    store.add_time_off(TimeOff("pr-okafor", at(13, 0), at(14, 0), "training"))
    starts = free_starts(store, "pr-okafor", DAY)
    assert at(13, 0) not in starts and at(13, 40) not in starts
    assert at(14, 0) in starts


def test_within_hours_evening_clinic(store):
    lee = store.practitioner("pr-lee")
    assert within_hours(lee, at(20, 40), at(21, 0))
    assert not within_hours(lee, at(20, 50), at(21, 10))
