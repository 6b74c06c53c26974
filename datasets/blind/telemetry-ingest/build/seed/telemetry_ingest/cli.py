"""Command line: ingest payload files and export stored readings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from telemetry_ingest.config import ConfigError, Settings
from telemetry_ingest.exports.csv_export import export_readings_csv
from telemetry_ingest.exports.jsonl_export import export_readings_jsonl
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.registry import DeviceRegistry
from telemetry_ingest.store import InMemoryStore

EXPORTERS = {"csv": export_readings_csv, "jsonl": export_readings_jsonl}


def load_registry(path: Path) -> DeviceRegistry:
    registry = DeviceRegistry()
    for row in json.loads(path.read_text()):
        registry.register(row["device_id"], row["site"], row.get("name", ""))
    return registry


def cmd_ingest(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    try:
        settings.require_api_key()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pipeline = IngestPipeline(load_registry(Path(args.devices)), InMemoryStore())
    total = 0
    for line in Path(args.payloads).read_text().splitlines():
        if line.strip():
            total += pipeline.ingest_payload(line).accepted
    print(f"accepted {total} readings")
    if args.export:
        sys.stdout.write(EXPORTERS[args.export](pipeline.store.query()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="telemetry-ingest")
    sub = parser.add_subparsers(dest="command", required=True)
    ingest = sub.add_parser("ingest", help="ingest a file of JSON payloads, one per line")
    ingest.add_argument("payloads")
    ingest.add_argument("--devices", required=True, help="JSON list of devices")
    ingest.add_argument("--export", choices=sorted(EXPORTERS))
    ingest.set_defaults(func=cmd_ingest)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
