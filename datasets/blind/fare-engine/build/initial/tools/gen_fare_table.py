"""Render fare_engine/fare_table.py from data/fares.csv."""
import csv
import hashlib
import io
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CSV_PATH = ROOT / "data" / "fares.csv"
OUT_PATH = ROOT / "fare_engine" / "fare_table.py"


def render(csv_text: str) -> str:
    digest = hashlib.sha256(csv_text.encode("utf-8")).hexdigest()
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    lines = [f'SOURCE_SHA256 = "{digest}"', "", "FARES = {"]
    for row in sorted(rows, key=lambda r: int(r["zone"])):
        lines.append(f"    {int(row['zone'])}: {int(row['fare_cents'])},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    text = CSV_PATH.read_text(encoding="utf-8")
    OUT_PATH.write_text(render(text), encoding="utf-8")
    print(f"wrote {OUT_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
