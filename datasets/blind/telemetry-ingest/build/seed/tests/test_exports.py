import json
from datetime import timedelta

from conftest import reading

from telemetry_ingest.exports.common import format_value
from telemetry_ingest.exports.csv_export import export_readings_csv
from telemetry_ingest.exports.jsonl_export import export_readings_jsonl


def test_format_value():
    assert format_value(38.20) == "38.2"
    assert format_value(-0.0000001) == "0"
    assert format_value(1013.0) == "1013"


def test_csv_export(t0):
    rows = [
        reading(device="FZ-4", value=-18.5, ts=t0 + timedelta(seconds=30)),
        reading(device="FZ-3", value=38.2, unit="F"),
    ]
    assert export_readings_csv(rows) == (
        "device_id,metric,value,unit,ts\n"
        "FZ-3,temperature,38.2,F,2025-08-04T10:00:00Z\n"
        "FZ-4,temperature,-18.5,C,2025-08-04T10:00:30Z\n"
    )


def test_jsonl_export(t0):
    lines = export_readings_jsonl([reading(value=41.0, metric="humidity", unit="%RH")]).splitlines()
    assert json.loads(lines[0]) == {
        "device_id": "FZ-3",
        "metric": "humidity",
        "value": 41.0,
        "unit": "%RH",
        "ts": "2025-08-04T10:00:00Z",
    }
