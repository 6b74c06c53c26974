"""Parse the JSON payload our devices post.

A payload looks like::

    {"device": "FZ-3", "ts": "2025-08-04T10:00:00Z", "seq": 41,
     "readings": {"temp": {"v": 38.2, "u": "F"}, "hum": 41.5}}

A bare number uses the metric's canonical unit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from telemetry_ingest.metrics import METRICS
from telemetry_ingest.models import Reading
from telemetry_ingest.parsing.aliases import metric_for_field
from telemetry_ingest.timeutil import parse_ts


class ParseError(ValueError):
    pass


@dataclass
class ParseResult:
    readings: list[Reading] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Fields of the payload that name no metric we know."""


def parse_payload(payload: str | bytes | dict[str, Any], received_at: datetime) -> ParseResult:
    if isinstance(payload, (str, bytes)):
        try:
            payload = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise ParseError("payload must be a JSON object")
    try:
        device = str(payload["device"])
        ts = parse_ts(payload["ts"])
        values = payload["readings"]
    except KeyError as exc:
        raise ParseError(f"missing field {exc.args[0]!r}") from None
    except ValueError as exc:
        raise ParseError(str(exc)) from None
    seq = payload.get("seq")
    result = ParseResult()
    for name, raw in values.items():
        metric = metric_for_field(name)
        if metric is None or metric not in METRICS:
            result.skipped.append(name)
            continue
        if isinstance(raw, dict):
            value, unit = raw.get("v"), raw.get("u") or METRICS[metric].canonical_unit
        else:
            value, unit = raw, METRICS[metric].canonical_unit
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ParseError(f"{name}: value must be a number")
        result.readings.append(
            Reading(
                device_id=device,
                metric=metric,
                value=float(value),
                unit=unit,
                ts=ts,
                received_at=received_at,
                seq=seq,
            )
        )
    return result
