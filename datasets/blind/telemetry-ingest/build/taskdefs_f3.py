"""Family add-metric: a new metric needs METRICS, FIELD_ALIASES and the regenerated published schema."""

from taskkit import SCHEMAGEN, Cand, TaskDef, edit, run, write

M = "telemetry_ingest/metrics.py"
AL = "telemetry_ingest/parsing/aliases.py"
SC = "schema/readings.schema.json"
SG = "telemetry_ingest/tools/schemagen.py"
LAST_METRIC = '        MetricSpec("soil_moisture", "%VWC", 0.0, 100.0, "Volumetric soil water content"),\n'
LAST_ALIAS = '    "soil_moisture": "soil_moisture",\n'


def metric(line: str) -> tuple:
    return edit(M, LAST_METRIC, LAST_METRIC + line)


def aliases(*pairs: tuple[str, str]) -> tuple:
    return edit(AL, LAST_ALIAS, LAST_ALIAS + "".join(f'    "{a}": "{b}",\n' for a, b in pairs))


COMMON_P2P = ["tests/test_parsing.py::test_unknown_fields_are_skipped", "tests/test_co2.py::test_co2_is_parsed"]
SYNC = "tests/test_schema_sync.py::test_published_schema_is_up_to_date"

LUX = '        MetricSpec("illuminance", "lx", 0.0, 200000.0, "Illuminance"),\n'

T9 = TaskDef(
    n=9, family="add-metric", position=1, created_at="2025-08-28 09:30", target="middle",
    problem=(
        "We installed LX-200 light sensors in greenhouse GH-2. They post payloads like\n\n"
        '{"device": "GH-2", "ts": "2025-08-27T12:00:00Z", "readings": {"lux": 18250, "t": 24.5}}\n\n'
        "The temperature shows up, the light level never does. Please support them: metric `illuminance`, unit `lx`, "
        "plausible range 0–200000 lx. Older LX-200 firmware sends the field as `illuminance` instead of `lux`."
    ),
    tests=[write("tests/test_illuminance.py", '''from conftest import reading

from telemetry_ingest.parsing import parse_payload
from telemetry_ingest.validation import validate


def test_lux_field_is_parsed(t0):
    for field in ("lux", "illuminance"):
        payload = {"device": "GH-2", "ts": "2025-08-27T12:00:00Z", "readings": {field: 18250, "t": 24.5}}
        result = parse_payload(payload, received_at=t0)
        assert sorted((r.metric, r.value, r.unit) for r in result.readings) == [
            ("illuminance", 18250, "lx"),
            ("temperature", 24.5, "C"),
        ]
        assert result.skipped == []


def test_illuminance_range(t0):
    assert validate(reading(device="GH-2", metric="illuminance", value=18250, unit="lx"), now=t0) == []
    assert validate(reading(device="GH-2", metric="illuminance", value=250000, unit="lx"), now=t0) == [
        "illuminance 250000 lx out of range"
    ]
''')],
    f2p=["tests/test_illuminance.py::test_lux_field_is_parsed", "tests/test_illuminance.py::test_illuminance_range"],
    p2p=[SYNC, *COMMON_P2P, "tests/test_pm25.py::test_both_firmware_field_names"],
    gold=Cand("gold", [metric(LUX), aliases(("lux", "illuminance"), ("illuminance", "illuminance")), SCHEMAGEN]),
    decoys=[
        Cand("no-schema", [metric(LUX), aliases(("lux", "illuminance"), ("illuminance", "illuminance"))]),
        Cand("no-alias", [metric(LUX), SCHEMAGEN]),
        Cand("vendor-map", [
            metric(LUX),
            write("telemetry_ingest/parsing/vendors.py",
                  '"""Field names of specific vendors that do not follow our naming."""\n\n'
                  "VENDOR_FIELDS: dict[str, str] = {\n"
                  '    # LX-200 light sensors\n'
                  '    "lux": "illuminance",\n'
                  '    "illuminance": "illuminance",\n'
                  "}\n"),
            edit("telemetry_ingest/parsing/json_payload.py", "from telemetry_ingest.parsing.aliases import metric_for_field\n",
                 "from telemetry_ingest.parsing.aliases import metric_for_field\nfrom telemetry_ingest.parsing.vendors import VENDOR_FIELDS\n"),
            edit("telemetry_ingest/parsing/json_payload.py", "        metric = metric_for_field(name)\n",
                 "        metric = metric_for_field(name) or VENDOR_FIELDS.get(name.strip().lower())\n")]),
    ],
)

SOUND = '        MetricSpec("sound_level", "dBA", 0.0, 140.0, "A-weighted sound pressure level"),\n'

T10 = TaskDef(
    n=10, family="add-metric", position=2, created_at="2025-09-01 13:00", target="smallest",
    branch="feat/noise-sensors", base_who="marco", base_when="2025-08-29 12:00",
    base_message="Add sound_level metric (NS-10 noise sensors)",
    base=[metric(SOUND), aliases(("noise", "sound_level"), ("spl", "sound_level"), ("sound_level", "sound_level")),
          write("tests/test_sound_level.py", '''from telemetry_ingest.parsing import parse_payload


def test_noise_field(t0):
    result = parse_payload({"device": "NS-10", "ts": 1754301600, "readings": {"noise": 64.5}}, received_at=t0)
    [r] = result.readings
    assert (r.metric, r.value, r.unit) == ("sound_level", 64.5, "dBA")
''')],
    problem=(
        "An integrator (Stadtwerke Nord) reports that their validator rejects every reading from our new NS-10 noise "
        "sensors: `'sound_level' is not one of ['battery', 'co2', 'humidity', 'pm25', 'pressure', 'soil_moisture', "
        "'temperature']`. They validate our feed against the JSON schema we publish for integrators in this repository. "
        "All other readings validate fine. Expected: sound_level readings validate, with their unit and limits "
        "published like every other metric's."
    ),
    tests=[write("tests/test_published_schema.py", '''import json

from telemetry_ingest.metrics import METRICS
from telemetry_ingest.tools.schemagen import SCHEMA_PATH


def test_every_metric_is_published():
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["properties"]["metric"]["enum"] == sorted(METRICS)


def test_sound_level_limits_are_published():
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["x-metrics"]["sound_level"] == {
        "description": "A-weighted sound pressure level",
        "unit": "dBA",
        "minimum": 0.0,
        "maximum": 140.0,
    }
''')],
    f2p=[SYNC, "tests/test_published_schema.py::test_every_metric_is_published",
         "tests/test_published_schema.py::test_sound_level_limits_are_published"],
    p2p=["tests/test_sound_level.py::test_noise_field", *COMMON_P2P],
    gold=Cand("gold", [SCHEMAGEN]),
    decoys=[
        Cand("loose-enum", [edit(SG, '            "metric": {"enum": sorted(METRICS)},\n', '            "metric": {"type": "string"},\n'),
                            SCHEMAGEN]),
        Cand("hand-append", [
            edit(SC, '        "temperature"\n      ]', '        "temperature",\n        "sound_level"\n      ]'),
            edit(SC, '      "maximum": 125.0\n    }\n  }\n}',
                 '      "maximum": 125.0\n    },\n    "sound_level": {\n      "description": "A-weighted sound pressure level",\n'
                 '      "unit": "dBA",\n      "minimum": 0.0,\n      "maximum": 140.0\n    }\n  }\n}')]),
        Cand("pattern", [edit(SG, '            "metric": {"enum": sorted(METRICS)},\n',
                              '            "metric": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},\n'),
                         SCHEMAGEN]),
    ],
)

TVOC = '        MetricSpec("tvoc", "ppb", 0.0, 60000.0, "Total volatile organic compounds"),\n'

T11 = TaskDef(
    n=11, family="add-metric", position=3, created_at="2025-09-03 10:00", target="largest",
    problem=(
        "Air-quality customers want TVOC from the SGP40 boards. Current firmware sends it as `tvoc`, older boards as "
        "`tvoc_ppb`, both in ppb; right now both end up in the ingest report's skipped fields and nothing is stored. "
        "Please add metric `tvoc` (unit `ppb`, plausible range 0–60000)."
    ),
    tests=[write("tests/test_tvoc.py", '''from conftest import reading

from telemetry_ingest.parsing import parse_payload
from telemetry_ingest.validation import validate


def test_both_field_names(t0):
    for field in ("tvoc", "tvoc_ppb"):
        result = parse_payload({"device": "AQ-9", "ts": 1754301600, "readings": {field: 220}}, received_at=t0)
        assert [(r.metric, r.value, r.unit) for r in result.readings] == [("tvoc", 220, "ppb")]
        assert result.skipped == []


def test_tvoc_range(t0):
    assert validate(reading(device="AQ-9", metric="tvoc", value=220, unit="ppb"), now=t0) == []
    assert validate(reading(device="AQ-9", metric="tvoc", value=65000, unit="ppb"), now=t0) == ["tvoc 65000 ppb out of range"]
''')],
    f2p=["tests/test_tvoc.py::test_both_field_names", "tests/test_tvoc.py::test_tvoc_range"],
    p2p=[SYNC, *COMMON_P2P, "tests/test_soil_moisture.py::test_vwc_and_legacy_field"],
    gold=Cand("gold", [metric(TVOC), aliases(("tvoc", "tvoc"), ("tvoc_ppb", "tvoc")), SCHEMAGEN]),
    decoys=[
        Cand("no-schema", [metric(TVOC), aliases(("tvoc", "tvoc"), ("tvoc_ppb", "tvoc"))]),
        Cand("no-alias", [metric(TVOC), SCHEMAGEN]),
        Cand("enum-only", [metric(TVOC), aliases(("tvoc", "tvoc"), ("tvoc_ppb", "tvoc")),
                           edit(SC, '        "temperature"\n      ]', '        "temperature",\n        "tvoc"\n      ]')]),
    ],
)

DEW = '        MetricSpec("dew_point", "C", -60.0, 60.0, "Dew point temperature"),\n'

T12 = TaskDef(
    n=12, family="add-metric", position=4, created_at="2025-09-05 15:30", target="middle",
    branch="feat/dew-point", base_who="marco", base_when="2025-09-04 12:15",
    base_message="WIP: dew point field names from the Vaisala HMP stations",
    base=[aliases(("dp", "dew_point"), ("dewpoint", "dew_point"), ("dew_point", "dew_point"))],
    problem=(
        "The Vaisala HMP weather stations on the Hamburg dock send dew point as `dp` (°C). Marco started on dew point "
        "support on feat/dew-point, but the field still shows up in the ingest report's skipped fields and nothing is "
        "stored. Please finish it: metric `dew_point`, °C, plausible range -60 to 60 °C."
    ),
    tests=[write("tests/test_dew_point.py", '''from conftest import reading

from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore
from telemetry_ingest.validation import validate


def test_dp_field_is_stored(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    payload = {"device": "HB-1", "ts": "2025-08-04T10:00:00Z", "readings": {"dp": 12.5, "t": 18.0}}
    report = pipe.ingest_payload(payload, received_at=t0)
    assert report.accepted == 2 and report.skipped_fields == []
    assert [(r.metric, r.value, r.unit) for r in pipe.store.query(metric="dew_point")] == [("dew_point", 12.5, "C")]


def test_dew_point_range(t0):
    assert validate(reading(device="HB-1", metric="dew_point", value=12.5), now=t0) == []
    assert validate(reading(device="HB-1", metric="dew_point", value=75.0), now=t0) == ["dew_point 75 C out of range"]


def test_fahrenheit_dew_point(t0):
    assert validate(reading(device="HB-1", metric="dew_point", value=54.5, unit="F"), now=t0) == []
''')],
    f2p=["tests/test_dew_point.py::test_dp_field_is_stored", "tests/test_dew_point.py::test_dew_point_range",
         "tests/test_dew_point.py::test_fahrenheit_dew_point"],
    p2p=[SYNC, *COMMON_P2P],
    gold=Cand("gold", [metric(DEW), SCHEMAGEN]),
    decoys=[
        Cand("metric-only", [metric(DEW)]),
        Cand("hand-append", [
            metric(DEW),
            edit(SC, '        "temperature"\n      ]', '        "temperature",\n        "dew_point"\n      ]'),
            edit(SC, '      "maximum": 125.0\n    }\n  }\n}',
                 '      "maximum": 125.0\n    },\n    "dew_point": {\n      "description": "Dew point temperature",\n'
                 '      "unit": "C",\n      "minimum": -60.0,\n      "maximum": 60.0\n    }\n  }\n}')]),
        Cand("drop-dp", [metric(DEW), edit(AL, '    "dp": "dew_point",\n', ""), SCHEMAGEN]),
    ],
)

TASKS = [T9, T10, T11, T12]
