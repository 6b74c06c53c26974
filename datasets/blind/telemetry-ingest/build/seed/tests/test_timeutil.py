from datetime import datetime, timezone

from telemetry_ingest.timeutil import floor_to, format_ts, parse_ts

UTC = timezone.utc


def test_parse_iso_z():
    assert parse_ts("2025-08-04T10:00:00Z") == datetime(2025, 8, 4, 10, tzinfo=UTC)


def test_parse_epoch_seconds_and_millis():
    assert parse_ts(1754301600) == datetime(2025, 8, 4, 10, tzinfo=UTC)
    assert parse_ts(1754301600250) == datetime(2025, 8, 4, 10, 0, 0, 250000, tzinfo=UTC)


def test_parse_naive_is_utc():
    assert parse_ts("2025-08-04T10:00:00") == datetime(2025, 8, 4, 10, tzinfo=UTC)


def test_format_ts():
    dt = datetime(2025, 8, 4, 10, 0, 5, 123456, tzinfo=UTC)
    assert format_ts(dt) == "2025-08-04T10:00:05Z"
    assert format_ts(dt, millis=True) == "2025-08-04T10:00:05.123Z"


def test_floor_to():
    dt = datetime(2025, 8, 4, 10, 7, 31, tzinfo=UTC)
    assert floor_to(dt, 300) == datetime(2025, 8, 4, 10, 5, tzinfo=UTC)
