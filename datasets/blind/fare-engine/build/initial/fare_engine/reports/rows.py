import csv
import io
from datetime import datetime, timezone, tzinfo

DEFAULT_TZ = timezone.utc


def load_rows(csv_text: str, tz: tzinfo = DEFAULT_TZ) -> list[dict]:
    """Parse the backend's ledger export into dicts with a parsed `at`."""
    rows = []
    for raw in csv.DictReader(io.StringIO(csv_text)):
        row = dict(raw)
        row["at"] = datetime.fromtimestamp(int(raw["ts"]), tz)
        row["charged_cents"] = int(raw["charged_cents"])
        rows.append(row)
    return rows
