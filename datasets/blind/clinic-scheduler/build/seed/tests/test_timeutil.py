from datetime import date

import pytest

from clinic.timeutil import CLINIC_TZ, clinic_datetime, fmt_day, fmt_time, to_zone, utc


def test_clinic_datetime_is_utc():
    instant = clinic_datetime(date(2025, 5, 6), 9, 30)
    assert instant == utc(2025, 5, 6, 13, 30)


def test_to_zone_accepts_names_and_zones():
    instant = utc(2025, 5, 6, 18, 30)
    assert fmt_time(to_zone(instant, "America/Los_Angeles")) == "11:30"
    assert fmt_time(to_zone(instant, CLINIC_TZ)) == "14:30"


def test_to_zone_rejects_naive():
    from datetime import datetime

    with pytest.raises(ValueError):
        to_zone(datetime(2025, 5, 6, 9, 0), "America/New_York")


def test_fmt_day():
    assert fmt_day(utc(2025, 5, 6, 12)) == "Tue 06 May"
