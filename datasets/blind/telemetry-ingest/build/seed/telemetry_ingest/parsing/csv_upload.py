"""Bulk CSV uploads from gateways (columns: device, ts, metric, value, unit)."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from telemetry_ingest.metrics import METRICS
from telemetry_ingest.models import Reading
from telemetry_ingest.parsing.aliases import metric_for_field
from telemetry_ingest.parsing.json_payload import ParseError, ParseResult
from telemetry_ingest.timeutil import parse_ts

REQUIRED = ("device", "ts", "metric", "value")


def parse_csv(text: str, received_at: datetime) -> ParseResult:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        raise ParseError(f"missing columns: {', '.join(missing)}")
    result = ParseResult()
    for lineno, row in enumerate(reader, start=2):
        metric = metric_for_field(row["metric"])
        if metric is None or metric not in METRICS:
            result.skipped.append(row["metric"])
            continue
        try:
            value = float(row["value"])
            ts = parse_ts(row["ts"])
        except ValueError as exc:
            raise ParseError(f"line {lineno}: {exc}") from None
        unit = (row.get("unit") or "").strip() or METRICS[metric].canonical_unit
        result.readings.append(
            Reading(
                device_id=row["device"],
                metric=metric,
                value=value,
                unit=unit,
                ts=ts,
                received_at=received_at,
            )
        )
    return result
