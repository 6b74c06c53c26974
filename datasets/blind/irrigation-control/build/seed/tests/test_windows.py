from datetime import datetime, time

from irrigation.schedule.windows import Window, allowed


def test_allowed_morning():
    assert allowed(datetime(2026, 1, 10, 5, 30))
    assert not allowed(datetime(2026, 1, 10, 12, 0))


def test_overnight_window():
    w = Window(time(22, 0), time(2, 0))
    assert w.contains(time(23, 0))
    assert w.contains(time(1, 0))
    assert not w.contains(time(3, 0))
