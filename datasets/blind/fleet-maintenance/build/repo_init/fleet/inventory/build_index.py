"""Build fleet/inventory/parts_index.json from data/parts.csv.

Run: python -m fleet.inventory.build_index
"""
import csv
import json
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSV_PATH = ROOT / "data" / "parts.csv"
INDEX_PATH = Path(__file__).resolve().parent / "parts_index.json"


def build(csv_path=CSV_PATH):
    index = {}
    with open(csv_path, newline="") as fh:
        for rec in csv.DictReader(fh):
            part_no = rec["part_no"].strip().upper()
            index[part_no] = {
                "description": rec["description"].strip(),
                "pack_size": int(rec["pack_size"]),
                "price_cents": int(Decimal(rec["price"]) * 100),
            }
    return dict(sorted(index.items()))


def main():
    index = build()
    INDEX_PATH.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    print(f"wrote {len(index)} parts to {INDEX_PATH.name}")


if __name__ == "__main__":
    main()
