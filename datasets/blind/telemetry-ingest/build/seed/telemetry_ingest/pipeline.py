"""The ingest pipeline: parse, validate, de-duplicate, store, alert."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from telemetry_ingest.alerts.engine import AlertEngine
from telemetry_ingest.dedup import DedupFilter
from telemetry_ingest.models import Alert, Reading
from telemetry_ingest.parsing.json_payload import parse_payload
from telemetry_ingest.registry import DeviceRegistry, canonical_id
from telemetry_ingest.store import InMemoryStore
from telemetry_ingest.timeutil import utcnow
from telemetry_ingest.validation import validate


@dataclass
class IngestReport:
    accepted: int = 0
    duplicates: int = 0
    rejected: list[str] = field(default_factory=list)
    skipped_fields: list[str] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)


class IngestPipeline:
    def __init__(
        self,
        registry: DeviceRegistry,
        store: InMemoryStore,
        engine: AlertEngine | None = None,
        dedup: DedupFilter | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.registry = registry
        self.store = store
        self.engine = engine
        self.dedup = dedup or DedupFilter()
        self.clock = clock

    def _screen(self, reading: Reading, report: IngestReport, now: datetime) -> Reading | None:
        reading = replace(reading, device_id=canonical_id(reading.device_id))
        if reading.device_id not in self.registry:
            report.rejected.append(f"{reading.device_id}: unknown device")
            return None
        problems = validate(reading, now=now)
        if problems:
            report.rejected.append(f"{reading.device_id}: {'; '.join(problems)}")
            return None
        if self.dedup.seen(reading):
            report.duplicates += 1
            return None
        return reading

    def ingest_payload(self, payload, received_at: datetime | None = None) -> IngestReport:
        received_at = received_at or self.clock()
        parsed = parse_payload(payload, received_at)
        report = IngestReport(skipped_fields=list(parsed.skipped))
        accepted: list[Reading] = []
        for reading in parsed.readings:
            kept = self._screen(reading, report, received_at)
            if kept is None:
                continue
            accepted.append(kept)
            self.registry.touch(kept.device_id, received_at)
        self.store.add(accepted)
        report.accepted = len(accepted)
        if self.engine is not None:
            report.alerts = self.engine.process(accepted)
        return report
