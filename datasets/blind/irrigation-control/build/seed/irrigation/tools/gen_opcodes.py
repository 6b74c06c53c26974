import csv
import hashlib
import io
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
SOURCE = PACKAGE / "valves" / "opcodes.csv"
TARGET = PACKAGE / "valves" / "_opcodes.py"


def parse(text):
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        args = []
        for spec in filter(None, (row.get("args") or "").split(";")):
            name, _, kind = spec.partition(":")
            args.append((name.strip(), kind.strip()))
        rows.append((row["name"].strip(), int(row["code"], 16), tuple(args)))
    return rows


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def render(text):
    rows = parse(text)
    out = ["# Valve controller opcode table.", f'SOURCE_DIGEST = "{digest(text)}"', "", "OPCODES = {"]
    for name, code, _ in rows:
        out.append(f'    "{name}": 0x{code:02X},')
    out += ["}", "", "ARGS = {"]
    for name, _, args in rows:
        inner = "".join(f'("{a}", "{k}"), ' for a, k in args).rstrip(" ")
        out.append(f'    "{name}": ({inner}),')
    out += ["}", ""]
    return "\n".join(out)


def main(argv=None):
    text = SOURCE.read_text()
    TARGET.write_text(render(text))
    print(f"wrote {TARGET.relative_to(PACKAGE.parent)} ({len(parse(text))} opcodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
