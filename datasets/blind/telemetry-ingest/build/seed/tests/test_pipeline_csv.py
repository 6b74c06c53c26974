from datetime import timedelta

from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore

CSV = (
    "device,ts,metric,value,unit\n"
    "HB-1,2025-08-04T09:20:00Z,temp,-19.5,C\n"
    "HB-1,2025-08-04T09:20:00Z,hum,61,%\n"
    "hb-1,2025-08-04T09:25:00Z,temp,-19.1,C\n"
    "ZZ-9,2025-08-04T09:25:00Z,temp,4,C\n"
)


def test_csv_upload_stores_readings(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    report = pipe.ingest_csv(CSV, received_at=t0)
    assert report.accepted == 3
    assert report.rejected == ["ZZ-9: unknown device"]
    assert {r.device_id for r in pipe.store.query()} == {"HB-1"}


def test_csv_upload_drops_retransmissions(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    pipe.ingest_csv(CSV, received_at=t0)
    report = pipe.ingest_csv(CSV, received_at=t0 + timedelta(minutes=1))
    assert report.accepted == 0 and report.duplicates == 3
