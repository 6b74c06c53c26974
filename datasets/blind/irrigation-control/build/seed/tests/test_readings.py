from irrigation.sensors.readings import for_zone, latest_by_probe, parse_dump

DUMP = """
{"probe": "P-01", "ts": "2026-01-10T04:00:00Z", "vwc": 0.30}
{"probe": "P-01", "ts": "2026-01-10T05:00:00Z", "vwc": 0.28}
{"probe": "P-03", "ts": "2026-01-10T05:00:00Z", "vwc": 0.25, "st": "OK"}
"""


def test_parse_dump():
    readings = parse_dump(DUMP)
    assert len(readings) == 3
    assert readings[0].status == "OK"
    assert readings[0].ts.tzinfo is not None


def test_latest_by_probe():
    latest = latest_by_probe(parse_dump(DUMP))
    assert latest["P-01"].vwc == 0.28


def test_for_zone(zones):
    readings = parse_dump(DUMP)
    assert [r.probe_id for r in for_zone(readings, zones.get(1))] == ["P-01", "P-01"]
