"""The evaluation tasks: problem statements, candidate edits and deciding tests.

A candidate is a list of (path, old, new) substitutions on the base tree; ("REBUILD",) runs
`python -m fleet.inventory.build_index` afterwards (the gold of the catalogue tasks)."""

MONTHS_HELPER = '''

def _add_months(day, months):
    month = day.month - 1 + months
    year = day.year + month // 12
    month = month % 12 + 1
    last = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28,
            31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return day.replace(year=year, month=month, day=min(day.day, last))
'''

TASKS = []

# ------------------------------------------------------------------ heavy-inspection-days
PLANNER_OLD = '''        current = current + timedelta(days=_INTERVAL_DAYS)'''
TASKS.append(dict(
    family="heavy-inspection-days", created_at="2024-04-02T10:00:00+00:00",
    problem_statement="""Planner slots for heavy units are wrong

The workshop planner (`fleet.planner.next_inspections`) offers truck S-210 (heavy, last inspected
2024-01-10) its next three inspection slots a year apart. The compliance officer says the slots
for heavy units don't match the inspection schedule; the light vans' slots are fine.
""",
    gold=[("fleet/planner.py", '''from datetime import timedelta

_INTERVAL_DAYS = 365
''', '''from datetime import timedelta

from fleet.inspections import INSPECTION_DAYS
'''), ("fleet/planner.py", PLANNER_OLD, '''        current = current + timedelta(days=INSPECTION_DAYS[vclass])''')],
    decoys=[
        [("fleet/planner.py", "_INTERVAL_DAYS = 365", '_INTERVAL_DAYS = {"light": 365, "heavy": 180}'),
         ("fleet/planner.py", PLANNER_OLD, '''        days = _INTERVAL_DAYS[vclass]
        current = current + timedelta(days=days)''')],
        [("fleet/planner.py", '''from datetime import timedelta

_INTERVAL_DAYS = 365
''', '''from datetime import timedelta

from fleet.intervals import SERVICE_DAYS
'''), ("fleet/planner.py", PLANNER_OLD, '''        days = SERVICE_DAYS[vclass]
        current = current + timedelta(days=days)''')],
        [("fleet/planner.py", "_INTERVAL_DAYS = 365\n", "_INTERVAL_DAYS = 365\n" + MONTHS_HELPER),
         ("fleet/planner.py", PLANNER_OLD, '''        if vclass == "heavy":
            current = _add_months(current, 6)
        else:
            current = current + timedelta(days=_INTERVAL_DAYS)''')],
    ],
    test_file="tests/test_task_planner_heavy.py", test='''from datetime import date

from fleet.planner import next_inspections


def test_heavy_slots():
    assert next_inspections("heavy", date(2024, 1, 10), 3) == [
        date(2024, 7, 10), date(2025, 1, 8), date(2025, 7, 9)]


def test_light_slots_unchanged():
    assert next_inspections("light", date(2024, 1, 10), 2) == [date(2025, 1, 9), date(2026, 1, 9)]
''',
    F2P=["tests/test_task_planner_heavy.py::test_heavy_slots"],
    P2P=["tests/test_task_planner_heavy.py::test_light_slots_unchanged",
         "tests/test_inspections.py::test_planner_light_slots", "tests/test_inspections.py::test_next_inspection_heavy"],
))

NOTIFY_OLD = '''    due = last_inspection + timedelta(days=365)'''
TASKS.append(dict(
    family="heavy-inspection-days", created_at="2024-04-03T10:00:00+00:00",
    problem_statement="""Inspection reminders for trucks go out too late

Depot managers get the inspection reminder for heavy units after the inspection was already due.
Example: S-210 was inspected on 2024-03-01; its reminder (`fleet.notify.reminder_date` /
`reminder_text`) is dated far too late. Van reminders are fine.
""",
    gold=[("fleet/notify.py", '''from datetime import timedelta
''', '''from datetime import timedelta

from fleet.inspections import next_inspection
'''), ("fleet/notify.py", NOTIFY_OLD + "\n    return due - timedelta(days=lead_days)", '''    due = next_inspection(vclass, last_inspection)
    reminder_lead = timedelta(days=lead_days)
    return due - reminder_lead''')],
    decoys=[
        [("fleet/notify.py", '''from datetime import timedelta
''', '''from datetime import timedelta

from fleet.intervals import SERVICE_DAYS
'''), ("fleet/notify.py", NOTIFY_OLD, '''    due = last_inspection + timedelta(days=SERVICE_DAYS[vclass])''')],
        [("fleet/notify.py", NOTIFY_OLD, '''    interval = 180 if vclass == "heavy" else 365
    due = last_inspection + timedelta(days=interval)''')],
        [("fleet/notify.py", "REMINDER_LEAD_DAYS = 14\n", "REMINDER_LEAD_DAYS = 14\n" + MONTHS_HELPER),
         ("fleet/notify.py", NOTIFY_OLD, '''    if vclass == "heavy":
        due = _add_months(last_inspection, 6)
    else:
        due = last_inspection + timedelta(days=365)''')],
    ],
    test_file="tests/test_task_notify_heavy.py", test='''from datetime import date

from fleet.notify import reminder_date, reminder_text


def test_heavy_reminder_date():
    assert reminder_date("heavy", date(2024, 3, 1)) == date(2024, 8, 16)


def test_heavy_reminder_text():
    assert reminder_text("S-210", "heavy", date(2024, 3, 1)) == "Unit S-210: inspection due 2024-08-30"


def test_light_reminder_unchanged():
    assert reminder_date("light", date(2023, 6, 1)) == date(2024, 5, 17)
''',
    F2P=["tests/test_task_notify_heavy.py::test_heavy_reminder_date",
         "tests/test_task_notify_heavy.py::test_heavy_reminder_text"],
    P2P=["tests/test_task_notify_heavy.py::test_light_reminder_unchanged",
         "tests/test_inspections.py::test_next_inspection_light"],
))

REPORT_OLD = '''        if today > last + timedelta(days=365):'''
TASKS.append(dict(
    family="heavy-inspection-days", created_at="2024-04-04T10:00:00+00:00",
    problem_statement="""Overdue-inspection report misses trucks

`fleet.reports.overdue_inspections` is used for the weekly compliance list. Trucks that the
compliance officer considers overdue don't show up on it until months later; vans are reported
correctly.
""",
    gold=[("fleet/reports.py", '''from datetime import timedelta
''', '''from fleet.inspections import next_inspection
'''), ("fleet/reports.py", REPORT_OLD, '''        due = next_inspection(vclass, last)
        if today > due:''')],
    decoys=[
        [("fleet/reports.py", '''from datetime import timedelta
''', '''from datetime import timedelta

from fleet.intervals import SERVICE_DAYS
'''), ("fleet/reports.py", REPORT_OLD, '''        if today > last + timedelta(days=SERVICE_DAYS[vclass]):''')],
        [("fleet/reports.py", '''from datetime import timedelta
''', '''from datetime import timedelta

_INSPECTION_INTERVAL_DAYS = {"light": 365, "heavy": 180}
'''), ("fleet/reports.py", REPORT_OLD, '''        interval = _INSPECTION_INTERVAL_DAYS.get(vclass, 365)
        if today > last + timedelta(days=interval):''')],
        [("fleet/reports.py", REPORT_OLD, '''        if today > last + timedelta(days=183 if vclass == "heavy" else 365):''')],
    ],
    test_file="tests/test_task_reports_heavy.py", test='''from datetime import date

from fleet.reports import overdue_inspections

RECORDS = [
    ("S-210", "heavy", date(2024, 3, 1)),
    ("W-7", "heavy", date(2023, 9, 1)),
    ("N-12", "light", date(2023, 6, 1)),
]


def test_heavy_not_yet_overdue():
    assert overdue_inspections(RECORDS, date(2024, 8, 29)) == ["N-12", "W-7"]


def test_heavy_overdue():
    assert overdue_inspections(RECORDS, date(2024, 8, 31)) == ["N-12", "S-210", "W-7"]


def test_light_only():
    assert overdue_inspections([("N-12", "light", date(2023, 6, 1))], date(2024, 5, 31)) == []
''',
    F2P=["tests/test_task_reports_heavy.py::test_heavy_not_yet_overdue",
         "tests/test_task_reports_heavy.py::test_heavy_overdue"],
    P2P=["tests/test_task_reports_heavy.py::test_light_only", "tests/test_due_report.py::test_due_report_within_horizon"],
))

# ------------------------------------------------------------------ telematics-odo-metres
FEED_TESTS = '''from fleet.telematics.importer import parse_rows

FEED = """unit,ts,odo,speed
N-12,1709280000,84512345,0
S-210,1709280060,251000000,52.5
N-12,1709283600,84530845,61.0
N-12,1709287200,84530545,5.0
N-12,1709290800,84528045,12.0
"""
'''
TRIP_OLD = '''    return float(unit_rows[-1]["odo"] - unit_rows[0]["odo"])'''
TASKS.append(dict(
    family="telematics-odo-metres", created_at="2024-04-08T10:00:00+00:00",
    problem_statement="""Trip distances on the telematics dashboard don't match the vehicles

`fleet.telematics.trips.trip_distance_km` is what the dashboard shows as "distance (km)". For N-12
on 1 March the dashboard number is nowhere near what the driver's trip computer says.
""",
    gold=[("fleet/telematics/trips.py", TRIP_OLD, '''    return (unit_rows[-1]["odo"] - unit_rows[0]["odo"]) / 1000''')],
    decoys=[
        [("fleet/telematics/trips.py", '''from fleet.telematics.importer import rows_for_unit
''', '''from fleet.telematics.importer import rows_for_unit

KM_PER_MILE = 1.609344
'''), ("fleet/telematics/trips.py", TRIP_OLD, '''    miles = unit_rows[-1]["odo"] - unit_rows[0]["odo"]
    return float(miles * KM_PER_MILE)''')],
        [("fleet/telematics/trips.py", TRIP_OLD, '''    total = 0.0
    for prev, cur in zip(unit_rows, unit_rows[1:]):
        step = cur["odo"] - prev["odo"]
        if step > 0:
            total += step
    return total''')],
        [("fleet/telematics/trips.py", TRIP_OLD, '''    metres = unit_rows[-1]["odo"] - unit_rows[0]["odo"]
    return float(round(metres / 1000))''')],
    ],
    test_file="tests/test_task_trip_distance.py", test=FEED_TESTS + '''
from fleet.telematics.trips import trip_distance_km


def test_trip_distance_km():
    rows = parse_rows(FEED)
    assert abs(trip_distance_km(rows[:3], "N-12") - 18.5) < 1e-9


def test_single_row_is_zero():
    assert trip_distance_km(parse_rows(FEED), "S-210") == 0.0
''',
    F2P=["tests/test_task_trip_distance.py::test_trip_distance_km"],
    P2P=["tests/test_task_trip_distance.py::test_single_row_is_zero", "tests/test_latest_odometer.py::test_latest_odometer_km"],
))

ROLL_OLD = '''        if prev["odo"] - cur["odo"] > tolerance_km:'''
TASKS.append(dict(
    family="telematics-odo-metres", created_at="2024-04-09T10:00:00+00:00",
    problem_statement="""Odometer rollback alerts fire on GPS jitter

`fleet.telematics.trips.odometer_rollbacks` raises a tampering alert for N-12 several times a day,
with the default tolerance of 1 km. The workshop checked the vehicle: the odometer is fine and the
alerts come from small wobbles in the feed. Real rollbacks must still be reported.
""",
    gold=[("fleet/telematics/trips.py", ROLL_OLD, '''        drop_m = prev["odo"] - cur["odo"]
        drop_km = drop_m / 1000
        if drop_km > tolerance_km:''')],
    decoys=[
        [("fleet/telematics/trips.py", ROLL_OLD, '''        if prev["odo"] - cur["odo"] > tolerance_km * 1.609344:''')],
        [("fleet/telematics/trips.py", ROLL_OLD, '''        drop = prev["odo"] - cur["odo"]
        if drop > 0 and drop >= max(tolerance_km, 1.0) and cur["speed"] > 0:''')],
        [("fleet/telematics/trips.py", ROLL_OLD, '''        if abs(prev["odo"] - cur["odo"]) > tolerance_km and cur["odo"] < prev["odo"]:''')],
    ],
    test_file="tests/test_task_rollbacks.py", test=FEED_TESTS + '''
from fleet.telematics.trips import odometer_rollbacks


def test_jitter_is_not_a_rollback():
    rows = parse_rows(FEED)[:4]
    assert odometer_rollbacks(rows, "N-12") == []


def test_real_rollback_reported():
    rows = parse_rows(FEED)
    hits = odometer_rollbacks(rows, "N-12")
    assert [h.timestamp() for h in hits] == [1709290800]


def test_no_rows():
    assert odometer_rollbacks([], "N-12") == []
''',
    F2P=["tests/test_task_rollbacks.py::test_jitter_is_not_a_rollback"],
    P2P=["tests/test_task_rollbacks.py::test_real_rollback_reported", "tests/test_task_rollbacks.py::test_no_rows"],
))

WO_ANCHOR = '''    def downtime_hours(self):'''
TASKS.append(dict(
    family="telematics-odo-metres", created_at="2024-04-10T10:00:00+00:00",
    problem_statement="""Distance driven between two work orders

For the cost-per-km report we need the distance a unit covered between two of its work orders.
Add `WorkOrder.odometer_delta_km(previous)` in `fleet/orders/workorders.py`, using the odometer
recorded on each order; a negative distance is an error (ValueError), and so is comparing orders
of different units.
""",
    gold=[("fleet/orders/workorders.py", WO_ANCHOR, '''    def odometer_delta_km(self, previous):
        if previous.unit_no != self.unit_no:
            raise ValueError("orders belong to different units")
        delta = self.odometer_km - previous.odometer_km
        if delta < 0:
            raise ValueError("odometer went backwards")
        return delta

''' + WO_ANCHOR)],
    decoys=[
        [("fleet/orders/workorders.py", WO_ANCHOR, '''    def odometer_delta_km(self, previous):
        if previous.unit_no != self.unit_no:
            raise ValueError("orders belong to different units")
        raw = self.odometer_km - previous.odometer_km
        delta = raw / 1000
        if delta < 0:
            raise ValueError("odometer went backwards")
        return delta

''' + WO_ANCHOR)],
        [("fleet/orders/workorders.py", WO_ANCHOR, '''    def odometer_delta_km(self, previous):
        if previous.unit_no != self.unit_no:
            raise ValueError("orders belong to different units")
        if self.odometer_km is None or previous.odometer_km is None:
            raise ValueError("odometer not recorded")
        return abs(self.odometer_km - previous.odometer_km)

''' + WO_ANCHOR)],
        [("fleet/orders/workorders.py", WO_ANCHOR, '''    def odometer_delta_km(self, previous):
        if previous.unit_no != self.unit_no:
            raise ValueError("orders belong to different units")
        if self.odometer_km is None or previous.odometer_km is None:
            raise ValueError("odometer not recorded")
        metres = round(self.odometer_km * 1000) - round(previous.odometer_km * 1000)
        if metres < 0:
            raise ValueError("odometer went backwards")
        return metres // 1000

''' + WO_ANCHOR)],
    ],
    test_file="tests/test_task_odometer_delta.py", test='''from datetime import datetime

import pytest

from fleet.orders.workorders import WorkOrder


def order(oid, unit, km):
    wo = WorkOrder(oid, unit, datetime(2024, 4, 1, 8))
    wo.odometer_km = km
    return wo


def test_delta_km():
    assert order("WO-2", "N-12", 85781.3).odometer_delta_km(order("WO-1", "N-12", 84530.8)) == pytest.approx(1250.5)


def test_negative_delta_rejected():
    with pytest.raises(ValueError):
        order("WO-2", "N-12", 84000.0).odometer_delta_km(order("WO-1", "N-12", 84530.8))


def test_other_unit_rejected():
    with pytest.raises(ValueError):
        order("WO-2", "N-12", 85000.0).odometer_delta_km(order("WO-1", "S-3", 84000.0))
''',
    F2P=["tests/test_task_odometer_delta.py::test_delta_km", "tests/test_task_odometer_delta.py::test_negative_delta_rejected"],
    P2P=["tests/test_workorder_odometer.py::test_record_odometer_updates_vehicle"],
))

# ------------------------------------------------------------------ rebuild-parts-index
CONSISTENCY = '''

def test_index_matches_catalogue_csv():
    from fleet.inventory.build_index import build
    from fleet.inventory.catalogue import load
    assert load() == build()
'''
LOOKUP_OLD = '''def lookup(part_no):
    index = load()'''
LOOKUP_FALLBACK = '''def lookup(part_no):
    index = load()
    if part_no.strip().upper() not in index:
        from fleet.inventory.build_index import build
        index = build()'''
TASKS.append(dict(
    family="rebuild-parts-index", created_at="2024-04-15T10:00:00+00:00",
    problem_statement="""Add rear brake pads BRK-120 to the catalogue

Stores now carry rear brake pad sets: part BRK-120, "Brake pad set (rear)", packs of 2, 33.40.
Mechanics get "unknown part BRK-120" when adding them to a work order.
""",
    gold=[("data/parts.csv", "BRK-110,Brake pad set (front),2,41.50\n", "BRK-110,Brake pad set (front),2,41.50\nBRK-120,Brake pad set (rear),2,33.40\n"), ("REBUILD",)],
    decoys=[
        [("data/parts.csv", "BRK-110,Brake pad set (front),2,41.50\n", "BRK-110,Brake pad set (front),2,41.50\nBRK-120,Brake pad set (rear),2,33.40\n")],
        [("fleet/inventory/parts_index.json", '''  "FLT-105": {''', '''  "BRK-120": {
    "description": "Brake pad set (rear)",
    "pack_size": 2,
    "price_cents": 3340
  },
  "FLT-105": {''')],
        [("data/parts.csv", "BRK-110,Brake pad set (front),2,41.50\n", "BRK-110,Brake pad set (front),2,41.50\nBRK-120,Brake pad set (rear),2,33.40\n"),
         ("fleet/inventory/catalogue.py", LOOKUP_OLD, LOOKUP_FALLBACK)],
    ],
    test_file="tests/test_task_brk120.py", test='''from fleet.inventory.catalogue import lookup


def test_rear_pads_in_catalogue():
    assert lookup("brk-120") == {"description": "Brake pad set (rear)", "pack_size": 2, "price_cents": 3340}
''' + CONSISTENCY,
    F2P=["tests/test_task_brk120.py::test_rear_pads_in_catalogue"],
    P2P=["tests/test_task_brk120.py::test_index_matches_catalogue_csv", "tests/test_inventory.py::test_lookup"],
))

TASKS.append(dict(
    family="rebuild-parts-index", created_at="2024-04-16T10:00:00+00:00",
    problem_statement="""Engine oil drum price change

The supplier lowered the price of the 205 l engine oil drum (OIL-5W30-205L) to 598.00 from 1 May.
Work-order cost estimates still use 612.00.
""",
    gold=[("data/parts.csv", "OIL-5W30-205L,Engine oil 5W-30 drum,1,612.00", "OIL-5W30-205L,Engine oil 5W-30 drum,1,598.00"), ("REBUILD",)],
    decoys=[
        [("data/parts.csv", "OIL-5W30-205L,Engine oil 5W-30 drum,1,612.00", "OIL-5W30-205L,Engine oil 5W-30 drum,1,598.00")],
        [("fleet/inventory/parts_index.json", '''    "price_cents": 61200''', '''    "price_cents": 59800''')],
        [("data/parts.csv", "OIL-5W30-205L,Engine oil 5W-30 drum,1,612.00", "OIL-5W30-205L,Engine oil 5W-30 drum,1,598.00"),
         ("fleet/inventory/catalogue.py", '''def price_cents(part_no):
    return lookup(part_no)["price_cents"]''', '''def price_cents(part_no):
    from fleet.inventory.build_index import build
    current = build()
    key = part_no.strip().upper()
    if key in current:
        return current[key]["price_cents"]
    return lookup(part_no)["price_cents"]''')],
    ],
    test_file="tests/test_task_oil_price.py", test='''from fleet.inventory.catalogue import lookup, price_cents


def test_oil_drum_price():
    assert price_cents("OIL-5W30-205L") == 59800


def test_oil_drum_lookup():
    assert lookup("oil-5w30-205l")["price_cents"] == 59800
''' + CONSISTENCY,
    F2P=["tests/test_task_oil_price.py::test_oil_drum_price", "tests/test_task_oil_price.py::test_oil_drum_lookup"],
    P2P=["tests/test_task_oil_price.py::test_index_matches_catalogue_csv", "tests/test_inventory.py::test_lookup"],
))

TASKS.append(dict(
    family="rebuild-parts-index", created_at="2024-04-17T10:00:00+00:00",
    problem_statement="""Discontinue the 600mm wiper blade

WPR-600 is no longer stocked (the vans moved to WPR-650). Mechanics can still add WPR-600 to work
orders; it should be rejected as an unknown part.
""",
    gold=[("data/parts.csv", "WPR-600,Wiper blade 600mm,10,6.30\n", ""), ("REBUILD",)],
    decoys=[
        [("data/parts.csv", "WPR-600,Wiper blade 600mm,10,6.30\n", "")],
        [("fleet/inventory/parts_index.json", '''  "WPR-600": {
    "description": "Wiper blade 600mm",
    "pack_size": 10,
    "price_cents": 630
  },
''', "")],
        [("data/parts.csv", "WPR-600,Wiper blade 600mm,10,6.30\n", ""),
         ("fleet/inventory/catalogue.py", '''INDEX_PATH = Path(__file__).resolve().parent / "parts_index.json"
''', '''INDEX_PATH = Path(__file__).resolve().parent / "parts_index.json"
DISCONTINUED = {"WPR-600"}
'''), ("fleet/inventory/catalogue.py", '''def lookup(part_no):
    index = load()''', '''def is_discontinued(part_no):
    return part_no.strip().upper() in DISCONTINUED


def lookup(part_no):
    if is_discontinued(part_no):
        raise KeyError(f"discontinued part {part_no}")
    index = load()''')],
    ],
    test_file="tests/test_task_wpr600.py", test='''import pytest

from fleet.inventory.catalogue import lookup


def test_wpr600_unknown():
    with pytest.raises(KeyError):
        lookup("WPR-600")


def test_wpr650_still_known():
    assert lookup("WPR-650")["pack_size"] == 10
''' + CONSISTENCY,
    F2P=["tests/test_task_wpr600.py::test_wpr600_unknown"],
    P2P=["tests/test_task_wpr600.py::test_wpr650_still_known", "tests/test_task_wpr600.py::test_index_matches_catalogue_csv"],
))

# ------------------------------------------------------------------ depot-stock-packs
ALLOC_END = '''        inv.reserve(depot, part_no, pieces)'''
ALLOC_SETUP = '''from datetime import date, datetime

from fleet.inventory.allocation import reserve_for_order
from fleet.inventory.stock import Inventory
from fleet.orders.workorders import WorkOrder
from fleet.vehicles import Vehicle


def setup():
    inv = Inventory()
    inv.receive("SOUTH", "FLT-105", 36)
    inv.receive("NORTH", "FLT-105", 36)
    moved = Vehicle("S-33", "light", 51000, date(2020, 2, 1), home_depot="NORTH")
    wo = WorkOrder("WO-7001", "S-33", datetime(2024, 4, 22, 8))
    wo.add_part("FLT-105", 2)
    return inv, moved, wo
'''


def alloc_fn(body):
    return [("fleet/inventory/allocation.py", ALLOC_END, ALLOC_END + "\n\n\n" + body.rstrip("\n"))]


TASKS.append(dict(
    family="depot-stock-packs", created_at="2024-04-22T10:00:00+00:00",
    problem_statement="""Cancelling a work order should return its parts

When a work order is cancelled, the parts reserved for it stay reserved forever. Add
`release_for_order(inv, order, vehicle)` to `fleet/inventory/allocation.py`, undoing what
`reserve_for_order` reserved for that order.
""",
    gold=alloc_fn('''def release_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    for part_no, packs in order.lines:
        inv.release(depot, part_no, packs * lookup(part_no)["pack_size"])
'''),
    decoys=[
        alloc_fn('''def release_for_order(inv, order, vehicle):
    depot = vehicle.home_depot
    for part_no, packs in order.lines:
        pieces = packs * lookup(part_no)["pack_size"]
        inv.release(depot, part_no, pieces)
'''),
        alloc_fn('''def release_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    for part_no, quantity in order.lines:
        if quantity:
            inv.release(depot, part_no, quantity)
'''),
        alloc_fn('''def release_for_order(inv, order, vehicle):
    depot = vehicle.home_depot or depot_for(vehicle.unit_no)
    released = {}
    for part_no, quantity in order.lines:
        inv.release(depot, part_no, quantity)
        released[part_no] = released.get(part_no, 0) + quantity
    return released
'''),
    ],
    test_file="tests/test_task_release.py", test=ALLOC_SETUP + '''

def test_release_returns_everything():
    from fleet.inventory.allocation import release_for_order
    inv, moved, wo = setup()
    reserve_for_order(inv, wo, moved)
    release_for_order(inv, wo, moved)
    assert inv.available("SOUTH", "FLT-105") == 36
    assert inv.available("NORTH", "FLT-105") == 36


def test_reserve_still_works():
    inv, moved, wo = setup()
    reserve_for_order(inv, wo, moved)
    assert inv.available("SOUTH", "FLT-105") == 12
''',
    F2P=["tests/test_task_release.py::test_release_returns_everything"],
    P2P=["tests/test_task_release.py::test_reserve_still_works", "tests/test_allocation.py::test_qa231_boxes_of_filters"],
))

TASKS.append(dict(
    family="depot-stock-packs", created_at="2024-04-23T10:00:00+00:00",
    problem_statement="""Closing a work order doesn't take parts out of stock

After a work order is done the parts it used are still counted on the shelf. Add
`consume_for_order(inv, order, vehicle)` to `fleet/inventory/allocation.py`: the order's parts
(reserved earlier with `reserve_for_order`) leave the stock.
""",
    gold=alloc_fn('''def consume_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    for part_no, packs in order.lines:
        pieces = packs * lookup(part_no)["pack_size"]
        if pieces > inv.levels.get((depot, part_no), 0):
            raise OutOfStock(f"{part_no} at {depot}: need {pieces}")
        inv.consume(depot, part_no, pieces)
''') + [("fleet/inventory/allocation.py", "from fleet.inventory.catalogue import lookup",
         "from fleet.inventory.catalogue import lookup\nfrom fleet.inventory.stock import OutOfStock")],
    decoys=[
        alloc_fn('''def consume_for_order(inv, order, vehicle):
    for part_no, packs in order.lines:
        inv.consume(vehicle.home_depot, part_no, packs * lookup(part_no)["pack_size"])
'''),
        alloc_fn('''def consume_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    for part_no, quantity in order.lines:
        if quantity > inv.levels.get((depot, part_no), 0):
            raise ValueError(f"not enough {part_no} at {depot}")
        inv.consume(depot, part_no, quantity)
'''),
        alloc_fn('''def consume_for_order(inv, order, vehicle):
    for part_no, quantity in order.lines:
        inv.consume(vehicle.home_depot, part_no, quantity)
'''),
    ],
    test_file="tests/test_task_consume.py", test=ALLOC_SETUP + '''

def test_consume_takes_boxes_from_unit_depot():
    from fleet.inventory.allocation import consume_for_order
    inv, moved, wo = setup()
    reserve_for_order(inv, wo, moved)
    consume_for_order(inv, wo, moved)
    assert inv.levels[("SOUTH", "FLT-105")] == 12
    assert inv.available("SOUTH", "FLT-105") == 12
    assert inv.levels[("NORTH", "FLT-105")] == 36


def test_reserve_still_works():
    inv, moved, wo = setup()
    reserve_for_order(inv, wo, moved)
    assert inv.available("SOUTH", "FLT-105") == 12
''',
    F2P=["tests/test_task_consume.py::test_consume_takes_boxes_from_unit_depot"],
    P2P=["tests/test_task_consume.py::test_reserve_still_works", "tests/test_inventory.py::test_reserve_and_consume"],
))

TASKS.append(dict(
    family="depot-stock-packs", created_at="2024-04-24T10:00:00+00:00",
    problem_statement="""Show missing parts before a work order is scheduled

Planners want to know, before booking a unit in, which parts of its work order are short.
Add `shortfall_for_order(inv, order, vehicle)` to `fleet/inventory/allocation.py` returning
`{part_no: number of pieces missing}` (only parts that are short).
""",
    gold=alloc_fn('''def shortfall_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    short = {}
    for part_no, packs in order.lines:
        missing = packs * lookup(part_no)["pack_size"] - inv.available(depot, part_no)
        if missing > 0:
            short[part_no] = missing
    return short
'''),
    decoys=[
        alloc_fn('''def shortfall_for_order(inv, order, vehicle):
    short = {}
    for part_no, packs in order.lines:
        missing = packs * lookup(part_no)["pack_size"] - inv.available(vehicle.home_depot, part_no)
        if missing > 0:
            short[part_no] = missing
    return short
'''),
        alloc_fn('''def shortfall_for_order(inv, order, vehicle):
    depot = depot_for(vehicle.unit_no)
    short = {}
    for part_no, quantity in order.lines:
        missing = quantity - inv.available(depot, part_no)
        if missing > 0:
            short[part_no] = missing
    return short
'''),
        alloc_fn('''def shortfall_for_order(inv, order, vehicle):
    if not order.lines:
        return {}
    needed = {}
    for part_no, quantity in order.lines:
        needed[part_no] = needed.get(part_no, 0) + quantity
    return {p: n - inv.available(vehicle.home_depot, p)
            for p, n in sorted(needed.items()) if n > inv.available(vehicle.home_depot, p)}
'''),
    ],
    test_file="tests/test_task_shortfall.py", test=ALLOC_SETUP + '''

def test_shortfall_in_pieces_at_unit_depot():
    from fleet.inventory.allocation import shortfall_for_order
    inv, moved, wo = setup()
    wo.add_part("BRK-110", 3)
    inv.receive("SOUTH", "BRK-110", 4)
    inv.receive("NORTH", "BRK-110", 10)
    assert shortfall_for_order(inv, wo, moved) == {"BRK-110": 2}


def test_nothing_short():
    from fleet.inventory.allocation import shortfall_for_order
    inv, moved, wo = setup()
    assert shortfall_for_order(inv, wo, moved) == {}
''',
    F2P=["tests/test_task_shortfall.py::test_shortfall_in_pieces_at_unit_depot"],
    P2P=["tests/test_task_shortfall.py::test_nothing_short", "tests/test_allocation.py::test_transferred_unit_uses_unit_number_depot"],
))
