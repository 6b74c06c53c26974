import json
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Reading:
    probe_id: str
    ts: datetime
    vwc: float
    status: str = "OK"


def _parse_ts(text):
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return datetime.fromisoformat(text)


def parse_line(line):
    raw = json.loads(line)
    return Reading(
        probe_id=raw["probe"],
        ts=_parse_ts(raw["ts"]),
        vwc=float(raw["vwc"]),
        status=raw.get("st", "OK"),
    )


def parse_dump(text):
    readings = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            readings.append(parse_line(line))
    return readings


def latest_by_probe(readings):
    latest = {}
    for reading in readings:
        current = latest.get(reading.probe_id)
        if current is None or reading.ts > current.ts:
            latest[reading.probe_id] = reading
    return latest


def for_zone(readings, zone):
    return [r for r in readings if r.probe_id in zone.probes]
