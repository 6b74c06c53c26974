from clinic.reports.daily import daily_schedule

from .conftest import DAY, at


def test_daily_schedule_in_time_order(service, store):
    service.book("p-ana", "pr-lee", at(15, 0), "follow-up", telehealth=True)
    service.book("p-maya", "pr-okafor", at(9, 20), "new-patient")
    lines = daily_schedule(store, DAY)
    assert lines[0].startswith("09:20  Dr. Okafor")
    assert lines[1].startswith("15:00  Dr. Lee")
    assert lines[1].endswith("follow-up (video)")


def test_cancelled_bookings_left_out(service, store):
    booking = service.book("p-maya", "pr-okafor", at(9, 20), "new-patient")
    service.cancel(booking.id, now=at(8))
    assert daily_schedule(store, DAY) == []
