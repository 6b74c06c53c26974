"""Readings as CSV, the format the customer portal offers for download."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from telemetry_ingest.exports.common import format_value
from telemetry_ingest.models import Reading
from telemetry_ingest.timeutil import format_ts

COLUMNS = ["device_id", "metric", "value", "unit", "ts"]


def export_readings_csv(readings: Iterable[Reading]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric)):
        writer.writerow([r.device_id, r.metric, format_value(r.value), r.unit, format_ts(r.ts)])
    return out.getvalue()
