"""The twelve evaluation tasks: side branches, problem statements, tests, gold and decoys.

An edit is ("replace", path, old, new), ("write", path, content) or ("run", command).
"""

PRIYA = ("Priya Raman", "priya.raman@acme-farm.example")
JONAS = ("Jonas Vermeer", "jonas.vermeer@acme-farm.example")

# ------------------------------------------------------------------ side branches (naive features)
BRANCHES = {
    "feature/manual-watering": {
        "date": "2026-03-11T08:40:00+01:00",
        "author": JONAS,
        "message": "Manual 'water now' from the greenhouse panel",
        "edits": [
            ("write", "irrigation/valves/manual.py", '''from irrigation.valves.commands import ValveCommand


def water_now(zone, minutes):
    """Manual watering requested from the greenhouse panel."""
    seconds = int(round(minutes * 60))
    if seconds <= 0:
        return []
    return [ValveCommand(zone.valve, seconds)]
'''),
            ("write", "tests/test_manual.py", '''from irrigation.valves.commands import ValveCommand
from irrigation.valves.manual import water_now


def test_water_now(zones):
    assert water_now(zones.get(2), 5) == [ValveCommand(2, 300)]


def test_water_now_zero(zones):
    assert water_now(zones.get(2), 0) == []
'''),
        ],
    },
    "feature/catch-up": {
        "date": "2026-03-13T08:15:00+01:00",
        "author": JONAS,
        "message": "Catch-up watering after outages",
        "edits": [
            ("write", "irrigation/schedule/catchup.py", '''from irrigation.valves.commands import ValveCommand


def catch_up(zones, missed):
    """Replay watering missed during an outage; missed maps zone id -> seconds."""
    commands = []
    for zone in zones:
        seconds = int(missed.get(zone.id, 0))
        if seconds > 0:
            commands.append(ValveCommand(zone.valve, seconds))
    return commands
'''),
            ("write", "tests/test_catchup.py", '''from irrigation.schedule.catchup import catch_up
from irrigation.valves.commands import ValveCommand


def test_catch_up(zones):
    assert catch_up(zones, {2: 300, 5: 120}) == [ValveCommand(2, 300), ValveCommand(5, 120)]


def test_catch_up_nothing_missed(zones):
    assert catch_up(zones, {}) == []
'''),
        ],
    },
    "feature/command-audit": {
        "date": "2026-03-17T09:05:00+01:00",
        "author": PRIYA,
        "message": "Pre-send audit of valve command batches",
        "edits": [
            ("write", "irrigation/reports/audit.py", '''from irrigation.valves.commands import decode

RUN_LIMIT_S = 600


def audit(frames):
    """Problems in a batch of frames about to be sent to the valve controllers."""
    problems = []
    for frame in frames:
        name, address, values = decode(frame)
        if name == "OPEN" and values[0] > RUN_LIMIT_S:
            problems.append(f"valve {address}: OPEN {values[0]} s exceeds {RUN_LIMIT_S} s")
    return problems
'''),
            ("write", "tests/test_audit.py", '''from irrigation.reports.audit import audit
from irrigation.valves.commands import ValveCommand, close


def test_short_runs_pass():
    assert audit([ValveCommand(2, 300).encode(), close(2)]) == []


def test_very_long_run_flagged():
    assert len(audit([ValveCommand(3, 2000).encode()])) == 1
'''),
        ],
    },
    "feature/moisture-report": {
        "date": "2026-03-12T08:50:00+01:00",
        "author": JONAS,
        "message": "Moisture summary for the dashboard",
        "edits": [
            ("write", "irrigation/reports/moisture.py", '''from irrigation.sensors.readings import for_zone, latest_by_probe


def zone_moisture(zone, readings):
    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
        return None
    values = [r.vwc for r in latest.values()]
    return sum(values) / len(values)


def render_moisture(zones, readings):
    lines = [f"{'zone':<14}{'vwc':>6}{'target':>8}"]
    for zone in zones:
        vwc = zone_moisture(zone, readings)
        shown = "n/a" if vwc is None else f"{vwc:.2f}"
        lines.append(f"{zone.name:<14}{shown:>6}{zone.target_vwc:>8.2f}")
    return "\\n".join(lines) + "\\n"
'''),
            ("write", "tests/test_moisture_report.py", '''from irrigation.reports.moisture import render_moisture, zone_moisture
from irrigation.sensors.readings import parse_dump

DUMP = """
{"probe": "P-03", "ts": "2026-03-11T05:00:00Z", "vwc": 0.30, "st": "OK"}
"""


def test_single_probe_zone(zones):
    assert zone_moisture(zones.get(2), parse_dump(DUMP)) == 0.30


def test_render(zones):
    lines = render_moisture(zones, parse_dump(DUMP)).splitlines()
    assert lines[2] == "tomato-west     0.30    0.32"
    assert lines[1] == "tomato-east      n/a    0.32"
'''),
        ],
    },
    "feature/zone-dry-alert": {
        "date": "2026-03-18T07:55:00+01:00",
        "author": PRIYA,
        "message": "Per-zone dry alert",
        "edits": [
            ("replace", "irrigation/alerts/rules.py", "from dataclasses import dataclass\n",
             "from dataclasses import dataclass\n\nfrom irrigation.sensors.readings import for_zone, latest_by_probe\n"),
            ("replace", "irrigation/alerts/rules.py", "\n\ndef budget_alerts(zones, ledger, day):\n", '''

def zone_dry_alerts(zones, readings, margin=DRY_MARGIN):
    """One alert per zone whose current moisture is below target - margin."""
    alerts = []
    for zone in zones:
        latest = latest_by_probe(for_zone(readings, zone))
        if not latest:
            continue
        vwc = sum(r.vwc for r in latest.values()) / len(latest)
        if vwc < zone.target_vwc - margin:
            alerts.append(
                Alert("ZONE_DRY", zone.id, "warning", f"{zone.name}: {vwc:.2f} (target {zone.target_vwc:.2f})")
            )
    return alerts


def budget_alerts(zones, ledger, day):
'''),
            ("write", "tests/test_zone_dry_alert.py", '''from irrigation.alerts.rules import zone_dry_alerts
from irrigation.sensors.readings import parse_dump


def test_dry_single_probe_zone(zones):
    readings = parse_dump('{"probe": "P-03", "ts": "2026-03-17T05:00:00Z", "vwc": 0.20, "st": "OK"}')
    assert [(a.kind, a.zone_id) for a in zone_dry_alerts(zones, readings)] == [("ZONE_DRY", 2)]


def test_wet_zone_quiet(zones):
    readings = parse_dump('{"probe": "P-03", "ts": "2026-03-17T05:00:00Z", "vwc": 0.31, "st": "OK"}')
    assert zone_dry_alerts(zones, readings) == []
'''),
        ],
    },
}

# ------------------------------------------------------------------ tasks
TASKS = []


def task(**kw):
    TASKS.append(kw)


# ============ family valve-run-limit (rule_change: 600 s -> 900 s per OPEN)
task(
    n=1, family="valve-run-limit", position=1, base="feature/manual-watering",
    created_at="2026-03-11T09:20:00+01:00",
    problem_statement="""Manual watering from the panel does nothing for long durations

"Water now" from the greenhouse panel works for 5 or 10 minutes. When the crew asks for 25 minutes on pepper (zone 4) the valve never opens, although the panel reports the request as sent. Same with 40 minutes on tomato-east. Short requests keep working.""",
    test_patch=[("write", "tests/test_manual_long.py", '''from irrigation.valves.commands import ValveCommand
from irrigation.valves.manual import water_now


def test_long_manual_watering_is_split(zones):
    assert water_now(zones.get(4), 25) == [ValveCommand(4, 900), ValveCommand(4, 600)]


def test_forty_minutes(zones):
    assert [c.seconds for c in water_now(zones.get(1), 40)] == [900, 900, 600]


def test_fifteen_minutes_is_one_run(zones):
    assert water_now(zones.get(4), 15) == [ValveCommand(4, 900)]


def test_short_manual_watering_unchanged(zones):
    assert water_now(zones.get(4), 10) == [ValveCommand(4, 600)]
''')],
    gold=[
        ("replace", "irrigation/valves/manual.py", "from irrigation.valves.commands import ValveCommand\n",
         "from irrigation.schedule.planner import split_run\nfrom irrigation.valves.commands import ValveCommand\n"),
        ("replace", "irrigation/valves/manual.py", "    return [ValveCommand(zone.valve, seconds)]\n",
         "    return [ValveCommand(zone.valve, run) for run in split_run(seconds)]\n"),
    ],
    decoys=[
        [
            ("replace", "irrigation/valves/manual.py", "from irrigation.valves.commands import ValveCommand\n",
             "from irrigation.valves.commands import ValveCommand\n\nMAX_OPEN_S = 600\n"),
            ("replace", "irrigation/valves/manual.py", "    return [ValveCommand(zone.valve, seconds)]\n", '''    commands = []
    while seconds > 0:
        run = min(seconds, MAX_OPEN_S)
        commands.append(ValveCommand(zone.valve, run))
        seconds -= run
    return commands
'''),
        ],
        [
            ("replace", "irrigation/valves/manual.py", "from irrigation.valves.commands import ValveCommand\n",
             "import math\n\nfrom irrigation.valves.commands import ValveCommand\n\nMAX_OPEN_S = 600\n"),
            ("replace", "irrigation/valves/manual.py", "    return [ValveCommand(zone.valve, seconds)]\n", '''    parts = math.ceil(seconds / MAX_OPEN_S)
    base, extra = divmod(seconds, parts)
    return [ValveCommand(zone.valve, base + (1 if i < extra else 0)) for i in range(parts)]
'''),
        ],
        [
            ("replace", "irrigation/valves/manual.py", "from irrigation.valves.commands import ValveCommand\n",
             "from irrigation.schedule.planner import MAX_RUN_S\nfrom irrigation.valves.commands import ValveCommand\n"),
            ("replace", "irrigation/valves/manual.py", "    return [ValveCommand(zone.valve, seconds)]\n",
             "    clamped = min(seconds, MAX_RUN_S)\n    return [ValveCommand(zone.valve, clamped)]\n"),
        ],
    ],
)

task(
    n=2, family="valve-run-limit", position=2, base="feature/catch-up",
    created_at="2026-03-13T10:05:00+01:00",
    problem_statement="""Catch-up after the power cut skipped the zones that needed it most

After yesterday's outage the catch-up watering was sent for every zone that missed its morning run. herbs and seedlings got their water, but tomato-east (36 minutes missed) and pepper (27 minutes missed) were never watered.""",
    test_patch=[("write", "tests/test_catchup_long.py", '''from irrigation.schedule.catchup import catch_up
from irrigation.valves.commands import ValveCommand


def test_long_catch_up_is_split(zones):
    commands = catch_up(zones, {1: 2160, 4: 1620, 5: 300})
    assert commands == [
        ValveCommand(1, 900),
        ValveCommand(1, 900),
        ValveCommand(1, 360),
        ValveCommand(4, 900),
        ValveCommand(4, 720),
        ValveCommand(5, 300),
    ]


def test_catch_up_exactly_at_limit(zones):
    assert catch_up(zones, {3: 900}) == [ValveCommand(3, 900)]
''')],
    gold=[
        ("replace", "irrigation/schedule/catchup.py", "from irrigation.valves.commands import ValveCommand\n",
         "from irrigation.schedule.planner import split_run\nfrom irrigation.valves.commands import ValveCommand\n"),
        ("replace", "irrigation/schedule/catchup.py", '''def catch_up(zones, missed):
    """Replay watering missed during an outage; missed maps zone id -> seconds."""
    commands = []
    for zone in zones:
        seconds = int(missed.get(zone.id, 0))
        if seconds > 0:
            commands.append(ValveCommand(zone.valve, seconds))
    return commands
''', '''def _runs(zone, seconds):
    seconds = int(seconds)
    if seconds <= 0:
        return []
    return [ValveCommand(zone.valve, run) for run in split_run(seconds)]


def catch_up(zones, missed):
    """Replay watering missed during an outage; missed maps zone id -> seconds."""
    commands = []
    for zone in zones:
        commands.extend(_runs(zone, missed.get(zone.id, 0)))
    return commands
'''),
    ],
    decoys=[
        [
            ("replace", "irrigation/schedule/catchup.py", "from irrigation.valves.commands import ValveCommand\n",
             "from irrigation.valves.commands import ValveCommand\n\nMAX_OPEN_S = 600\n"),
            ("replace", "irrigation/schedule/catchup.py", "            commands.append(ValveCommand(zone.valve, seconds))\n", '''            while seconds > 0:
                run = min(seconds, MAX_OPEN_S)
                commands.append(ValveCommand(zone.valve, run))
                seconds -= run
'''),
        ],
        [
            ("replace", "irrigation/schedule/catchup.py", "from irrigation.valves.commands import ValveCommand\n",
             "from irrigation.schedule.planner import MAX_RUN_S\nfrom irrigation.valves.commands import ValveCommand\n"),
            ("replace", "irrigation/schedule/catchup.py", "            commands.append(ValveCommand(zone.valve, seconds))\n",
             "            commands.append(ValveCommand(zone.valve, min(seconds, MAX_RUN_S)))\n"),
        ],
        [
            ("replace", "irrigation/schedule/catchup.py", "    for zone in zones:\n",
             "    for zone in sorted(zones, key=lambda z: missed.get(z.id, 0), reverse=True):\n"),
        ],
    ],
)

task(
    n=3, family="valve-run-limit", position=3, base="feature/command-audit",
    created_at="2026-03-17T14:30:00+01:00",
    problem_statement="""Command audit flags ordinary planner runs

The pre-send audit lists an "exceeds" problem for nearly every morning batch: the 12- and 14-minute runs the planner sends to pepper and tomato-east are flagged, so ops have started to ignore the report. It should flag only what the valve controllers will actually reject.""",
    test_patch=[("write", "tests/test_audit_limit.py", '''from irrigation.reports.audit import audit
from irrigation.valves.commands import ValveCommand


def test_planner_runs_not_flagged():
    frames = [ValveCommand(4, 720).encode(), ValveCommand(1, 840).encode(), ValveCommand(1, 900).encode()]
    assert audit(frames) == []


def test_over_limit_flagged():
    problems = audit([ValveCommand(4, 901).encode(), ValveCommand(4, 1000).encode()])
    assert problems == ["valve 4: OPEN 901 s exceeds 900 s", "valve 4: OPEN 1000 s exceeds 900 s"]
''')],
    gold=[
        ("replace", "irrigation/reports/audit.py", "from irrigation.valves.commands import decode\n\nRUN_LIMIT_S = 600\n",
         "from irrigation.schedule.planner import MAX_RUN_S\nfrom irrigation.valves.commands import decode\n\nRUN_LIMIT_S = MAX_RUN_S\n"),
    ],
    decoys=[
        [("replace", "irrigation/reports/audit.py", "RUN_LIMIT_S = 600\n", "RUN_LIMIT_S = 1200\n")],
        [
            ("replace", "irrigation/reports/audit.py", "RUN_LIMIT_S = 600\n", "RUN_LIMIT_MIN = 15\n"),
            ("replace", "irrigation/reports/audit.py", '''        if name == "OPEN" and values[0] > RUN_LIMIT_S:
            problems.append(f"valve {address}: OPEN {values[0]} s exceeds {RUN_LIMIT_S} s")
''', '''        if name == "OPEN" and values[0] // 60 > RUN_LIMIT_MIN:
            problems.append(f"valve {address}: OPEN {values[0]} s exceeds {RUN_LIMIT_MIN * 60} s")
'''),
        ],
        [
            ("replace", "irrigation/reports/audit.py", "from irrigation.valves.commands import decode\n\nRUN_LIMIT_S = 600\n", '''import os

from irrigation.valves.commands import decode

RUN_LIMIT_S = int(os.environ.get("IRRIGATION_RUN_LIMIT_S", "1200"))
if RUN_LIMIT_S <= 0:
    raise ValueError("IRRIGATION_RUN_LIMIT_S must be positive")
'''),
        ],
    ],
)

# ============ family ledger-deciliters (module_only: irrigation/budget/)
task(
    n=4, family="ledger-deciliters", position=1, base="main",
    created_at="2026-03-11T15:00:00+01:00",
    problem_statement="""Usage over a date range for the weekly budget page

The weekly budget page needs to know how much water a zone used over several days. Please add `Ledger.used_between(zone_id, start, end)` returning the liters the zone used from `start` to `end`, both days included.""",
    test_patch=[("write", "tests/test_ledger_range.py", '''from datetime import date

from irrigation.budget.ledger import Ledger


def _ledger():
    ledger = Ledger()
    ledger.record(1, date(2026, 3, 9), 120.5)
    ledger.record(1, date(2026, 3, 11), 80)
    ledger.record(1, date(2026, 3, 15), 40)
    ledger.record(1, date(2026, 3, 16), 999)
    ledger.record(2, date(2026, 3, 10), 50)
    return ledger


def test_used_between():
    assert _ledger().used_between(1, date(2026, 3, 9), date(2026, 3, 15)) == 240.5


def test_used_between_single_day():
    ledger = _ledger()
    assert ledger.used_between(1, date(2026, 3, 11), date(2026, 3, 11)) == ledger.used_liters(1, date(2026, 3, 11))


def test_used_between_nothing_used():
    assert _ledger().used_between(3, date(2026, 3, 9), date(2026, 3, 15)) == 0.0
''')],
    gold=[
        ("replace", "irrigation/budget/ledger.py", "\n    def zones(self):\n", '''
    def used_between(self, zone_id, start, end):
        if end < start:
            raise ValueError("end before start")
        return self.total(zone_id, start, end) / RESOLUTION

    def zones(self):
'''),
    ],
    decoys=[
        [("replace", "irrigation/budget/ledger.py", "\n    def zones(self):\n", '''
    def used_between(self, zone_id, start, end):
        return float(self.total(zone_id, start, end))

    def zones(self):
''')],
        [("replace", "irrigation/budget/ledger.py", "\n    def zones(self):\n", '''
    def used_between(self, zone_id, start, end):
        if end < start:
            raise ValueError("end before start")
        used = 0
        for zid, day, amount in self._rows:
            if zid == zone_id and start <= day <= end:
                used += amount
        return float(used)

    def zones(self):
''')],
        [
            ("replace", "irrigation/budget/ledger.py", "from datetime import date\n", "from datetime import date, timedelta\n"),
            ("replace", "irrigation/budget/ledger.py", "\n    def zones(self):\n", '''
    def used_between(self, zone_id, start, end):
        used = 0.0
        day = start
        while day < end:
            used += self.used_liters(zone_id, day)
            day += timedelta(days=1)
        return used

    def zones(self):
'''),
        ],
    ],
)

task(
    n=5, family="ledger-deciliters", position=2, base="main",
    created_at="2026-03-16T09:40:00+01:00",
    problem_statement="""Bulk insert for the flow-meter import

The flow-meter import calls `Ledger.record()` once per meter reading, which is slow for a month of data. Please add `Ledger.record_many(entries)` taking an iterable of `(zone_id, day, liters)` tuples, with the same checks as `record()`. If any entry is invalid, nothing of the batch may be recorded.""",
    test_patch=[("write", "tests/test_ledger_bulk.py", '''from datetime import date

import pytest

from irrigation.budget.ledger import Ledger

D = date(2026, 3, 14)
ENTRIES = [(1, D, 120.0), (1, D, 30.5), (2, D, 12.3), (4, date(2026, 3, 15), 640.0)]


def test_record_many():
    ledger = Ledger()
    ledger.record_many(ENTRIES)
    assert ledger.used_liters(1, D) == 150.5
    assert ledger.used_liters(2, D) == 12.3
    assert ledger.used_liters(4, date(2026, 3, 15)) == 640.0


def test_record_many_matches_record():
    one, many = Ledger(), Ledger()
    for entry in ENTRIES:
        one.record(*entry)
    many.record_many(iter(ENTRIES))
    assert many.rows() == one.rows()


def test_record_many_all_or_nothing():
    ledger = Ledger()
    with pytest.raises(ValueError):
        ledger.record_many([(1, D, 10.0), (1, D, -5.0)])
    assert ledger.rows() == []
''')],
    gold=[
        ("replace", "irrigation/budget/ledger.py", "\n    def rows(self, zone_id=None):\n", '''
    def record_many(self, entries):
        staged = Ledger()
        for zone_id, day, liters in entries:
            staged.record(zone_id, day, liters)
        self._rows.extend(staged._rows)

    def rows(self, zone_id=None):
'''),
    ],
    decoys=[
        [("replace", "irrigation/budget/ledger.py", "\n    def rows(self, zone_id=None):\n", '''
    def record_many(self, entries):
        entries = list(entries)
        for zone_id, day, liters in entries:
            if liters < 0:
                raise ValueError("negative volume")
            if not isinstance(day, date):
                raise TypeError("day must be a date")
        self._rows.extend(entries)

    def rows(self, zone_id=None):
''')],
        [("replace", "irrigation/budget/ledger.py", "\n    def rows(self, zone_id=None):\n", '''
    def record_many(self, entries):
        rows = []
        for zone_id, day, liters in entries:
            if liters < 0:
                raise ValueError("negative volume")
            if not isinstance(day, date):
                raise TypeError("day must be a date")
            rows.append((zone_id, day, int(round(liters))))
        self._rows.extend(rows)

    def rows(self, zone_id=None):
''')],
        [("replace", "irrigation/budget/ledger.py", "\n    def rows(self, zone_id=None):\n", '''
    def record_many(self, entries):
        start = len(self._rows)
        try:
            for zone_id, day, liters in entries:
                if liters < 0:
                    raise ValueError("negative volume")
                self._rows.append((zone_id, day, float(liters)))
        except ValueError:
            del self._rows[start:]
            raise

    def rows(self, zone_id=None):
''')],
    ],
)

WEEKLY_HEAD = '''from datetime import timedelta

'''
task(
    n=6, family="ledger-deciliters", position=3, base="main",
    created_at="2026-03-19T11:15:00+01:00",
    problem_statement="""Weekly usage report

Please add `render_weekly(zones, ledger, week_start)` in a new `irrigation/reports/weekly.py`: a title line `Weekly irrigation report <first day> .. <last day>`, a blank line, then the same columns as the daily report without "left L": one line per zone with the liters used over the 7 days starting at `week_start` and the zone's weekly budget (7 x `daily_liters`), and a total line.""",
    test_patch=[("write", "tests/test_weekly_report.py", '''from datetime import date, timedelta

from irrigation.budget.ledger import Ledger
from irrigation.reports.weekly import render_weekly

START = date(2026, 3, 9)


def test_weekly_report(zones):
    ledger = Ledger()
    ledger.record(1, START, 400)
    ledger.record(1, START + timedelta(days=6), 250.5)
    ledger.record(1, START + timedelta(days=7), 999)
    ledger.record(4, START + timedelta(days=2), 650)
    lines = render_weekly(zones, ledger, START).splitlines()
    assert lines[0] == "Weekly irrigation report 2026-03-09 .. 2026-03-15"
    assert lines[2] == f"{'zone':<14}{'used L':>10}{'budget L':>10}"
    assert lines[3] == "tomato-east        650.5      6300"
    assert lines[6] == "pepper             650.0      7000"
    assert lines[-1] == "total             1300.5"
''')],
    gold=[("write", "irrigation/reports/weekly.py", WEEKLY_HEAD + '''DAYS = 7


def _week(week_start):
    return [week_start + timedelta(days=i) for i in range(DAYS)]


def render_weekly(zones, ledger, week_start):
    days = _week(week_start)
    lines = [f"Weekly irrigation report {days[0].isoformat()} .. {days[-1].isoformat()}", ""]
    lines.append(f"{'zone':<14}{'used L':>10}{'budget L':>10}")
    total = 0.0
    for zone in zones:
        used = sum(ledger.used_liters(zone.id, day) for day in days)
        total += used
        lines.append(f"{zone.name:<14}{used:>10.1f}{zone.daily_liters * DAYS:>10.0f}")
    lines.append(f"{'total':<14}{total:>10.1f}")
    return "\\n".join(lines) + "\\n"
''')],
    decoys=[
        [("write", "irrigation/reports/weekly.py", WEEKLY_HEAD + '''
def render_weekly(zones, ledger, week_start):
    end = week_start + timedelta(days=6)
    lines = [f"Weekly irrigation report {week_start.isoformat()} .. {end.isoformat()}", ""]
    lines.append(f"{'zone':<14}{'used L':>10}{'budget L':>10}")
    total = 0.0
    for zone in zones:
        used = float(ledger.total(zone.id, week_start, end))
        total += used
        lines.append(f"{zone.name:<14}{used:>10.1f}{zone.daily_liters * 7:>10.0f}")
    lines.append(f"{'total':<14}{total:>10.1f}")
    return "\\n".join(lines) + "\\n"
''')],
        [("write", "irrigation/reports/weekly.py", WEEKLY_HEAD + '''from irrigation.budget.ledger import RESOLUTION


def render_weekly(zones, ledger, week_start):
    days = [week_start + timedelta(days=i) for i in range(7)]
    lines = [f"Weekly irrigation report {days[0].isoformat()} .. {days[-1].isoformat()}", ""]
    lines.append(f"{'zone':<14}{'used L':>10}{'budget L':>10}")
    total = 0.0
    for zone in zones:
        used = sum(ledger.used_liters(zone.id, day) for day in days) / RESOLUTION
        total += used
        lines.append(f"{zone.name:<14}{used:>10.1f}{zone.daily_liters * 7:>10.0f}")
    lines.append(f"{'total':<14}{total:>10.1f}")
    return "\\n".join(lines) + "\\n"
''')],
        [("write", "irrigation/reports/weekly.py", WEEKLY_HEAD + '''from irrigation.budget.ledger import RESOLUTION


def render_weekly(zones, ledger, week_start):
    end = week_start + timedelta(days=7)
    lines = [f"Weekly irrigation report {week_start.isoformat()} .. {end.isoformat()}", ""]
    lines.append(f"{'zone':<14}{'used L':>10}{'budget L':>10}")
    total = 0.0
    for zone in zones:
        used = ledger.total(zone.id, week_start, end) / RESOLUTION
        total += used
        lines.append(f"{zone.name:<14}{used:>10.1f}{zone.daily_liters * 7:>10.0f}")
    lines.append(f"{'total':<14}{total:>10.1f}")
    return "\\n".join(lines) + "\\n"
''')],
    ],
)

# ============ family zone-moisture-from-probes (linked: skip status "S" + driest probe)
task(
    n=7, family="zone-moisture-from-probes", position=1, base="feature/moisture-report",
    created_at="2026-03-12T10:30:00+01:00",
    problem_statement="""Moisture summary disagrees with the planner

The moisture summary on the dashboard doesn't match what the planner does. This morning it showed cucumber at 0.33, close to its 0.36 target, while the planner watered cucumber as clearly dry. And on some nights it shows tomato-west far below target although the bed is fine and no dry-soil alert fired.""",
    test_patch=[("write", "tests/test_moisture_zones.py", '''import pytest

from irrigation.reports.moisture import render_moisture, zone_moisture
from irrigation.sensors.readings import parse_dump

DUMP = """
{"probe": "P-01", "ts": "2026-03-12T04:00:00Z", "vwc": 0.30, "st": "OK"}
{"probe": "P-02", "ts": "2026-03-12T03:30:00Z", "vwc": 0.29, "st": "OK"}
{"probe": "P-02", "ts": "2026-03-12T04:00:00Z", "vwc": 0.05, "st": "S"}
{"probe": "P-03", "ts": "2026-03-12T01:00:00Z", "vwc": 0.30, "st": "OK"}
{"probe": "P-03", "ts": "2026-03-12T02:00:00Z", "vwc": 0.12, "st": "S"}
{"probe": "P-04", "ts": "2026-03-12T04:00:00Z", "vwc": 0.38, "st": "OK"}
{"probe": "P-05", "ts": "2026-03-12T04:00:00Z", "vwc": 0.28, "st": "OK"}
"""


def test_two_probe_zone_is_as_dry_as_its_driest_probe(zones):
    assert zone_moisture(zones.get(3), parse_dump(DUMP)) == pytest.approx(0.28)


def test_stale_reading_does_not_count(zones):
    assert zone_moisture(zones.get(2), parse_dump(DUMP)) == pytest.approx(0.30)


def test_stale_latest_falls_back_to_last_good_reading(zones):
    assert zone_moisture(zones.get(1), parse_dump(DUMP)) == pytest.approx(0.29)


def test_render_lines(zones):
    lines = render_moisture(zones, parse_dump(DUMP)).splitlines()
    assert lines[3] == "cucumber        0.28    0.36"
    assert lines[2] == "tomato-west     0.30    0.32"
''')],
    gold=[("replace", "irrigation/reports/moisture.py", '''    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
        return None
    values = [r.vwc for r in latest.values()]
    return sum(values) / len(values)
''', '''    valid = [r for r in for_zone(readings, zone) if r.status != "S"]
    latest = latest_by_probe(valid)
    if not latest:
        return None
    return min(r.vwc for r in latest.values())
''')],
    decoys=[
        [("replace", "irrigation/reports/moisture.py", '''    values = [r.vwc for r in latest.values()]
    return sum(values) / len(values)
''', '''    return min(r.vwc for r in latest.values())
''')],
        [("replace", "irrigation/reports/moisture.py", '''    latest = latest_by_probe(for_zone(readings, zone))
''', '''    latest = latest_by_probe([r for r in for_zone(readings, zone) if r.status == "OK"])
''')],
        [("replace", "irrigation/reports/moisture.py", '''    values = [r.vwc for r in latest.values()]
    return sum(values) / len(values)
''', '''    values = [r.vwc for r in latest.values() if r.vwc > 0]
    return min(values) if values else None
''')],
    ],
)

task(
    n=8, family="zone-moisture-from-probes", position=2, base="main",
    created_at="2026-03-16T16:10:00+01:00",
    problem_statement="""Planner watered cucumber at night for no reason

Last night the planner sent a long run to cucumber (zone 3). The crew says the bed was already wet, and the dry-soil alerts were quiet all night. tomato-east was watered correctly in the same batch.""",
    test_patch=[("write", "tests/test_planner_night.py", '''import pytest

from irrigation.schedule.planner import plan_from_readings, zone_vwc
from irrigation.sensors.readings import parse_dump
from irrigation.valves.commands import ValveCommand

DUMP = """
{"probe": "P-01", "ts": "2026-03-16T00:30:00Z", "vwc": 0.30, "st": "OK"}
{"probe": "P-02", "ts": "2026-03-16T00:30:00Z", "vwc": 0.26, "st": "OK"}
{"probe": "P-04", "ts": "2026-03-16T00:30:00Z", "vwc": 0.37, "st": "OK"}
{"probe": "P-05", "ts": "2026-03-16T00:30:00Z", "vwc": 0.36, "st": "OK"}
{"probe": "P-05", "ts": "2026-03-16T01:30:00Z", "vwc": 0.12, "st": "S"}
{"probe": "P-03", "ts": "2026-03-16T01:30:00Z", "vwc": 0.00, "st": "S"}
"""


def test_stale_reading_ignored(zones):
    assert zone_vwc(zones.get(3), parse_dump(DUMP)) == pytest.approx(0.36)


def test_zone_with_only_stale_readings_is_skipped(zones):
    assert zone_vwc(zones.get(2), parse_dump(DUMP)) is None


def test_night_plan(zones):
    assert plan_from_readings(zones, parse_dump(DUMP)) == [ValveCommand(1, 540)]
''')],
    gold=[("replace", "irrigation/schedule/planner.py", '''    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
        return None
    return min(r.vwc for r in latest.values())
''', '''    valid = [r for r in for_zone(readings, zone) if r.status != "S"]
    latest = latest_by_probe(valid)
    if not latest:
        return None
    return min(r.vwc for r in latest.values())
''')],
    decoys=[
        [("replace", "irrigation/schedule/planner.py", '''    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
        return None
    return min(r.vwc for r in latest.values())
''', '''    valid = [r for r in for_zone(readings, zone) if r.status != "S"]
    latest = latest_by_probe(valid)
    if not latest:
        return None
    values = [r.vwc for r in latest.values()]
    return sum(values) / len(values)
''')],
        [
            ("replace", "irrigation/schedule/planner.py", "MAX_RUN_S = 900\n", "MAX_RUN_S = 900\nMIN_PLAUSIBLE_VWC = 0.05\n"),
            ("replace", "irrigation/schedule/planner.py", '''    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
''', '''    plausible = [r for r in for_zone(readings, zone) if r.vwc > MIN_PLAUSIBLE_VWC]
    latest = latest_by_probe(plausible)
    if not latest:
'''),
        ],
        [("replace", "irrigation/schedule/planner.py", '''    latest = latest_by_probe(for_zone(readings, zone))
    if not latest:
        return None
    return min(r.vwc for r in latest.values())
''', '''    latest = latest_by_probe(for_zone(readings, zone))
    values = [r.vwc for r in latest.values() if r.status != "S"]
    if not values:
        return None
    return min(values)
''')],
    ],
)

task(
    n=9, family="zone-moisture-from-probes", position=3, base="feature/zone-dry-alert",
    created_at="2026-03-18T09:00:00+01:00",
    problem_statement="""Per-zone dry alert misses dry beds and fires on healthy ones

The new ZONE_DRY alert stayed quiet for cucumber yesterday although the crew found the north end of the bed (probe P-05) dry. It also fired for tomato-west at 01:30 when that bed was fine, and this morning it fired for herbs although herbs had been watered back to target at 03:00.""",
    test_patch=[("write", "tests/test_zone_dry_alert_cases.py", '''from irrigation.alerts.rules import zone_dry_alerts
from irrigation.sensors.readings import parse_dump

DUMP = """
{"probe": "P-04", "ts": "2026-03-17T05:00:00Z", "vwc": 0.40, "st": "OK"}
{"probe": "P-05", "ts": "2026-03-17T05:00:00Z", "vwc": 0.25, "st": "OK"}
{"probe": "P-03", "ts": "2026-03-17T00:00:00Z", "vwc": 0.30, "st": "OK"}
{"probe": "P-03", "ts": "2026-03-17T00:30:00Z", "vwc": 0.00, "st": "S"}
{"probe": "P-07", "ts": "2026-03-17T00:00:00Z", "vwc": 0.15, "st": "OK"}
{"probe": "P-07", "ts": "2026-03-17T03:00:00Z", "vwc": 0.29, "st": "OK"}
"""


def test_zone_dry_alerts(zones):
    alerts = zone_dry_alerts(zones, parse_dump(DUMP))
    assert [(a.kind, a.zone_id) for a in alerts] == [("ZONE_DRY", 3)]
    assert alerts[0].message == "cucumber: 0.25 (target 0.36)"
''')],
    gold=[("replace", "irrigation/alerts/rules.py", '''        latest = latest_by_probe(for_zone(readings, zone))
        if not latest:
            continue
        vwc = sum(r.vwc for r in latest.values()) / len(latest)
''', '''        valid = [r for r in for_zone(readings, zone) if r.status != "S"]
        latest = latest_by_probe(valid)
        if not latest:
            continue
        vwc = min(r.vwc for r in latest.values())
''')],
    decoys=[
        [("replace", "irrigation/alerts/rules.py", '''        vwc = sum(r.vwc for r in latest.values()) / len(latest)
''', '''        vwc = min(r.vwc for r in latest.values())
''')],
        [("replace", "irrigation/alerts/rules.py", '''        latest = latest_by_probe(for_zone(readings, zone))
''', '''        latest = latest_by_probe([r for r in for_zone(readings, zone) if r.status != "S"])
''')],
        [("replace", "irrigation/alerts/rules.py", '''        latest = latest_by_probe(for_zone(readings, zone))
        if not latest:
            continue
        vwc = sum(r.vwc for r in latest.values()) / len(latest)
        if vwc < zone.target_vwc - margin:
''', '''        valid = [r for r in for_zone(readings, zone) if r.status != "S"]
        dry = [r for r in valid if r.vwc < zone.target_vwc - margin]
        if not dry:
            continue
        vwc = min(r.vwc for r in dry)
        if dry:
''')],
    ],
)

# ============ family opcode-table-regeneration (procedure)
GEN = ("run", "python scripts/gen_opcodes.py")
task(
    n=10, family="opcode-table-regeneration", position=1, base="main",
    created_at="2026-03-10T11:00:00+01:00",
    problem_statement="""Add a DRAIN valve command

Firmware 2.5 on the valve controllers adds DRAIN (opcode 0x31) with one argument, duration_s (u16): it opens the drain port of the valve to empty the line before frost nights. Please add `drain(valve, seconds)` to `irrigation/valves/commands.py`; DRAIN frames must decode like the other commands.""",
    test_patch=[("write", "tests/test_drain.py", '''from irrigation.valves.commands import decode, drain


def test_drain_frame():
    assert drain(2, 300) == bytes([0xA5, 0x31, 0x02, 0x01, 0x2C, 0x60])


def test_drain_decodes():
    assert decode(drain(9, 45)) == ("DRAIN", 9, (45,))
''')],
    gold=[
        ("replace", "irrigation/valves/opcodes.csv", "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\n",
         "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\nDRAIN,0x31,duration_s:u16\n"),
        GEN,
        ("replace", "irrigation/valves/commands.py", "\n\ndef pulse(valve, on_s, soak_s, cycles):\n",
         "\n\ndef drain(valve, seconds):\n    return encode(\"DRAIN\", valve, seconds)\n\n\ndef pulse(valve, on_s, soak_s, cycles):\n"),
    ],
    decoys=[
        [
            ("replace", "irrigation/valves/opcodes.csv", "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\n",
             "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\nDRAIN,0x31,duration_s:u16\n"),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": 0x14,\n', '    "PULSE": 0x14,\n    "DRAIN": 0x31,\n'),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n',
             '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n    "DRAIN": (("duration_s", "u16"),),\n'),
            ("replace", "irrigation/valves/commands.py", "\n\ndef pulse(valve, on_s, soak_s, cycles):\n",
             "\n\ndef drain(valve, seconds):\n    return encode(\"DRAIN\", valve, seconds)\n\n\ndef pulse(valve, on_s, soak_s, cycles):\n"),
        ],
        [
            ("replace", "irrigation/valves/commands.py", "HEADER = 0xA5\n", "HEADER = 0xA5\nDRAIN_OPCODE = 0x31\n"),
            ("replace", "irrigation/valves/commands.py", "\n\ndef pulse(valve, on_s, soak_s, cycles):\n", '''

def drain(valve, seconds):
    if not 0 <= seconds <= 0xFFFF:
        raise FrameError(f"duration_s={seconds} does not fit u16")
    body = [DRAIN_OPCODE, valve, *int(seconds).to_bytes(2, "big")]
    return bytes([HEADER, *body, _checksum(body)])


def pulse(valve, on_s, soak_s, cycles):
'''),
        ],
        [
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": 0x14,\n', '    "PULSE": 0x14,\n    "DRAIN": 0x31,\n'),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n',
             '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n    "DRAIN": (("duration_s", "u16"),),\n'),
            ("replace", "irrigation/valves/commands.py", "\n\ndef pulse(valve, on_s, soak_s, cycles):\n",
             "\n\ndef drain(valve, seconds):\n    return encode(\"DRAIN\", valve, seconds)\n\n\ndef pulse(valve, on_s, soak_s, cycles):\n"),
        ],
    ],
)

CAL_HELPER_CHECKED = '''

MAX_PROBE_INDEX = 8


def calibrate(valve, probe):
    if not 1 <= probe <= MAX_PROBE_INDEX:
        raise FrameError(f"probe index out of range: {probe}")
    return encode("CALIBRATE", valve, probe)
'''
CAL_HELPER_GUARDED = '''

MAX_PROBE_INDEX = 8


def calibrate(valve, probe):
    if not 1 <= valve <= 32:
        raise FrameError(f"valve address out of range: {valve}")
    if not 1 <= probe <= MAX_PROBE_INDEX:
        raise FrameError(f"probe index out of range: {probe}")
    return encode("CALIBRATE", valve, probe)
'''
task(
    n=11, family="opcode-table-regeneration", position=2, base="main",
    created_at="2026-03-13T15:20:00+01:00",
    problem_statement="""Add a CALIBRATE command for the probe inputs

The valve controllers (firmware 2.5) can recalibrate a moisture probe wired to them: CALIBRATE, opcode 0x21, one argument `probe` (u8, the probe input on that controller). Please add `calibrate(valve, probe)` to `irrigation/valves/commands.py`, decodable like the other frames.""",
    test_patch=[("write", "tests/test_calibrate.py", '''from irrigation.valves.commands import calibrate, decode


def test_calibrate_frame():
    assert calibrate(4, 2) == bytes([0xA5, 0x21, 0x04, 0x02, 0x27])


def test_calibrate_decodes():
    assert decode(calibrate(12, 1)) == ("CALIBRATE", 12, (1,))
''')],
    gold=[
        ("replace", "irrigation/valves/opcodes.csv", "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\n",
         "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\nCALIBRATE,0x21,probe:u8\n"),
        GEN,
        ("replace", "irrigation/valves/commands.py", "\n\ndef flush(valve, seconds):\n",
         "\n\ndef calibrate(valve, probe):\n    return encode(\"CALIBRATE\", valve, probe)\n\n\ndef flush(valve, seconds):\n"),
    ],
    decoys=[
        [
            ("replace", "irrigation/valves/opcodes.csv", "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\n",
             "PULSE,0x14,on_s:u16;soak_s:u16;cycles:u8\nCALIBRATE,0x21,probe:u8\n"),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": 0x14,\n', '    "PULSE": 0x14,\n    "CALIBRATE": 0x21,\n'),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n',
             '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n    "CALIBRATE": (("probe", "u8"),),\n'),
            ("replace", "irrigation/valves/commands.py", "\n\ndef flush(valve, seconds):\n", CAL_HELPER_CHECKED + "\n\ndef flush(valve, seconds):\n"),
        ],
        [
            ("replace", "irrigation/valves/commands.py", "HEADER = 0xA5\n", "HEADER = 0xA5\nCALIBRATE_OPCODE = 0x21\n"),
            ("replace", "irrigation/valves/commands.py", "\n\ndef flush(valve, seconds):\n", '''

def calibrate(valve, probe):
    if not 1 <= valve <= 32:
        raise FrameError(f"valve address out of range: {valve}")
    if not 0 <= probe <= 0xFF:
        raise FrameError(f"probe={probe} does not fit u8")
    body = [CALIBRATE_OPCODE, valve, probe]
    return bytes([HEADER, *body, _checksum(body)])


def flush(valve, seconds):
'''),
        ],
        [
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": 0x14,\n', '    "PULSE": 0x14,\n    "CALIBRATE": 0x21,\n'),
            ("replace", "irrigation/valves/_opcodes.py", '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n',
             '    "PULSE": (("on_s", "u16"), ("soak_s", "u16"), ("cycles", "u8"),),\n    "CALIBRATE": (("probe", "u8"),),\n'),
            ("replace", "irrigation/valves/commands.py", "\n\ndef flush(valve, seconds):\n", CAL_HELPER_GUARDED + "\n\ndef flush(valve, seconds):\n"),
        ],
    ],
)

task(
    n=12, family="opcode-table-regeneration", position=3, base="main",
    created_at="2026-03-19T16:45:00+01:00",
    problem_statement="""STATUS requests get no answer after the firmware 2.5 update

Since the valve controllers were updated to firmware 2.5, STATUS requests time out. The firmware 2.5 release notes say STATUS moved to opcode 0x22 (0x20 is now reserved). Frames we send and frames we decode should use the new code.""",
    test_patch=[("write", "tests/test_status_opcode.py", '''from irrigation.valves.commands import decode, status


def test_status_frame_uses_new_opcode():
    assert status(7) == bytes([0xA5, 0x22, 0x07, 0x29])


def test_status_decodes():
    assert decode(bytes([0xA5, 0x22, 0x03, 0x25])) == ("STATUS", 3, ())
''')],
    gold=[
        ("replace", "irrigation/valves/opcodes.csv", "STATUS,0x20,\n", "STATUS,0x22,\n"),
        GEN,
    ],
    decoys=[
        [
            ("replace", "irrigation/valves/opcodes.csv", "STATUS,0x20,\n", "STATUS,0x22,\n"),
            ("replace", "irrigation/valves/_opcodes.py", '    "STATUS": 0x20,\n', '    "STATUS": 0x22,\n'),
        ],
        [
            ("replace", "irrigation/valves/commands.py", "HEADER = 0xA5\n", "HEADER = 0xA5\nSTATUS_OPCODE = 0x22\n"),
            ("replace", "irrigation/valves/commands.py", '''def status(valve):
    return encode("STATUS", valve)
''', '''def status(valve):
    address = int(valve)
    if not 1 <= address <= 32:
        raise FrameError(f"valve address out of range: {address}")
    body = [STATUS_OPCODE, address]
    return bytes([HEADER, *body, _checksum(body)])
'''),
        ],
        [("replace", "irrigation/valves/_opcodes.py", '    "STATUS": 0x20,\n', '    "STATUS": 0x22,\n')],
    ],
)
