"""Generate schema/readings.schema.json, the schema we publish to integrators.

    python -m telemetry_ingest.tools.schemagen            # print it
    python -m telemetry_ingest.tools.schemagen --write    # update the file in the repo
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from telemetry_ingest.metrics import METRICS

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schema" / "readings.schema.json"


def build_schema() -> dict:
    metric_schemas = {
        name: {
            "description": spec.description,
            "unit": spec.canonical_unit,
            "minimum": spec.min_value,
            "maximum": spec.max_value,
        }
        for name, spec in sorted(METRICS.items())
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ACME telemetry reading",
        "type": "object",
        "required": ["device_id", "metric", "value", "unit", "ts"],
        "properties": {
            "device_id": {"type": "string"},
            "metric": {"enum": sorted(METRICS)},
            "value": {"type": "number"},
            "unit": {"type": "string"},
            "ts": {"type": "string", "format": "date-time"},
        },
        "x-metrics": metric_schemas,
    }


def render_schema() -> str:
    return json.dumps(build_schema(), indent=2, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the schema file")
    args = parser.parse_args(argv)
    text = render_schema()
    if args.write:
        SCHEMA_PATH.write_text(text)
        print(f"wrote {SCHEMA_PATH.relative_to(SCHEMA_PATH.parents[1])}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
