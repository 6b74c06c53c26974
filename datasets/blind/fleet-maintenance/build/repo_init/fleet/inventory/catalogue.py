"""Read-only access to the parts catalogue."""
import json
from pathlib import Path

INDEX_PATH = Path(__file__).resolve().parent / "parts_index.json"


def load():
    return json.loads(INDEX_PATH.read_text())


def lookup(part_no):
    index = load()
    try:
        return index[part_no.strip().upper()]
    except KeyError:
        raise KeyError(f"unknown part {part_no}") from None


def price_cents(part_no):
    return lookup(part_no)["price_cents"]
