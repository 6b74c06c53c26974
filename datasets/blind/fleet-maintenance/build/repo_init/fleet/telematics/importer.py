"""Parse the telematics CSV export (columns: unit, ts, odo, speed)."""
import csv
import io
from datetime import datetime, timezone


def parse_rows(text):
    rows = []
    for rec in csv.DictReader(io.StringIO(text)):
        rows.append({
            "unit_no": rec["unit"].strip(),
            "ts": datetime.fromtimestamp(int(rec["ts"]), tz=timezone.utc),
            "odo": int(rec["odo"]),
            "speed": float(rec["speed"]),
        })
    return rows


def rows_for_unit(rows, unit_no):
    return sorted((r for r in rows if r["unit_no"] == unit_no), key=lambda r: r["ts"])
