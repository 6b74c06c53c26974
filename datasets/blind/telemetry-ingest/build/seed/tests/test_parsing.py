import pytest

from telemetry_ingest.parsing import ParseError, parse_payload


def test_parse_payload_units_and_defaults(t0):
    payload = {
        "device": "FZ-3",
        "ts": "2025-08-04T10:00:00Z",
        "seq": 7,
        "readings": {"temp": {"v": 38.2, "u": "F"}, "hum": 41.5},
    }
    result = parse_payload(payload, received_at=t0)
    by_metric = {r.metric: r for r in result.readings}
    assert by_metric["temperature"].value == 38.2
    assert by_metric["temperature"].unit == "F"
    assert by_metric["humidity"].unit == "%RH"
    assert by_metric["humidity"].seq == 7
    assert result.skipped == []


def test_unknown_fields_are_skipped(t0):
    result = parse_payload({"device": "X", "ts": 1754301600, "readings": {"rssi": -71, "t": 4}}, t0)
    assert [r.metric for r in result.readings] == ["temperature"]
    assert result.skipped == ["rssi"]


def test_parse_errors(t0):
    with pytest.raises(ParseError):
        parse_payload("{not json", t0)
    with pytest.raises(ParseError):
        parse_payload({"device": "X", "readings": {}}, t0)
    with pytest.raises(ParseError):
        parse_payload({"device": "X", "ts": 1, "readings": {"t": "warm"}}, t0)
