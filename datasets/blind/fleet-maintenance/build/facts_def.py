"""The four facts and their oracle memories."""
import json
from pathlib import Path

SHAS = json.loads((Path(__file__).resolve().parent / "shas.json").read_text())
REPO = "acme-fleet/fleet-maintenance"
SESS = {
    "heavy-inspection-days": ["fleet-001-inspection-due-report", "fleet-011-readme-intervals"],
    "telematics-odo-metres": ["fleet-002-telematics-latest-odometer", "fleet-006-workorder-odometer"],
    "rebuild-parts-index": ["fleet-005-add-fuel-filter", "fleet-008-price-update",
                            "fleet-009-price-update-duplicate", "fleet-010-add-wiper-650"],
    "depot-stock-packs": ["fleet-003-stock-allocation", "fleet-004-allocation-review", "fleet-007-qa-pack-quantities"],
}
ENDED = {  # ended_at of the last session showing each memory
    "fleet-011-readme-intervals": "2024-03-27T10:44:00+00:00",
    "fleet-002-telematics-latest-odometer": "2024-03-06T10:29:00+00:00",
    "fleet-006-workorder-odometer": "2024-03-15T11:26:00+00:00",
    "fleet-010-add-wiper-650": "2024-03-26T16:12:00+00:00",
    "fleet-004-allocation-review": "2024-03-11T09:52:00+00:00",
    "fleet-007-qa-pack-quantities": "2024-03-18T15:39:00+00:00",
}


def s(*ids):
    return [{"kind": "session", "ref": i} for i in ids]


def f(path):
    return {"kind": "file", "ref": path, "path": path}


FACTS = [
    {"family": "heavy-inspection-days",
     "fact": "Statutory inspections of heavy vehicles are due every 182 days (a fixed day count from "
             "fleet.inspections.INSPECTION_DAYS / next_inspection, not six calendar months and not the "
             "180-day service interval SERVICE_DAYS); until March 2024 it was 365 days like light vans, and "
             "fleet/planner.py, fleet/notify.py and fleet/reports.py still hard-code 365.",
     "identifiers": ["INSPECTION_DAYS", "next_inspection", "fleet/inspections.py", "182", "SERVICE_DAYS"],
     "kind": "rule_change", "sessions": SESS["heavy-inspection-days"],
     "superseded": {"old": "heavy vehicles inspected every 365 days (same as light)",
                    "new": "heavy vehicles inspected every 182 days", "commit": SHAS["rule_change"]}},
    {"family": "telematics-odo-metres",
     "fact": "In fleet/telematics/ the vendor feed's `odo` column is in metres (parse_rows keeps it raw), so "
             "distances and tolerances in km need odo / 1000; in the work orders (fleet/orders/workorders.py, "
             "formerly fleet/workorders.py) odometer_km is typed in by mechanics and is already kilometres: no conversion.",
     "identifiers": ["odo", "parse_rows", "latest_odometer_km", "/ 1000", "odometer_km", "record_odometer"],
     "kind": "module_only", "sessions": SESS["telematics-odo-metres"], "module": "fleet/telematics"},
    {"family": "rebuild-parts-index",
     "fact": "The parts catalogue is read at runtime from fleet/inventory/parts_index.json, generated from "
             "data/parts.csv: after any change to data/parts.csv run `python -m fleet.inventory.build_index` "
             "and commit the regenerated parts_index.json with the CSV (editing only one of them leaves lookups "
             "or the index stale).",
     "identifiers": ["data/parts.csv", "fleet/inventory/parts_index.json", "python -m fleet.inventory.build_index",
                     "build_index"],
     "kind": "procedure", "sessions": SESS["rebuild-parts-index"]},
    {"family": "depot-stock-packs",
     "fact": "Stock operations for a work order need two things: (1) the depot is depot_for(unit_no) from "
             "fleet/depots.py, never vehicle.home_depot (stale after transfers); (2) work-order line quantities "
             "are packs while Inventory counts pieces, so multiply by lookup(part_no)['pack_size'].",
     "identifiers": ["depot_for", "home_depot", "pack_size", "lookup", "fleet/inventory/allocation.py"],
     "kind": "linked", "sessions": SESS["depot-stock-packs"]},
]

MEMORIES = [
    [{"type": "domain", "scope": {"repo": REPO},
      "summary": "Heavy-vehicle statutory inspections are due every 182 days (INSPECTION_DAYS['heavy'] in "
                 "fleet/inspections.py, use next_inspection); this replaced the old 365-day rule in March 2024. "
                 "It is a fixed day count, not six calendar months, and not the 180-day SERVICE_DAYS service "
                 "interval. Code that hard-codes 365 days for inspections (planner, notify, reports) is stale.",
      "conditions": ["computing inspection due dates", "heavy vehicles"],
      "citations": s(*SESS["heavy-inspection-days"]) + [f("fleet/inspections.py")],
      "created_at": ENDED["fleet-011-readme-intervals"]}],
    [{"type": "domain", "scope": {"repo": REPO, "module": "fleet/telematics"},
      "summary": "In fleet/telematics the feed's `odo` values (kept raw by parse_rows) are metres: divide by 1000 "
                 "for kilometres, e.g. latest_odometer_km, trip distances and km tolerances.",
      "conditions": ["working with telematics rows", "odometer distances or tolerances in km"],
      "citations": s("fleet-002-telematics-latest-odometer") + [f("fleet/telematics/importer.py")],
      "created_at": ENDED["fleet-002-telematics-latest-odometer"]},
     {"type": "domain", "scope": {"repo": REPO, "module": "fleet/orders"},
      "summary": "Work-order odometer values (WorkOrder.odometer_km, record_odometer) are kilometres typed in by "
                 "mechanics; do not apply the telematics metres-to-km division there. The module moved from "
                 "fleet/workorders.py to fleet/orders/workorders.py.",
      "conditions": ["work order odometer"],
      "citations": s("fleet-006-workorder-odometer") + [f("fleet/orders/workorders.py")],
      "created_at": ENDED["fleet-006-workorder-odometer"]}],
    [{"type": "procedural", "scope": {"repo": REPO},
      "summary": "After editing data/parts.csv, run `python -m fleet.inventory.build_index` to regenerate "
                 "fleet/inventory/parts_index.json and commit both; catalogue.lookup reads only the JSON index.",
      "conditions": ["adding, repricing or removing catalogue parts"],
      "citations": s(*SESS["rebuild-parts-index"]) + [f("data/parts.csv"), f("fleet/inventory/build_index.py")],
      "created_at": ENDED["fleet-010-add-wiper-650"]}],
    [{"type": "domain", "scope": {"repo": REPO},
      "summary": "Inventory stock for a unit is held at depot_for(unit_no) (fleet/depots.py); vehicle.home_depot "
                 "is stale after transfers and must not be used for stock.",
      "conditions": ["reserving, releasing, consuming or checking stock for a vehicle"],
      "citations": s("fleet-003-stock-allocation", "fleet-004-allocation-review") + [f("fleet/inventory/allocation.py")],
      "created_at": ENDED["fleet-004-allocation-review"],
      "links": [{"relation": "related", "target": "work-order quantities are packs: multiply by pack_size"}]},
     {"type": "failure", "scope": {"repo": REPO},
      "summary": "Work-order line quantities are packs (what mechanics take off the shelf) while Inventory counts "
                 "pieces: convert with packs * lookup(part_no)['pack_size'] before touching stock (QA-231).",
      "conditions": ["moving stock for work-order lines"],
      "citations": s("fleet-007-qa-pack-quantities") + [f("fleet/inventory/allocation.py")],
      "created_at": ENDED["fleet-007-qa-pack-quantities"],
      "links": [{"relation": "related", "target": "stock is held at depot_for(unit_no), not home_depot"}]}],
]
