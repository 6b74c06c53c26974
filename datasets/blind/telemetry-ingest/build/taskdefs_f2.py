"""Family alert-units: alert rules compare canonical values; exports keep the reported unit."""

from taskkit import Cand, TaskDef, edit, write

RATE = '''"""Rate-of-change alerts: fire when a metric moves faster than allowed (e.g. a freezer door left open)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from telemetry_ingest.models import Alert, Reading


@dataclass
class RateOfChangeRule:
    name: str
    metric: str
    max_per_minute: float
    devices: frozenset[str] | None = None
    _last: dict[str, tuple[datetime, float]] = field(default_factory=dict, repr=False, compare=False)

    def applies_to(self, reading: Reading) -> bool:
        return reading.metric == self.metric and (
            self.devices is None or reading.device_id in self.devices
        )

    def evaluate(self, reading: Reading) -> Alert | None:
        if not self.applies_to(reading):
            return None
        value = reading.value
        previous = self._last.get(reading.device_id)
        self._last[reading.device_id] = (reading.ts, value)
        if previous is None:
            return None
        prev_ts, prev_value = previous
        minutes = (reading.ts - prev_ts).total_seconds() / 60.0
        if minutes <= 0:
            return None
        rate = abs(value - prev_value) / minutes
        if rate <= self.max_per_minute:
            return None
        return Alert(
            rule=self.name,
            device_id=reading.device_id,
            metric=reading.metric,
            value=round(rate, 3),
            threshold=self.max_per_minute,
            ts=reading.ts,
            message=f"{reading.metric} changing {rate:.2f}/min",
        )
'''

RATE_TEST = '''from datetime import timedelta

from conftest import reading

from telemetry_ingest.alerts import AlertEngine, RateOfChangeRule


def test_fast_change_fires(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    assert rule.evaluate(reading(value=-18.0, ts=t0)) is None
    alert = rule.evaluate(reading(value=-12.0, ts=t0 + timedelta(minutes=2)))
    assert alert is not None and alert.value == 3.0


def test_slow_change_is_quiet(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    rule.evaluate(reading(value=-18.0, ts=t0))
    assert rule.evaluate(reading(value=-17.0, ts=t0 + timedelta(minutes=1))) is None


def test_devices_are_tracked_separately(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    rule.evaluate(reading(device="FZ-3", value=-18.0, ts=t0))
    assert rule.evaluate(reading(device="FZ-4", value=-5.0, ts=t0 + timedelta(minutes=1))) is None


def test_works_in_the_engine(t0):
    engine = AlertEngine([RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)])
    alerts = engine.process([reading(value=-18.0, ts=t0), reading(value=-10.0, ts=t0 + timedelta(minutes=1))])
    assert [a.rule for a in alerts] == ["freezer-rate"]
'''

RATE_HIDDEN = '''from datetime import timedelta

import pytest
from conftest import reading

from telemetry_ingest.alerts import RateOfChangeRule


def test_fahrenheit_defrost_cycle_is_quiet(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    rule.evaluate(reading(value=-0.4, unit="F", ts=t0))
    assert rule.evaluate(reading(value=1.4, unit="F", ts=t0 + timedelta(minutes=1))) is None


def test_fahrenheit_door_open_fires(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    rule.evaluate(reading(value=-0.4, unit="F", ts=t0))
    alert = rule.evaluate(reading(value=7.6, unit="F", ts=t0 + timedelta(minutes=2)))
    assert alert is not None and alert.value == pytest.approx(2.222, abs=1e-3)


def test_millibar_barometer(t0):
    rule = RateOfChangeRule("storm", "pressure", max_per_minute=0.5)

    def baro(value, minutes):
        return reading(device="HB-1", metric="pressure", value=value, unit="mbar", ts=t0 + timedelta(minutes=minutes))

    rule.evaluate(baro(1002.0, 0))
    assert rule.evaluate(baro(1000.0, 1)) is None
    alert = rule.evaluate(baro(990.0, 2))
    assert alert is not None and alert.value == pytest.approx(1.0)


def test_unit_switch_between_readings(t0):
    rule = RateOfChangeRule("freezer-rate", "temperature", max_per_minute=1.5)
    rule.evaluate(reading(value=39.2, unit="F", ts=t0))
    assert rule.evaluate(reading(value=4.5, unit="C", ts=t0 + timedelta(minutes=1))) is None
'''

R = "telemetry_ingest/alerts/rate.py"
A = "telemetry_ingest/alerts/__init__.py"

T5 = TaskDef(
    n=5, family="alert-units", position=1, created_at="2025-08-27 15:00", target="middle",
    branch="feat/rate-alerts", base_who="marco", base_when="2025-08-26 18:10",
    base_message="alerts: rate-of-change rule",
    base=[write(R, RATE), write("tests/test_rate_rule.py", RATE_TEST),
          edit(A, "from telemetry_ingest.alerts.engine import AlertEngine\n",
               "from telemetry_ingest.alerts.engine import AlertEngine\nfrom telemetry_ingest.alerts.rate import RateOfChangeRule\n"),
          edit(A, '__all__ = ["AlertEngine", "BandRule", "ThresholdRule"]',
               '__all__ = ["AlertEngine", "BandRule", "RateOfChangeRule", "ThresholdRule"]')],
    problem=(
        "Since we enabled rate-of-change alerts, the Chicago freezers (FZ-3, FZ-4; rule freezer-rate: temperature, "
        "max 1.5 per minute) page on every defrost cycle, although they warm up no faster than the Hamburg freezers, "
        "which stay quiet with the same rule. The storm rule on the Hamburg dock barometer (pressure, max 0.5 per "
        "minute) also fires on an ordinary pressure drift of 0.2 kPa per minute. Both rules are configured the way "
        "ops configures the threshold and band rules."
    ),
    tests=[write("tests/test_rate_rule_units.py", RATE_HIDDEN)],
    f2p=["tests/test_rate_rule_units.py::test_fahrenheit_defrost_cycle_is_quiet",
         "tests/test_rate_rule_units.py::test_fahrenheit_door_open_fires",
         "tests/test_rate_rule_units.py::test_millibar_barometer",
         "tests/test_rate_rule_units.py::test_unit_switch_between_readings"],
    p2p=["tests/test_rate_rule.py::test_fast_change_fires", "tests/test_rate_rule.py::test_slow_change_is_quiet",
         "tests/test_rate_rule.py::test_devices_are_tracked_separately", "tests/test_rate_rule.py::test_works_in_the_engine",
         "tests/test_band_rule.py::test_inside_band_is_quiet"],
    gold=Cand("gold", [edit(R, "from telemetry_ingest.models import Alert, Reading\n",
                            "from telemetry_ingest.models import Alert, Reading\nfrom telemetry_ingest.units import to_canonical\n"),
                       edit(R, "        value = reading.value\n", "        value, _ = to_canonical(reading.value, reading.unit)\n")]),
    decoys=[
        Cand("scale-f", [edit(R, "        rate = abs(value - prev_value) / minutes\n",
                              "        rate = abs(value - prev_value) / minutes\n"
                              "        if reading.unit in (\"F\", \"°F\", \"degF\"):\n"
                              "            rate = rate * 5 / 9\n")]),
        Cand("convert-limit", [
            edit(R, "from telemetry_ingest.models import Alert, Reading\n",
                 "from telemetry_ingest.metrics import get_metric\nfrom telemetry_ingest.models import Alert, Reading\n"
                 "from telemetry_ingest.units import convert\n"),
            edit(R, "        if rate <= self.max_per_minute:\n",
                 "        limit = convert(self.max_per_minute, get_metric(self.metric).canonical_unit, reading.unit)\n"
                 "        if rate <= limit:\n")]),
        Cand("manual", [edit(R, "        value = reading.value\n",
                             "        value = reading.value\n"
                             "        if reading.unit == \"F\":\n"
                             "            value = (value - 32.0) * 5.0 / 9.0\n"
                             "        elif reading.unit == \"hPa\":\n"
                             "            value = value / 10.0\n")]),
    ],
)

SUSTAINED = '''"""Sustained alerts: the condition must hold for a while before anyone is paged."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from telemetry_ingest.models import Alert, Reading

_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@dataclass
class SustainedRule:
    name: str
    metric: str
    op: str
    threshold: float
    duration: timedelta
    devices: frozenset[str] | None = None
    _since: dict[str, datetime] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"unknown operator {self.op!r}")

    def applies_to(self, reading: Reading) -> bool:
        return reading.metric == self.metric and (
            self.devices is None or reading.device_id in self.devices
        )

    def evaluate(self, reading: Reading) -> Alert | None:
        if not self.applies_to(reading):
            return None
        if not _OPS[self.op](reading.value, self.threshold):
            self._since.pop(reading.device_id, None)
            return None
        since = self._since.setdefault(reading.device_id, reading.ts)
        if reading.ts - since < self.duration:
            return None
        return Alert(
            rule=self.name,
            device_id=reading.device_id,
            metric=reading.metric,
            value=reading.value,
            threshold=self.threshold,
            ts=reading.ts,
            message=f"{reading.metric} {self.op} {self.threshold:g} for {self.duration}",
        )
'''

SUSTAINED_TEST = '''from datetime import timedelta

from conftest import reading

from telemetry_ingest.alerts import SustainedRule


def pressure(value, minutes, t0):
    return reading(device="HB-1", metric="pressure", value=value, unit="kPa", ts=t0 + timedelta(minutes=minutes))


def test_fires_after_duration(t0):
    rule = SustainedRule("storm", "pressure", "<", 98.0, duration=timedelta(minutes=30))
    assert rule.evaluate(pressure(97.5, 0, t0)) is None
    assert rule.evaluate(pressure(97.4, 20, t0)) is None
    alert = rule.evaluate(pressure(97.2, 30, t0))
    assert alert is not None and alert.rule == "storm" and alert.value == 97.2


def test_recovery_resets(t0):
    rule = SustainedRule("storm", "pressure", "<", 98.0, duration=timedelta(minutes=30))
    rule.evaluate(pressure(97.5, 0, t0))
    rule.evaluate(pressure(98.5, 20, t0))
    assert rule.evaluate(pressure(97.0, 30, t0)) is None
'''

SUSTAINED_HIDDEN = '''from datetime import timedelta

import pytest
from conftest import reading

from telemetry_ingest.alerts import SustainedRule


def baro(value, unit, minutes, t0):
    return reading(device="HB-1", metric="pressure", value=value, unit=unit, ts=t0 + timedelta(minutes=minutes))


def test_hectopascal_barometer_fires(t0):
    rule = SustainedRule("storm", "pressure", "<", 98.0, duration=timedelta(minutes=30))
    assert rule.evaluate(baro(975.0, "hPa", 0, t0)) is None
    alert = rule.evaluate(baro(972.0, "hPa", 30, t0))
    assert alert is not None
    assert alert.value == pytest.approx(97.2)
    assert alert.threshold == 98.0


def test_hectopascal_above_the_limit_is_quiet(t0):
    rule = SustainedRule("storm", "pressure", "<", 98.0, duration=timedelta(minutes=30))
    rule.evaluate(baro(1012.0, "hPa", 0, t0))
    assert rule.evaluate(baro(1011.0, "hPa", 30, t0)) is None


def test_fahrenheit_freezer(t0):
    rule = SustainedRule("freezer-warm", "temperature", ">", -10.0, duration=timedelta(minutes=15))
    rule.evaluate(reading(value=-4.0, unit="F", ts=t0))
    assert rule.evaluate(reading(value=-3.0, unit="F", ts=t0 + timedelta(minutes=20))) is None
    rule.evaluate(reading(value=20.0, unit="F", ts=t0 + timedelta(minutes=30)))
    alert = rule.evaluate(reading(value=21.2, unit="F", ts=t0 + timedelta(minutes=45)))
    assert alert is not None and alert.value == pytest.approx(-6.0)
'''

SU = "telemetry_ingest/alerts/sustained.py"

T6 = TaskDef(
    n=6, family="alert-units", position=2, created_at="2025-08-29 16:00", target="largest",
    branch="feat/sustained-alerts", base_who="lena", base_when="2025-08-28 10:20",
    base_message="alerts: sustained rule (condition must hold for a duration)",
    base=[write(SU, SUSTAINED), write("tests/test_sustained_rule.py", SUSTAINED_TEST),
          edit(A, "from telemetry_ingest.alerts.rules import BandRule, ThresholdRule\n",
               "from telemetry_ingest.alerts.rules import BandRule, ThresholdRule\nfrom telemetry_ingest.alerts.sustained import SustainedRule\n"),
          edit(A, '__all__ = ["AlertEngine", "BandRule", "ThresholdRule"]',
               '__all__ = ["AlertEngine", "BandRule", "SustainedRule", "ThresholdRule"]')],
    problem=(
        "The storm warning (sustained rule: pressure below 98 for 30 minutes) never fired for the Vaisala barometers "
        "installed last week on the Hamburg dock, although the pressure there was far below the limit all of yesterday "
        "afternoon; the older barometers on the same dock fired it as expected. Separately, the sustained freezer-warm "
        "rule (temperature above -10 for 15 minutes) pages for the Chicago freezers while they sit at their normal "
        "-20 °C."
    ),
    tests=[write("tests/test_sustained_units.py", SUSTAINED_HIDDEN)],
    f2p=["tests/test_sustained_units.py::test_hectopascal_barometer_fires",
         "tests/test_sustained_units.py::test_fahrenheit_freezer"],
    p2p=["tests/test_sustained_units.py::test_hectopascal_above_the_limit_is_quiet",
         "tests/test_sustained_rule.py::test_fires_after_duration", "tests/test_sustained_rule.py::test_recovery_resets",
         "tests/test_parsing.py::test_parse_payload_units_and_defaults", "tests/test_alerts.py::test_threshold_rule_fires"],
    gold=Cand("gold", [
        edit(SU, "from telemetry_ingest.models import Alert, Reading\n",
             "from telemetry_ingest.models import Alert, Reading\nfrom telemetry_ingest.units import to_canonical\n"),
        edit(SU, "        if not _OPS[self.op](reading.value, self.threshold):\n",
             "        value, _ = to_canonical(reading.value, reading.unit)\n        if not _OPS[self.op](value, self.threshold):\n"),
        edit(SU, "            value=reading.value,\n", "            value=value,\n")]),
    decoys=[
        Cand("convert-threshold", [
            edit(SU, "from telemetry_ingest.models import Alert, Reading\n",
                 "from telemetry_ingest.metrics import get_metric\nfrom telemetry_ingest.models import Alert, Reading\n"
                 "from telemetry_ingest.units import convert\n"),
            edit(SU, "        if not _OPS[self.op](reading.value, self.threshold):\n",
                 "        limit = convert(self.threshold, get_metric(self.metric).canonical_unit, reading.unit)\n"
                 "        if not _OPS[self.op](reading.value, limit):\n")]),
        Cand("hpa-only", [
            edit(SU, "        if not _OPS[self.op](reading.value, self.threshold):\n",
                 "        value = reading.value / 10.0 if reading.unit == \"hPa\" else reading.value\n"
                 "        if not _OPS[self.op](value, self.threshold):\n"),
            edit(SU, "            value=reading.value,\n", "            value=value,\n")]),
        Cand("parse-canonical", [
            edit("telemetry_ingest/parsing/json_payload.py", "from telemetry_ingest.timeutil import parse_ts\n",
                 "from telemetry_ingest.timeutil import parse_ts\nfrom telemetry_ingest.units import to_canonical\n"),
            edit("telemetry_ingest/parsing/json_payload.py",
                 "        if not isinstance(value, (int, float)) or isinstance(value, bool):\n"
                 "            raise ParseError(f\"{name}: value must be a number\")\n",
                 "        if not isinstance(value, (int, float)) or isinstance(value, bool):\n"
                 "            raise ParseError(f\"{name}: value must be a number\")\n"
                 "        value, unit = to_canonical(value, unit)\n")]),
    ],
)

ROLLUP = '''"""Hourly rollup per device and metric, for the customer portal's chart downloads."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable

from telemetry_ingest.exports.common import format_value
from telemetry_ingest.models import Reading
from telemetry_ingest.timeutil import floor_to, format_ts
from telemetry_ingest.units import to_canonical

COLUMNS = ["hour", "device_id", "metric", "unit", "count", "mean"]


def hourly_rollup(readings: Iterable[Reading]) -> list[tuple]:
    groups: dict[tuple, list[float]] = defaultdict(list)
    for r in readings:
        value, _ = to_canonical(r.value, r.unit)
        groups[(floor_to(r.ts, 3600), r.device_id, r.metric, r.unit)].append(value)
    return [(*key, len(values), sum(values) / len(values)) for key, values in sorted(groups.items())]


def export_rollup_csv(readings: Iterable[Reading]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(COLUMNS)
    for hour, device, metric, unit, count, mean in hourly_rollup(readings):
        writer.writerow([format_ts(hour, millis=True), device, metric, unit, count, format_value(mean)])
    return out.getvalue()
'''

ROLLUP_TEST = '''from datetime import timedelta

from conftest import reading

from telemetry_ingest.exports.rollup import export_rollup_csv


def test_hourly_means(t0):
    rows = [
        reading(value=-18.0),
        reading(value=-20.0, ts=t0 + timedelta(minutes=30)),
        reading(value=-17.0, ts=t0 + timedelta(hours=1)),
    ]
    assert export_rollup_csv(rows).splitlines() == [
        "hour,device_id,metric,unit,count,mean",
        "2025-08-04T10:00:00.000Z,FZ-3,temperature,C,2,-19",
        "2025-08-04T11:00:00.000Z,FZ-3,temperature,C,1,-17",
    ]
'''

ROLLUP_HIDDEN = '''from datetime import timedelta

from conftest import reading

from telemetry_ingest.exports.csv_export import export_readings_csv
from telemetry_ingest.exports.rollup import export_rollup_csv


def test_fahrenheit_device_matches_readings_export(t0):
    rows = [reading(value=38.2, unit="F"), reading(value=38.6, unit="F", ts=t0 + timedelta(minutes=10))]
    assert export_rollup_csv(rows).splitlines()[1] == "2025-08-04T10:00:00.000Z,FZ-3,temperature,F,2,38.4"
    assert ",38.2,F," in export_readings_csv(rows)


def test_psi_gauge(t0):
    rows = [reading(device="HB-1", metric="pressure", value=14.7, unit="psi")]
    assert export_rollup_csv(rows).splitlines()[1] == "2025-08-04T10:00:00.000Z,HB-1,pressure,psi,1,14.7"
'''

RO = "telemetry_ingest/exports/rollup.py"

T7 = TaskDef(
    n=7, family="alert-units", position=3, created_at="2025-09-01 10:15", target="smallest",
    branch="feat/hourly-rollup", base_who="marco", base_when="2025-08-29 17:30",
    base_message="exports: hourly rollup download",
    base=[write(RO, ROLLUP), write("tests/test_rollup.py", ROLLUP_TEST)],
    problem=(
        "Customers reconcile the new hourly rollup download against readings.csv. For our Chicago freezers (FZ-3, "
        "FZ-4) every hour is flagged: the rollup says e.g. mean 3.56 with unit F for an hour in which readings.csv has "
        "38.2 F and 38.6 F. The Hamburg psi gauges are flagged the same way (rollup 101.35 psi, readings 14.7 psi). "
        "Devices reporting °C look fine."
    ),
    tests=[write("tests/test_rollup_units.py", ROLLUP_HIDDEN)],
    f2p=["tests/test_rollup_units.py::test_fahrenheit_device_matches_readings_export",
         "tests/test_rollup_units.py::test_psi_gauge"],
    p2p=["tests/test_rollup.py::test_hourly_means", "tests/test_exports.py::test_csv_export",
         "tests/test_summary.py::test_values_stay_in_the_reported_unit"],
    gold=Cand("gold", [edit(RO, "from telemetry_ingest.units import to_canonical\n", ""),
                       edit(RO, "        value, _ = to_canonical(r.value, r.unit)\n", "        value = r.value\n")]),
    decoys=[
        Cand("relabel", [edit(RO, "        value, _ = to_canonical(r.value, r.unit)\n"
                                  "        groups[(floor_to(r.ts, 3600), r.device_id, r.metric, r.unit)].append(value)\n",
                              "        value, unit = to_canonical(r.value, r.unit)\n"
                              "        groups[(floor_to(r.ts, 3600), r.device_id, r.metric, unit)].append(value)\n")]),
        Cand("extra-column", [
            edit(RO, 'COLUMNS = ["hour", "device_id", "metric", "unit", "count", "mean"]',
                 'COLUMNS = ["hour", "device_id", "metric", "unit", "count", "mean", "reported_unit"]'),
            edit(RO, "        value, _ = to_canonical(r.value, r.unit)\n"
                     "        groups[(floor_to(r.ts, 3600), r.device_id, r.metric, r.unit)].append(value)\n",
                 "        value, unit = to_canonical(r.value, r.unit)\n"
                 "        groups[(floor_to(r.ts, 3600), r.device_id, r.metric, unit, r.unit)].append(value)\n"),
            edit(RO, "    for hour, device, metric, unit, count, mean in hourly_rollup(readings):\n"
                     "        writer.writerow([format_ts(hour, millis=True), device, metric, unit, count, format_value(mean)])\n",
                 "    for hour, device, metric, unit, reported, count, mean in hourly_rollup(readings):\n"
                 "        writer.writerow([format_ts(hour, millis=True), device, metric, unit, count, format_value(mean), reported])\n")]),
        Cand("readings-canonical", [
            edit("telemetry_ingest/exports/csv_export.py", "from telemetry_ingest.timeutil import format_ts\n",
                 "from telemetry_ingest.timeutil import format_ts\nfrom telemetry_ingest.units import to_canonical\n"),
            edit("telemetry_ingest/exports/csv_export.py", "    for r in sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric)):\n",
                 "    for r in sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric)):\n"
                 "        value, unit = to_canonical(r.value, r.unit)\n"),
            edit("telemetry_ingest/exports/csv_export.py", "                format_value(r.value),\n                r.unit,\n",
                 "                format_value(value),\n                unit,\n")]),
    ],
)

J = "telemetry_ingest/exports/jsonl_export.py"

T8 = TaskDef(
    n=8, family="alert-units", position=4, created_at="2025-09-03 11:45", target="middle",
    branch="feat/jsonl-normalised", base_who="marco", base_when="2025-09-02 16:00",
    base_message="jsonl export: normalise values for the warehouse",
    base=[edit(J, "from telemetry_ingest.timeutil import format_ts\n",
               "from telemetry_ingest.timeutil import format_ts\nfrom telemetry_ingest.units import to_canonical\n"),
          edit(J, "def reading_record(r: Reading) -> dict:\n    return {\n",
               "def reading_record(r: Reading) -> dict:\n    value, unit = to_canonical(r.value, r.unit)\n    return {\n"),
          edit(J, '        "value": r.value,\n        "unit": r.unit,\n', '        "value": value,\n        "unit": unit,\n')],
    problem=(
        "Since Tuesday's deploy the JSONL feed reports our Chicago freezers as 3.4 instead of 38.2 and our battery "
        "levels as 3.31 instead of 3310, while the portal's CSV download still shows the values we're used to. Our "
        "integration reads the JSONL feed and compares it against thresholds configured for our devices, so it now "
        "alarms all the time. Please make the feed consistent again."
    ),
    tests=[write("tests/test_jsonl_units.py", '''import json

from conftest import reading

from telemetry_ingest.exports.jsonl_export import export_readings_jsonl


def test_fahrenheit_reading_is_exported_as_reported(t0):
    [line] = export_readings_jsonl([reading(value=38.2, unit="F")]).splitlines()
    record = json.loads(line)
    assert (record["value"], record["unit"]) == (38.2, "F")


def test_millivolt_battery(t0):
    [line] = export_readings_jsonl([reading(device="HB-1", metric="battery", value=3310, unit="mV")]).splitlines()
    assert (json.loads(line)["value"], json.loads(line)["unit"]) == (3310, "mV")
''')],
    f2p=["tests/test_jsonl_units.py::test_fahrenheit_reading_is_exported_as_reported",
         "tests/test_jsonl_units.py::test_millivolt_battery"],
    p2p=["tests/test_exports.py::test_jsonl_export", "tests/test_exports.py::test_csv_export",
         "tests/test_cli.py::test_ingest_and_export"],
    gold=Cand("gold", [edit(J, "from telemetry_ingest.units import to_canonical\n", ""),
                       edit(J, "    value, unit = to_canonical(r.value, r.unit)\n", ""),
                       edit(J, '        "value": value,\n        "unit": unit,\n', '        "value": r.value,\n        "unit": r.unit,\n')]),
    decoys=[
        Cand("add-reported", [edit(J, '        "unit": unit,\n',
                                   '        "unit": unit,\n        "reported_value": r.value,\n        "reported_unit": r.unit,\n')]),
        Cand("flag", [
            edit(J, "def reading_record(r: Reading) -> dict:\n    value, unit = to_canonical(r.value, r.unit)\n",
                 "def reading_record(r: Reading, normalise: bool = True) -> dict:\n"
                 "    value, unit = to_canonical(r.value, r.unit) if normalise else (r.value, r.unit)\n"),
            edit(J, "def export_readings_jsonl(readings: Iterable[Reading]) -> str:\n",
                 "def export_readings_jsonl(readings: Iterable[Reading], normalise: bool = True) -> str:\n"),
            edit(J, '    return "".join(json.dumps(reading_record(r), sort_keys=True) + "\\n" for r in rows)\n',
                 '    return "".join(json.dumps(reading_record(r, normalise), sort_keys=True) + "\\n" for r in rows)\n'),
            edit("telemetry_ingest/cli.py", "EXPORTERS = {\"csv\": export_readings_csv, \"jsonl\": export_readings_jsonl}\n",
                 "EXPORTERS = {\"csv\": export_readings_csv, \"jsonl\": export_readings_jsonl}\n"
                 "# the portal's CSV shows reported units; the warehouse JSONL feed is normalised\n")]),
        Cand("csv-canonical", [
            edit("telemetry_ingest/exports/csv_export.py", "from telemetry_ingest.timeutil import format_ts\n",
                 "from telemetry_ingest.timeutil import format_ts\nfrom telemetry_ingest.units import to_canonical\n"),
            edit("telemetry_ingest/exports/csv_export.py", "    for r in sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric)):\n",
                 "    for r in sorted(readings, key=lambda r: (r.ts, r.device_id, r.metric)):\n"
                 "        value, unit = to_canonical(r.value, r.unit)\n"),
            edit("telemetry_ingest/exports/csv_export.py", "                format_value(r.value),\n                r.unit,\n",
                 "                format_value(value),\n                unit,\n")]),
    ],
)

TASKS = [T5, T6, T7, T8]
