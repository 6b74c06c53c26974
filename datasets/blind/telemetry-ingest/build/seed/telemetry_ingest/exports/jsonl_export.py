"""Readings as JSON lines, the format the data warehouse loads."""

from __future__ import annotations

import json
from collections.abc import Iterable

from telemetry_ingest.models import Reading
from telemetry_ingest.timeutil import format_ts


def reading_record(r: Reading) -> dict:
    return {
        "device_id": r.device_id,
        "metric": r.metric,
        "value": r.value,
        "unit": r.unit,
        "ts": format_ts(r.ts),
    }


def export_readings_jsonl(readings: Iterable[Reading]) -> str:
    rows = sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric))
    return "".join(json.dumps(reading_record(r), sort_keys=True) + "\n" for r in rows)
