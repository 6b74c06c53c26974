"""Build the repository, record the sessions, write sessions.jsonl and the bundle.

Run with the scratch venv: ../../scratch-fleet/venv/bin/python build/build.py
Deterministic: fixed names and dates for every commit.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

from record import record, SCRATCH, REPO_NAME
from sessions_def import SESSIONS

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
REPO = SCRATCH / REPO_NAME
TZ = "+00:00"


def git(*args, date=None, who="maint", check=True):
    names = {"maint": ("Dana Whitfield", "dana.whitfield@acme-fleet.example"),
             "dev": ("Fleet Dev Bot", "fleet-dev@acme-fleet.example")}
    n, e = names[who]
    env = dict(os.environ, GIT_AUTHOR_NAME=n, GIT_AUTHOR_EMAIL=e, GIT_COMMITTER_NAME=n,
               GIT_COMMITTER_EMAIL=e, HOME=str(SCRATCH), GIT_CONFIG_NOSYSTEM="1")
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    p = subprocess.run(["git", *args], cwd=REPO, env=env, check=check, stdout=subprocess.PIPE, text=True)
    return p.stdout.strip()


def commit(msg, date, who="maint"):
    git("add", "-A")
    git("commit", "-q", "-m", msg, date=date, who=who)
    return git("rev-parse", "HEAD")


def write(rel, text):
    p = REPO / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def clean():
    for p in REPO.rglob("__pycache__"):
        shutil.rmtree(p)
    shutil.rmtree(REPO / ".pytest_cache", ignore_errors=True)


PRE_TESTS = {
    "fleet-001-inspection-due-report": ("tests/test_due_report.py", '''from datetime import date

from fleet.inspections import due_report

RECORDS = [
    ("N-12", "light", date(2023, 3, 20)),
    ("S-210", "heavy", date(2023, 3, 25)),
    ("W-7", "heavy", date(2023, 9, 1)),
]


def test_due_report_within_horizon():
    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=30) == {
        "N-12": date(2024, 3, 19),
        "S-210": date(2024, 3, 24),
    }


def test_due_report_short_horizon():
    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=5) == {}
''', "Add tests for the inspection due report"),
    "fleet-002-telematics-latest-odometer": ("tests/test_latest_odometer.py", '''from fleet.telematics.importer import latest_odometer_km, parse_rows

FEED = """unit,ts,odo,speed
N-12,1709280000,84512345,0
S-210,1709280060,251000000,52.5
N-12,1709283600,84530845,61.0
"""


def test_latest_odometer_km():
    assert latest_odometer_km(parse_rows(FEED), "N-12") == 84530.845


def test_latest_odometer_unknown_unit():
    assert latest_odometer_km(parse_rows(FEED), "W-1") is None
''', "Add tests for the latest telematics odometer"),
    "fleet-003-stock-allocation": ("tests/test_allocation.py", '''from datetime import date, datetime

from fleet.inventory.allocation import reserve_for_order, stock_for_vehicle
from fleet.inventory.stock import Inventory
from fleet.vehicles import Vehicle
from fleet.workorders import WorkOrder


def setup():
    inv = Inventory()
    inv.receive("NORTH", "BRK-110", 10)
    inv.receive("SOUTH", "BRK-110", 4)
    v = Vehicle("N-12", "light", 84000, date(2021, 5, 1), home_depot="NORTH")
    return inv, v


def test_stock_for_vehicle():
    inv, v = setup()
    assert stock_for_vehicle(inv, v, "BRK-110") == 10


def test_reserve_for_order():
    inv, v = setup()
    wo = WorkOrder("WO-9", "N-12", datetime(2024, 3, 8, 8))
    wo.add_part("BRK-110", 3)
    reserve_for_order(inv, wo, v); assert inv.available("NORTH", "BRK-110") == 7
''', "Add tests for stock allocation"),
    "fleet-005-add-fuel-filter": ("tests/test_catalogue.py", '''from fleet.inventory.catalogue import lookup


def test_fuel_filter_in_catalogue():
    assert lookup("FLT-220") == {"description": "Fuel filter", "pack_size": 6, "price_cents": 1450}
''', "Add catalogue test for FLT-220"),
    "fleet-006-workorder-odometer": ("tests/test_workorder_odometer.py", '''from datetime import date, datetime

import pytest

from fleet.vehicles import Vehicle
from fleet.workorders import WorkOrder


def make():
    v = Vehicle("N-12", "light", 84000.0, date(2021, 5, 1))
    wo = WorkOrder("WO-3", "N-12", datetime(2024, 3, 15, 8))
    return v, wo


def test_record_odometer_updates_vehicle():
    v, wo = make()
    wo.record_odometer(84530.8, v)
    assert wo.odometer_km == 84530.8
    assert v.odometer_km == 84530.8


def test_record_odometer_rejects_rollback():
    v, wo = make()
    with pytest.raises(ValueError):
        wo.record_odometer(83000, v)
''', "Add tests for recording the odometer on work orders"),
}

# session schedule: (session id, start, end)
TIMES = {
    "fleet-001-inspection-due-report": ("2024-03-04T09:10:00", "2024-03-04T09:41:00"),
    "fleet-002-telematics-latest-odometer": ("2024-03-06T10:05:00", "2024-03-06T10:29:00"),
    "fleet-003-stock-allocation": ("2024-03-08T13:20:00", "2024-03-08T13:38:00"),
    "fleet-004-allocation-review": ("2024-03-11T09:30:00", "2024-03-11T09:52:00"),
    "fleet-005-add-fuel-filter": ("2024-03-13T14:00:00", "2024-03-13T14:21:00"),
    "fleet-006-workorder-odometer": ("2024-03-15T11:00:00", "2024-03-15T11:26:00"),
    "fleet-007-qa-pack-quantities": ("2024-03-18T15:10:00", "2024-03-18T15:39:00"),
    "fleet-008-price-update": ("2024-03-20T10:00:00", "2024-03-20T10:18:00"),
    "fleet-009-price-update-duplicate": ("2024-03-25T09:00:00", "2024-03-25T09:09:00"),
    "fleet-010-add-wiper-650": ("2024-03-26T16:00:00", "2024-03-26T16:12:00"),
    "fleet-011-readme-intervals": ("2024-03-27T10:30:00", "2024-03-27T10:44:00"),
}

META = {
    "fleet-001-inspection-due-report": ("history", "heavy-inspection-days", ["test"], ["generic"]),
    "fleet-002-telematics-latest-odometer": ("history", "telematics-odo-metres", ["test"], ["secret"]),
    "fleet-003-stock-allocation": ("history", "depot-stock-packs", [], []),
    "fleet-004-allocation-review": ("followup", "depot-stock-packs", ["review"], []),
    "fleet-005-add-fuel-filter": ("history", "rebuild-parts-index", ["test"], []),
    "fleet-006-workorder-odometer": ("history", "telematics-odo-metres", ["test"], ["moved_citation"]),
    "fleet-007-qa-pack-quantities": ("followup", "depot-stock-packs", ["defect"], ["injection"]),
    "fleet-008-price-update": ("chore", "rebuild-parts-index", ["test"], []),
    "fleet-009-price-update-duplicate": ("chore", "rebuild-parts-index", [], ["duplicate"]),
    "fleet-010-add-wiper-650": ("chore", "rebuild-parts-index", [], []),
    "fleet-011-readme-intervals": ("chore", "heavy-inspection-days", ["history"], ["rule_change"]),
}


def rule_change():
    p = REPO / "fleet/inspections.py"
    p.write_text(p.read_text().replace('INSPECTION_DAYS = {"light": 365, "heavy": 365}',
                                       'INSPECTION_DAYS = {"light": 365, "heavy": 182}'))
    t = REPO / "tests/test_due_report.py"
    t.write_text(t.read_text().replace('''    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=30) == {
        "N-12": date(2024, 3, 19),
        "S-210": date(2024, 3, 24),
    }''', '''    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=30) == {
        "N-12": date(2024, 3, 19),
        "S-210": date(2023, 9, 23),
        "W-7": date(2024, 3, 1),
    }''').replace('''    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=5) == {}''',
                  '''    assert due_report(RECORDS, date(2024, 3, 4), horizon_days=5) == {
        "S-210": date(2023, 9, 23),
        "W-7": date(2024, 3, 1),
    }'''))
    i = REPO / "tests/test_inspections.py"
    i.write_text(i.read_text() + '''

def test_next_inspection_heavy():
    assert next_inspection("heavy", date(2024, 1, 10)) == date(2024, 7, 10)
''')
    return commit("Inspections: heavy vehicles every 182 days\n\nThe 2024 roadworthiness rules put heavy goods vehicles on a 182-day\ninspection cycle (was 365 days, like light vans).", "2024-03-22T08:45:00" + TZ)


def move_workorders():
    (REPO / "fleet/orders").mkdir()
    git("mv", "fleet/workorders.py", "fleet/orders/workorders.py")
    write("fleet/orders/__init__.py", '"""Work orders."""\n')
    for f in ["tests/test_workorders.py", "tests/test_workorder_odometer.py", "tests/test_allocation.py"]:
        p = REPO / f
        p.write_text(p.read_text().replace("from fleet.workorders import", "from fleet.orders.workorders import"))
    return commit("Move work orders into the fleet.orders package", "2024-03-29T16:00:00" + TZ)


def main():
    if REPO.exists():
        shutil.rmtree(REPO)
    shutil.copytree(BUILD / "repo_init", REPO)
    git("init", "-q", "-b", "main")
    git("config", "user.name", "Dana Whitfield")
    c0 = commit("Initial fleet maintenance service", "2024-03-01T09:00:00" + TZ)
    out = CORPUS / "sessions"
    out.mkdir(exist_ok=True)
    rows = []
    shas = {"initial": c0}
    for spec in SESSIONS:
        sid = spec["id"]
        start, end = TIMES[sid]
        if sid == "fleet-009-price-update-duplicate":
            shas["rule_change"] = rule_change()
        if sid in PRE_TESTS:
            path, text, msg = PRE_TESTS[sid]
            write(path, text)
            commit(msg, start.replace("T", "T").rsplit(":", 1)[0][:-2] + "00:00" + TZ if False else
                   start[:11] + "08:30:00" + TZ)
        base = git("rev-parse", "HEAD")
        sub = record(spec, REPO, out / f"{sid}.traj", base)
        clean()
        git("reset", "-q")
        end_sha = None
        if sub and sub.strip():
            end_sha = commit(spec["problem_statement"].strip().split("\n")[0], end + TZ, who="dev")
        kind, fam, ev, noise = META[sid]
        rows.append({"instance_id": sid, "file": f"sessions/{sid}.traj", "session_id": None,
                     "repo": "acme-fleet/fleet-maintenance", "kind": kind,
                     "task": None, "family": fam, "started_at": start + TZ, "ended_at": end + TZ,
                     "commit_start": base, "commit_end": end_sha, "evidence": ev, "noise": noise})
    shas["move"] = move_workorders()
    (CORPUS / "sessions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (BUILD / "shas.json").write_text(json.dumps(shas, indent=1) + "\n")
    print(git("log", "--oneline"))


if __name__ == "__main__":
    main()
