import pytest

from telemetry_ingest.parsing import ParseError
from telemetry_ingest.parsing.csv_upload import parse_csv


def test_parse_csv(t0):
    text = "device,ts,metric,value,unit\nFZ-3,2025-08-04T09:00:00Z,temp,37.5,F\nFZ-3,2025-08-04T09:00:00Z,rssi,-70,\n"
    result = parse_csv(text, t0)
    assert len(result.readings) == 1
    assert result.readings[0].unit == "F"
    assert result.readings[0].received_at == t0
    assert result.skipped == ["rssi"]


def test_parse_csv_missing_columns(t0):
    with pytest.raises(ParseError):
        parse_csv("device,value\nA,1\n", t0)
