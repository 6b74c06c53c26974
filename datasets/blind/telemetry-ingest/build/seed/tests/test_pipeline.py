from datetime import timedelta

from telemetry_ingest.alerts import AlertEngine, ThresholdRule
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def make_pipeline(registry, rules=()):
    return IngestPipeline(registry, InMemoryStore(), engine=AlertEngine(list(rules)))


def payload(device="fz-3", ts="2025-08-04T10:00:00Z", **readings):
    return {"device": device, "ts": ts, "readings": readings or {"temp": -18.0}}


def test_accepts_and_stores(registry, t0):
    pipe = make_pipeline(registry)
    report = pipe.ingest_payload(payload(temp=-18.0, hum=50), received_at=t0)
    assert report.accepted == 2
    assert [r.device_id for r in pipe.store.query()] == ["FZ-3", "FZ-3"]


def test_marks_device_online(registry, t0):
    pipe = make_pipeline(registry)
    pipe.ingest_payload(payload(), received_at=t0)
    assert registry.status("FZ-3", now=t0 + timedelta(minutes=1)) == "online"


def test_rejects_unknown_device_and_bad_values(registry, t0):
    pipe = make_pipeline(registry)
    report = pipe.ingest_payload(payload(device="ZZ-9"), received_at=t0)
    assert report.rejected == ["ZZ-9: unknown device"]
    report = pipe.ingest_payload(payload(temp=900), received_at=t0)
    assert report.accepted == 0 and "out of range" in report.rejected[0]


def test_duplicates_are_dropped(registry, t0):
    pipe = make_pipeline(registry)
    pipe.ingest_payload(payload(), received_at=t0)
    report = pipe.ingest_payload(payload(), received_at=t0 + timedelta(seconds=30))
    assert report.duplicates == 1 and report.accepted == 0


def test_alerts_are_raised(registry, t0):
    pipe = make_pipeline(registry, [ThresholdRule("freezer-warm", "temperature", ">", -10.0)])
    report = pipe.ingest_payload(payload(temp={"v": 20.0, "u": "F"}), received_at=t0)
    assert [a.rule for a in report.alerts] == ["freezer-warm"]
