from datetime import timedelta

from conftest import reading

from telemetry_ingest.validation import validate


def test_valid_reading(t0):
    assert validate(reading(value=-18.0), now=t0) == []


def test_range_is_checked_in_canonical_units(t0):
    assert validate(reading(value=-4.0, unit="F"), now=t0) == []
    assert validate(reading(value=300.0, unit="F"), now=t0) == ["temperature 148.889 C out of range"]


def test_unknown_metric_and_unit(t0):
    assert validate(reading(metric="vibration"), now=t0) == ["unknown metric 'vibration'"]
    assert validate(reading(unit="furlong"), now=t0) == ["unknown unit 'furlong'"]


def test_wrong_quantity(t0):
    assert validate(reading(value=101.0, unit="kPa"), now=t0) == ["unit 'kPa' does not measure temperature"]


def test_future_timestamp(t0):
    assert validate(reading(ts=t0 + timedelta(minutes=10)), now=t0) == ["timestamp in the future"]
    assert validate(reading(ts=t0 + timedelta(minutes=2)), now=t0) == []
