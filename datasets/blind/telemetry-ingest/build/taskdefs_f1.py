"""Family export-ts-precision: evaluation tasks (exports write millisecond timestamps)."""

from taskkit import Cand, TaskDef, edit, write

ALERT_HISTORY = '''"""Alert history as CSV, loaded into the warehouse next to the readings."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from telemetry_ingest.exports.common import format_value
from telemetry_ingest.models import Alert
from telemetry_ingest.timeutil import format_ts

COLUMNS = ["triggered_at", "rule", "device_id", "metric", "value", "threshold", "message"]


def export_alert_history_csv(alerts: Iterable[Alert]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(COLUMNS)
    for a in sorted(alerts, key=lambda a: (a.ts, a.rule, a.device_id)):
        writer.writerow(
            [
                format_ts(a.ts),
                a.rule,
                a.device_id,
                a.metric,
                format_value(a.value),
                format_value(a.threshold),
                a.message,
            ]
        )
    return out.getvalue()
'''

ALERT_HISTORY_TEST = '''from datetime import timedelta

from telemetry_ingest.exports.alert_history import export_alert_history_csv
from telemetry_ingest.models import Alert


def alert(t0, rule="freezer-warm", device="FZ-3", value=-5.0, threshold=-10.0, delay=timedelta(0)):
    return Alert(
        rule=rule,
        device_id=device,
        metric="temperature",
        value=value,
        threshold=threshold,
        ts=t0 + delay,
        message=f"temperature {value:g} C > {threshold:g}",
    )


def test_header_and_order(t0):
    text = export_alert_history_csv([alert(t0, delay=timedelta(minutes=5)), alert(t0, rule="cold-room", device="FZ-4")])
    lines = text.splitlines()
    assert lines[0] == "triggered_at,rule,device_id,metric,value,threshold,message"
    assert [line.split(",")[1] for line in lines[1:]] == ["cold-room", "freezer-warm"]


def test_values_are_formatted(t0):
    [row] = export_alert_history_csv([alert(t0, value=-4.5)]).splitlines()[1:]
    assert row.split(",")[4:6] == ["-4.5", "-10"]
'''

ALERT_HISTORY_HIDDEN = '''from datetime import timedelta

from telemetry_ingest.exports.alert_history import export_alert_history_csv
from telemetry_ingest.models import Alert


def _alert(t0, rule, ms):
    return Alert(
        rule=rule,
        device_id="FZ-3",
        metric="temperature",
        value=-5.0,
        threshold=-10.0,
        ts=t0 + timedelta(milliseconds=ms),
        message="",
    )


def test_alerts_within_one_second_stay_distinct(t0):
    lines = export_alert_history_csv([_alert(t0, "freezer-warm", 120), _alert(t0, "door-open", 870)]).splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == ["2025-08-04T10:00:00.120Z", "2025-08-04T10:00:00.870Z"]


def test_alert_on_a_whole_second(t0):
    [row] = export_alert_history_csv([_alert(t0, "freezer-warm", 0)]).splitlines()[1:]
    assert row.startswith("2025-08-04T10:00:00.000Z,freezer-warm,FZ-3,")
'''

P = "telemetry_ingest/exports/alert_history.py"

T1 = TaskDef(
    n=1, family="export-ts-precision", position=1, created_at="2025-08-27 10:30", target="smallest",
    branch="feat/alert-history-export", base_who="marco", base_when="2025-08-26 17:20",
    base_message="exports: alert history CSV for the warehouse",
    base=[write(P, ALERT_HISTORY), write("tests/test_alert_history.py", ALERT_HISTORY_TEST)],
    problem=(
        "alert_history.csv (the alert history file we load into the warehouse next to the readings) is losing alerts. "
        "When two rules fire for the same device within the same second — e.g. `freezer-warm` at 10:00:00.120 and "
        "`door-open` at 10:00:00.870 on FZ-3 — only one of them ends up in the warehouse, whose loader de-duplicates "
        "on (triggered_at, device_id). Both alerts are present in the alert engine's output and in the file before "
        "loading. Expected: both alerts survive the load."
    ),
    tests=[write("tests/test_alert_history_timestamps.py", ALERT_HISTORY_HIDDEN)],
    f2p=["tests/test_alert_history_timestamps.py::test_alerts_within_one_second_stay_distinct",
         "tests/test_alert_history_timestamps.py::test_alert_on_a_whole_second"],
    p2p=["tests/test_alert_history.py::test_header_and_order", "tests/test_alert_history.py::test_values_are_formatted",
         "tests/test_exports.py::test_csv_export", "tests/test_timeutil.py::test_format_ts"],
    gold=Cand("gold", [edit(P, "                format_ts(a.ts),\n", "                format_ts(a.ts, millis=True),\n")]),
    decoys=[
        Cand("iso", [edit(P, "                format_ts(a.ts),\n", '                a.ts.isoformat(timespec="milliseconds"),\n'),
                     edit(P, "from telemetry_ingest.timeutil import format_ts\n", "")]),
        Cand("strftime", [
            edit(P, "from collections.abc import Iterable\n", "from collections.abc import Iterable\nfrom datetime import datetime, timezone\n"),
            edit(P, "from telemetry_ingest.timeutil import format_ts\n", ""),
            edit(P, "\n\ndef export_alert_history_csv",
                 "\n\ndef _triggered_at(ts: datetime) -> str:\n"
                 "    return ts.astimezone(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%S.%fZ\")\n"
                 "\n\ndef export_alert_history_csv"),
            edit(P, "                format_ts(a.ts),\n", "                _triggered_at(a.ts),\n")]),
        Cand("epoch", [
            edit(P, "\n\ndef export_alert_history_csv",
                 "\n\ndef _epoch_ms(alert: Alert) -> str:\n"
                 "    return str(int(alert.ts.timestamp() * 1000))\n"
                 "\n\ndef export_alert_history_csv"),
            edit(P, "                format_ts(a.ts),\n", "                _epoch_ms(a),\n"),
            edit(P, "from telemetry_ingest.timeutil import format_ts\n", "")]),
    ],
)

INVENTORY = '''"""Device inventory export for the fleet team: one row per registered device."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from telemetry_ingest.devices.registry import DeviceRegistry
from telemetry_ingest.timeutil import format_ts

COLUMNS = ["device_id", "site", "name", "status", "last_seen"]


def export_inventory_csv(registry: DeviceRegistry, now: datetime) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(COLUMNS)
    for device in registry:
        last_seen = format_ts(device.last_seen) if device.last_seen else ""
        status = registry.status(device.device_id, now)
        writer.writerow([device.device_id, device.site, device.name, status, last_seen])
    return out.getvalue()
'''

INVENTORY_TEST = '''from datetime import timedelta

from telemetry_ingest.exports.inventory import export_inventory_csv


def test_inventory_rows(registry, t0):
    registry.touch("FZ-3", t0)
    lines = export_inventory_csv(registry, now=t0 + timedelta(minutes=1)).splitlines()
    assert lines[0] == "device_id,site,name,status,last_seen"
    assert lines[1].startswith("FZ-3,chicago,freezer room 3,online,2025-08-04T10:00:00")
    assert lines[2] == "FZ-4,chicago,freezer room 4,never_seen,"
'''

INVENTORY_HIDDEN = '''from datetime import timedelta

from telemetry_ingest.exports.csv_export import export_readings_csv
from telemetry_ingest.exports.inventory import export_inventory_csv
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def test_last_seen_joins_with_received_at_of_the_readings_export(registry, t0):
    received = t0 + timedelta(seconds=2, milliseconds=345)
    pipe = IngestPipeline(registry, InMemoryStore())
    pipe.ingest_payload({"device": "FZ-3", "ts": "2025-08-04T10:00:00Z", "readings": {"temp": -18}}, received_at=received)
    readings_row = export_readings_csv(pipe.store.query()).splitlines()[1]
    inventory_row = export_inventory_csv(registry, now=received).splitlines()[1]
    assert inventory_row.split(",")[4] == readings_row.split(",")[5] == "2025-08-04T10:00:02.345Z"


def test_never_seen_device_has_empty_last_seen(registry, t0):
    assert export_inventory_csv(registry, now=t0).splitlines()[1] == "FZ-3,chicago,freezer room 3,never_seen,"
'''

Q = "telemetry_ingest/exports/inventory.py"

T2 = TaskDef(
    n=2, family="export-ts-precision", position=2, created_at="2025-08-29 11:00", target="largest",
    branch="feat/device-inventory-export", base_who="marco", base_when="2025-08-28 16:45",
    base_message="exports: device inventory CSV for the fleet team",
    base=[write(Q, INVENTORY), write("tests/test_inventory.py", INVENTORY_TEST)],
    problem=(
        "Fleet team: we join devices.csv (the new device inventory export) with readings.csv on device_id and "
        "last_seen = received_at, to find the upload that last brought each device online. The join matches almost "
        "nothing, although last_seen is set by exactly those uploads. Expected: every device that has uploaded "
        "matches its latest upload row in readings.csv."
    ),
    tests=[write("tests/test_inventory_last_seen.py", INVENTORY_HIDDEN)],
    f2p=["tests/test_inventory_last_seen.py::test_last_seen_joins_with_received_at_of_the_readings_export"],
    p2p=["tests/test_inventory_last_seen.py::test_never_seen_device_has_empty_last_seen",
         "tests/test_inventory.py::test_inventory_rows", "tests/test_exports.py::test_csv_export",
         "tests/test_registry.py::test_status_lifecycle"],
    gold=Cand("gold", [
        edit(Q, "\n\ndef export_inventory_csv",
             "\n\ndef _ts(value: datetime | None) -> str:\n"
             "    return format_ts(value, millis=True) if value is not None else \"\"\n"
             "\n\ndef export_inventory_csv"),
        edit(Q, '        last_seen = format_ts(device.last_seen) if device.last_seen else ""\n',
             "        last_seen = _ts(device.last_seen)\n")]),
    decoys=[
        Cand("iso", [edit(Q, '        last_seen = format_ts(device.last_seen) if device.last_seen else ""\n',
                          '        last_seen = device.last_seen.isoformat() if device.last_seen else ""\n')]),
        Cand("readings-seconds", [edit("telemetry_ingest/exports/csv_export.py",
                                       "                format_ts(r.received_at, millis=True),\n",
                                       "                format_ts(r.received_at),\n")]),
        Cand("strftime", [edit(Q, '        last_seen = format_ts(device.last_seen) if device.last_seen else ""\n',
                               '        last_seen = device.last_seen.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if device.last_seen else ""\n')]),
    ],
)

S = "telemetry_ingest/exports/summary.py"

SUMMARY_BASE_EDITS = [
    edit(S, '"""Daily per-device summary of stored readings: count, min, max and mean per metric."""',
         '"""Daily per-device summary of stored readings: count, min, max, mean, first and last reading time."""'),
    edit(S, "from telemetry_ingest.models import Reading\n",
         "from telemetry_ingest.models import Reading\nfrom telemetry_ingest.timeutil import format_ts\n"),
    edit(S, 'COLUMNS = ["day", "device_id", "metric", "unit", "count", "min", "max", "mean"]',
         'COLUMNS = ["day", "device_id", "metric", "unit", "count", "min", "max", "mean", "first_ts", "last_ts"]'),
    edit(S,
         "    groups: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)\n"
         "    for r in readings:\n"
         "        groups[(r.ts.date().isoformat(), r.device_id, r.metric, r.unit)].append(r.value)\n"
         "    rows = []\n"
         "    for key in sorted(groups):\n"
         "        values = groups[key]\n"
         "        rows.append((*key, len(values), min(values), max(values), sum(values) / len(values)))\n",
         "    groups: dict[tuple[str, str, str, str], list[Reading]] = defaultdict(list)\n"
         "    for r in readings:\n"
         "        groups[(r.ts.date().isoformat(), r.device_id, r.metric, r.unit)].append(r)\n"
         "    rows = []\n"
         "    for key in sorted(groups):\n"
         "        values = [r.value for r in groups[key]]\n"
         "        stamps = [r.ts for r in groups[key]]\n"
         "        rows.append((*key, len(values), min(values), max(values), sum(values) / len(values), min(stamps), max(stamps)))\n"),
    edit(S,
         "    for day, device, metric, unit, count, lo, hi, mean in daily_summary(readings):\n"
         "        writer.writerow([day, device, metric, unit, count, format_value(lo), format_value(hi), format_value(mean)])\n",
         "    for day, device, metric, unit, count, lo, hi, mean, first, last in daily_summary(readings):\n"
         "        writer.writerow(\n"
         "            [\n"
         "                day,\n"
         "                device,\n"
         "                metric,\n"
         "                unit,\n"
         "                count,\n"
         "                format_value(lo),\n"
         "                format_value(hi),\n"
         "                format_value(mean),\n"
         "                format_ts(first),\n"
         "                format_ts(last),\n"
         "            ]\n"
         "        )\n"),
    edit("tests/test_summary.py",
         '        "day,device_id,metric,unit,count,min,max,mean\\n"\n'
         '        "2025-08-04,FZ-3,temperature,C,2,-20,-18,-19\\n"\n'
         '        "2025-08-04,HB-1,humidity,%RH,1,55,55,55\\n"\n'
         '        "2025-08-05,FZ-3,temperature,C,1,-17,-17,-17\\n"\n',
         '        "day,device_id,metric,unit,count,min,max,mean,first_ts,last_ts\\n"\n'
         '        "2025-08-04,FZ-3,temperature,C,2,-20,-18,-19,2025-08-04T10:00:00Z,2025-08-04T11:00:00Z\\n"\n'
         '        "2025-08-04,HB-1,humidity,%RH,1,55,55,55,2025-08-04T10:00:00Z,2025-08-04T10:00:00Z\\n"\n'
         '        "2025-08-05,FZ-3,temperature,C,1,-17,-17,-17,2025-08-05T10:00:00Z,2025-08-05T10:00:00Z\\n"\n'),
    edit("tests/test_summary.py",
         '"2025-08-04,FZ-3,temperature,F,2,25,29.8,27.4"',
         '"2025-08-04,FZ-3,temperature,F,2,25,29.8,27.4,2025-08-04T10:00:00Z,2025-08-04T10:05:00Z"'),
]

SUMMARY_HIDDEN_EDITS = [
    edit("tests/test_summary.py", "2025-08-04T10:00:00Z,2025-08-04T11:00:00Z", "2025-08-04T10:00:00.000Z,2025-08-04T11:00:00.000Z"),
    edit("tests/test_summary.py", "2025-08-04T10:00:00Z,2025-08-04T10:00:00Z", "2025-08-04T10:00:00.000Z,2025-08-04T10:00:00.000Z"),
    edit("tests/test_summary.py", "2025-08-05T10:00:00Z,2025-08-05T10:00:00Z", "2025-08-05T10:00:00.000Z,2025-08-05T10:00:00.000Z"),
    edit("tests/test_summary.py", "2025-08-04T10:00:00Z,2025-08-04T10:05:00Z", "2025-08-04T10:00:00.000Z,2025-08-04T10:05:00.000Z"),
    write("tests/test_summary_reconcile.py", '''from datetime import timedelta

from conftest import reading

from telemetry_ingest.exports.summary import export_summary_csv


def test_first_and_last_ts_match_the_readings(t0):
    rows = [
        reading(ts=t0 + timedelta(milliseconds=125)),
        reading(ts=t0 + timedelta(hours=13, minutes=59, seconds=59, milliseconds=640)),
    ]
    line = export_summary_csv(rows).splitlines()[1]
    assert line.endswith(",2025-08-04T10:00:00.125Z,2025-08-04T23:59:59.640Z")
'''),
]

T3 = TaskDef(
    n=3, family="export-ts-precision", position=3, created_at="2025-09-02 09:40", target="middle",
    branch="feat/summary-first-last", base_who="lena", base_when="2025-09-01 15:10",
    base_message="summary: first_ts / last_ts columns",
    base=SUMMARY_BASE_EDITS,
    problem=(
        "Our reconciliation job compares summary.csv with readings.csv for the same day and flags many device-days "
        "as incomplete: the summary's last_ts for a device and day is earlier than the newest ts of that device and day "
        "in readings.csv (for example the summary says 23:59:59Z while readings.csv has a row at 23:59:59.640Z). "
        "first_ts is off in the same way at the start of the day. Expected: first_ts / last_ts are exactly the first "
        "and last reading times of the device-day as readings.csv shows them."
    ),
    tests=SUMMARY_HIDDEN_EDITS,
    f2p=["tests/test_summary_reconcile.py::test_first_and_last_ts_match_the_readings",
         "tests/test_summary.py::test_daily_summary_groups_by_day_device_metric",
         "tests/test_summary.py::test_values_stay_in_the_reported_unit"],
    p2p=["tests/test_summary.py::test_a_unit_change_gives_separate_rows", "tests/test_exports.py::test_csv_export",
         "tests/test_manifest.py::test_manifest_bounds_keep_milliseconds"],
    gold=Cand("gold", [edit(S, "                format_ts(first),\n                format_ts(last),\n",
                            "                format_ts(first, millis=True),\n                format_ts(last, millis=True),\n")]),
    decoys=[
        Cand("last-only", [edit(S, "                format_ts(last),\n", "                format_ts(last, millis=True),\n")]),
        Cand("ceil", [
            edit(S, "from collections.abc import Iterable\n", "from collections.abc import Iterable\nfrom datetime import datetime, timedelta\n"),
            edit(S, "\n\ndef daily_summary",
                 "\n\ndef _ceil_second(ts: datetime) -> datetime:\n"
                 "    if ts.microsecond == 0:\n"
                 "        return ts\n"
                 "    return ts.replace(microsecond=0) + timedelta(seconds=1)\n"
                 "\n\ndef daily_summary"),
            edit(S, "                format_ts(last),\n", "                format_ts(_ceil_second(last)),\n")]),
        Cand("strftime", [
            edit(S, "from collections.abc import Iterable\n", "from collections.abc import Iterable\nfrom datetime import datetime, timezone\n"),
            edit(S, "from telemetry_ingest.timeutil import format_ts\n", ""),
            edit(S, "\n\ndef daily_summary",
                 "\n\ndef _stamp(ts: datetime) -> str:\n"
                 "    return ts.astimezone(timezone.utc).strftime(\"%Y-%m-%dT%H:%M:%S.%fZ\")\n"
                 "\n\ndef daily_summary"),
            edit(S, "                format_ts(first),\n                format_ts(last),\n",
                 "                _stamp(first),\n                _stamp(last),\n")]),
    ],
)

J = "telemetry_ingest/exports/jsonl_export.py"

T4 = TaskDef(
    n=4, family="export-ts-precision", position=4, created_at="2025-09-04 14:20", target="middle",
    branch="feat/jsonl-received-at", base_who="marco", base_when="2025-09-03 11:30",
    base_message="jsonl export: add received_at for the latency dashboard",
    base=[edit(J, '        "ts": format_ts(r.ts, millis=True),\n',
               '        "ts": format_ts(r.ts, millis=True),\n        "received_at": format_ts(r.received_at),\n'),
          edit("tests/test_exports.py", '        "ts": "2025-08-04T10:00:00.000Z",\n    }',
               '        "ts": "2025-08-04T10:00:00.000Z",\n        "received_at": "2025-08-04T10:00:02Z",\n    }')],
    problem=(
        "The warehouse latency dashboard computes received_at − ts per reading from the JSONL feed and shows negative "
        "latencies for roughly half of all readings (e.g. ts …T10:00:00.800Z with received_at …T10:00:00Z). Device "
        "clocks are NTP-synced and we always receive a reading after it was measured, so latency can never be negative. "
        "Expected: latencies computed from the feed are non-negative and accurate."
    ),
    tests=[edit("tests/test_exports.py", '"received_at": "2025-08-04T10:00:02Z",', '"received_at": "2025-08-04T10:00:02.000Z",'),
           write("tests/test_jsonl_latency.py", '''import json
from datetime import timedelta

from conftest import reading

from telemetry_ingest.exports.jsonl_export import export_readings_jsonl


def test_received_at_is_never_before_ts(t0):
    r = reading(ts=t0 + timedelta(milliseconds=800), received_at=t0 + timedelta(milliseconds=950))
    [line] = export_readings_jsonl([r]).splitlines()
    record = json.loads(line)
    assert record["ts"] == "2025-08-04T10:00:00.800Z"
    assert record["received_at"] == "2025-08-04T10:00:00.950Z"
''')],
    f2p=["tests/test_jsonl_latency.py::test_received_at_is_never_before_ts", "tests/test_exports.py::test_jsonl_export"],
    p2p=["tests/test_exports.py::test_csv_export", "tests/test_manifest.py::test_manifest", "tests/test_timeutil.py::test_format_ts"],
    gold=Cand("gold", [edit(J, '        "received_at": format_ts(r.received_at),\n',
                            '        "received_at": format_ts(r.received_at, millis=True),\n')]),
    decoys=[
        Cand("epoch-field", [edit(J, '        "received_at": format_ts(r.received_at),\n',
                                  '        "received_at": format_ts(r.received_at),\n'
                                  '        "received_at_ms": int(r.received_at.timestamp() * 1000),\n')]),
        Cand("iso-both", [edit(J, '        "ts": format_ts(r.ts, millis=True),\n        "received_at": format_ts(r.received_at),\n',
                               '        "ts": r.ts.isoformat(),\n        "received_at": r.received_at.isoformat(),\n'),
                          edit(J, "from telemetry_ingest.timeutil import format_ts\n", "")]),
        Cand("clamp", [edit(J, "def reading_record(r: Reading) -> dict:\n    return {\n",
                            "def reading_record(r: Reading) -> dict:\n    received = max(r.received_at, r.ts)\n    return {\n"),
                       edit(J, '        "received_at": format_ts(r.received_at),\n', '        "received_at": format_ts(received),\n')]),
    ],
)

TASKS = [T1, T2, T3, T4]
