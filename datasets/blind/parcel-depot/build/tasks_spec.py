"""The 12 evaluation tasks: naive bases, test patches, gold patches and decoys."""


def edit(path, old, new):
    return ("edit", path, old, new)


def write(path, text):
    return ("write", path, text)


REGEN = ("regen",)

TASKS = []


def task(**kw):
    TASKS.append(kw)


# =============================================================================================
# family cutoff (rule_change): same-day only strictly before 14:00 since 2 March
# =============================================================================================
COLLECTION = '''"""Collection points: parcels dropped at a partner shop are picked up by the van."""
from datetime import datetime, timedelta

from depot.delivery_slots import SAME_DAY_CUTOFF

PICKUP_WEEKDAYS = (0, 1, 2, 3, 4, 5)  # collection points are served Monday to Saturday


def pickup_date(dropped_at: datetime):
    day = dropped_at.date()
    if day.weekday() in PICKUP_WEEKDAYS and dropped_at.time() <= SAME_DAY_CUTOFF:
        return day
    day += timedelta(days=1)
    while day.weekday() not in PICKUP_WEEKDAYS:
        day += timedelta(days=1)
    return day
'''

task(n=1, family="cutoff", position=1, created_at="2026-03-23T10:20:00+01:00",
     branch="feature/collection-points", base_who="ruud", base_date="2026-03-23T09:05:00+01:00",
     base_message="collection points: pickup day for parcels dropped at a partner shop",
     base_changes=[write("depot/collection.py", COLLECTION), write("tests/test_collection.py", '''from datetime import date

from depot.collection import pickup_date
from tests.helpers import at


def test_morning_drop_same_day():
    assert pickup_date(at("2026-03-24T09:00")) == date(2026, 3, 24)


def test_sunday_drop_goes_monday():
    assert pickup_date(at("2026-03-29T11:00")) == date(2026, 3, 30)
''')],
     tests=[edit("tests/test_collection.py", '''def test_sunday_drop_goes_monday():''', '''def test_drop_at_cutoff_goes_next_day():
    assert pickup_date(at("2026-03-24T14:00")) == date(2026, 3, 25)


def test_saturday_at_cutoff_goes_monday():
    assert pickup_date(at("2026-03-28T14:00")) == date(2026, 3, 30)


def test_saturday_morning_same_day():
    assert pickup_date(at("2026-03-28T10:00")) == date(2026, 3, 28)


def test_just_before_cutoff_same_day():
    assert pickup_date(at("2026-03-24T13:59:59")) == date(2026, 3, 24)


def test_sunday_drop_goes_monday():''')],
     gold=[edit("depot/collection.py", "dropped_at.time() <= SAME_DAY_CUTOFF", "dropped_at.time() < SAME_DAY_CUTOFF")],
     decoys=[
         [edit("depot/collection.py", "from datetime import datetime, timedelta", "from datetime import datetime, time, timedelta"),
          edit("depot/collection.py", "from depot.delivery_slots import SAME_DAY_CUTOFF\n", ""),
          edit("depot/collection.py", "PICKUP_WEEKDAYS = (0, 1, 2, 3, 4, 5)  # collection points are served Monday to Saturday\n",
               "PICKUP_WEEKDAYS = (0, 1, 2, 3, 4, 5)  # collection points are served Monday to Saturday\nLAST_PICKUP = time(13, 59)\n"),
          edit("depot/collection.py", "dropped_at.time() <= SAME_DAY_CUTOFF", "dropped_at.time() <= LAST_PICKUP")],
         [edit("depot/collection.py", "from datetime import datetime, timedelta\n", "from datetime import datetime\n"),
          edit("depot/collection.py", "from depot.delivery_slots import SAME_DAY_CUTOFF", "from depot.delivery_slots import dispatch_date"),
          edit("depot/collection.py", '''    day = dropped_at.date()
    if day.weekday() in PICKUP_WEEKDAYS and dropped_at.time() <= SAME_DAY_CUTOFF:
        return day
    day += timedelta(days=1)
    while day.weekday() not in PICKUP_WEEKDAYS:
        day += timedelta(days=1)
    return day''', '''    return dispatch_date(dropped_at)''')],
         [edit("depot/collection.py", "from datetime import datetime, timedelta", "from datetime import datetime, time, timedelta"),
          edit("depot/collection.py", "PICKUP_WEEKDAYS = (0, 1, 2, 3, 4, 5)  # collection points are served Monday to Saturday\n",
               "PICKUP_WEEKDAYS = (0, 1, 2, 3, 4, 5)  # collection points are served Monday to Saturday\nSATURDAY_CUTOFF = time(12, 0)\n"),
          edit("depot/collection.py", '''    day = dropped_at.date()
    if day.weekday() in PICKUP_WEEKDAYS and dropped_at.time() <= SAME_DAY_CUTOFF:''', '''    day = dropped_at.date()
    cutoff = SATURDAY_CUTOFF if day.weekday() == 5 else SAME_DAY_CUTOFF
    if day.weekday() in PICKUP_WEEKDAYS and dropped_at.time() <= cutoff:''')],
     ],
     problem="""Collection points: pickup promised for a van that has already left

Partner shops report that the pickup day printed on the drop-off receipt (`collection.pickup_date`) is sometimes "today" although the van has already been loaded, so the parcel spends the night in the shop and the customer's tracking promise is a day early. It happens with parcels dropped off in the early afternoon. A parcel handed in at the depot counter at the same moment gets the right day. Saturday service (collection points are served Monday to Saturday) must keep working.""")

EXPRESS = '''"""Express: customers can pay to have a parcel delivered on the day it is handed in."""
from datetime import date, datetime

from depot.delivery_slots import SAME_DAY_CUTOFF

EXPRESS_FEE_CENTS = 795
LATE_EXPRESS_FEE_CENTS = 1590  # special courier run once the vans have gone


def can_go_today(intake_at: datetime) -> bool:
    return intake_at.weekday() < 5 and intake_at.time() <= SAME_DAY_CUTOFF


def express_fee_cents(intake_at: datetime, requested_day: date) -> int:
    if requested_day != intake_at.date():
        return 0
    if intake_at.time() > SAME_DAY_CUTOFF:
        return LATE_EXPRESS_FEE_CENTS
    return EXPRESS_FEE_CENTS
'''

task(n=2, family="cutoff", position=2, created_at="2026-03-27T10:40:00+01:00",
     branch="feature/express-fee", base_who="ruud", base_date="2026-03-27T09:10:00+01:00",
     base_message="express: same-day express fee at the counter",
     base_changes=[write("depot/express.py", EXPRESS), write("tests/test_express.py", '''from datetime import date

from depot import express
from tests.helpers import at


def test_morning_express_fee():
    assert express.express_fee_cents(at("2026-03-24T09:00"), date(2026, 3, 24)) == 795


def test_no_fee_for_later_day():
    assert express.express_fee_cents(at("2026-03-24T09:00"), date(2026, 3, 25)) == 0


def test_late_run_fee():
    assert express.express_fee_cents(at("2026-03-24T15:00"), date(2026, 3, 24)) == 1590


def test_can_go_today():
    assert express.can_go_today(at("2026-03-24T09:00"))
    assert not express.can_go_today(at("2026-03-28T09:00"))
''')],
     tests=[edit("tests/test_express.py", '''def test_can_go_today():''', '''def test_fee_at_cutoff_is_late_run():
    assert express.express_fee_cents(at("2026-03-24T14:00"), date(2026, 3, 24)) == 1590


def test_cannot_go_today_at_cutoff():
    assert not express.can_go_today(at("2026-03-24T14:00"))


def test_just_before_cutoff():
    assert express.express_fee_cents(at("2026-03-24T13:59:30"), date(2026, 3, 24)) == 795
    assert express.can_go_today(at("2026-03-24T13:59:30"))


def test_can_go_today():''')],
     gold=[edit("depot/express.py", "intake_at.time() <= SAME_DAY_CUTOFF", "intake_at.time() < SAME_DAY_CUTOFF"),
           edit("depot/express.py", "intake_at.time() > SAME_DAY_CUTOFF", "intake_at.time() >= SAME_DAY_CUTOFF")],
     decoys=[
         [edit("depot/express.py", "intake_at.time() <= SAME_DAY_CUTOFF", "intake_at.time() < SAME_DAY_CUTOFF")],
         [edit("depot/express.py", "from datetime import date, datetime\n", "from datetime import date, datetime, time\n"),
          edit("depot/express.py", "from depot.delivery_slots import SAME_DAY_CUTOFF\n", ""),
          edit("depot/express.py", "LATE_EXPRESS_FEE_CENTS = 1590  # special courier run once the vans have gone\n",
               "LATE_EXPRESS_FEE_CENTS = 1590  # special courier run once the vans have gone\nLAST_MINUTE = time(13, 59)\n"),
          edit("depot/express.py", "intake_at.time() <= SAME_DAY_CUTOFF", "intake_at.time() <= LAST_MINUTE"),
          edit("depot/express.py", "intake_at.time() > SAME_DAY_CUTOFF", "intake_at.time() > LAST_MINUTE")],
         [edit("depot/express.py", '''def can_go_today(intake_at: datetime) -> bool:
    return intake_at.weekday() < 5 and intake_at.time() <= SAME_DAY_CUTOFF''', '''def _local_time(intake_at: datetime):
    return intake_at.replace(tzinfo=None).time()


def can_go_today(intake_at: datetime) -> bool:
    return intake_at.weekday() < 5 and _local_time(intake_at) <= SAME_DAY_CUTOFF'''),
          edit("depot/express.py", "    if intake_at.time() > SAME_DAY_CUTOFF:\n", "    if not can_go_today(intake_at):\n")],
     ],
     problem="""Express: customers charged the normal express fee for parcels that can't go today

Counter staff report that some customers asking for same-day express in the early afternoon are charged the normal €7.95 and the till says the parcel can go today, but it only leaves with the next morning's van. Those customers should have been offered the late courier run (€15.90) instead. Morning express and the late run after 15:00 work as expected.""")

RETURNS = '''"""Returns: the van collects a return parcel at the customer's door."""
from datetime import datetime, timedelta

from depot.delivery_slots import SAME_DAY_CUTOFF, SLOTS


def return_pickup(booked_at: datetime):
    """Day and window in which the van collects a return booked at `booked_at`."""
    day = booked_at.date()
    if day.weekday() < 5 and booked_at.time() <= SAME_DAY_CUTOFF:
        return day, SLOTS[2]
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day, SLOTS[0]
'''

task(n=3, family="cutoff", position=3, created_at="2026-04-03T11:00:00+02:00",
     branch="feature/returns-pickup", base_who="ruud", base_date="2026-04-03T09:30:00+02:00",
     base_message="returns: book a van pickup for a return parcel",
     base_changes=[write("depot/returns.py", RETURNS), write("tests/test_returns.py", '''from datetime import date

from depot.returns import return_pickup
from tests.helpers import at


def test_morning_booking_same_evening():
    assert return_pickup(at("2026-04-07T09:00")) == (date(2026, 4, 7), "16:00-20:00")


def test_friday_evening_goes_monday():
    assert return_pickup(at("2026-04-10T18:00")) == (date(2026, 4, 13), "08:00-12:00")
''')],
     tests=[edit("tests/test_returns.py", '''def test_friday_evening_goes_monday():''', '''def test_booking_at_cutoff_next_morning():
    assert return_pickup(at("2026-04-07T14:00")) == (date(2026, 4, 8), "08:00-12:00")


def test_booking_just_before_cutoff():
    assert return_pickup(at("2026-04-07T13:59:30")) == (date(2026, 4, 7), "16:00-20:00")


def test_saturday_booking_goes_monday():
    assert return_pickup(at("2026-04-11T09:00")) == (date(2026, 4, 13), "08:00-12:00")


def test_friday_evening_goes_monday():''')],
     gold=[edit("depot/returns.py", '''from datetime import datetime, timedelta

from depot.delivery_slots import SAME_DAY_CUTOFF, SLOTS''', '''from datetime import datetime

from depot.delivery_slots import next_slot'''),
           edit("depot/returns.py", '''    day = booked_at.date()
    if day.weekday() < 5 and booked_at.time() <= SAME_DAY_CUTOFF:
        return day, SLOTS[2]
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day, SLOTS[0]''', '''    return next_slot(booked_at)''')],
     decoys=[
         [edit("depot/returns.py", "booked_at.time() <= SAME_DAY_CUTOFF",
               "booked_at.replace(second=0, microsecond=0).time() <= SAME_DAY_CUTOFF")],
         [edit("depot/returns.py", "from datetime import datetime, timedelta\n", "from datetime import datetime, time, timedelta\n"),
          edit("depot/returns.py", "booked_at.time() <= SAME_DAY_CUTOFF", "booked_at.time() <= time(13, 59)")],
         [edit("depot/returns.py", '''from datetime import datetime, timedelta

from depot.delivery_slots import SAME_DAY_CUTOFF, SLOTS''', '''from datetime import datetime, time, timedelta

from depot.delivery_slots import SLOTS

RETURNS_CUTOFF = time(14, 0)'''),
          edit("depot/returns.py", "booked_at.time() <= SAME_DAY_CUTOFF", "booked_at.time() <= RETURNS_CUTOFF")],
     ],
     problem="""Returns: van sent for pickups it can no longer do

Customers who book a return pickup in the early afternoon are told the van comes this evening (16:00-20:00), but that evening's van is already loaded and the drivers don't have the pickup on their list, so the customer waits in vain. Morning bookings and weekend bookings are fine. Return pickups should follow the same day and window logic as our deliveries.""")

# =============================================================================================
# family weights (module_only): kg Decimal 3 dp inside depot/customs only; integer grams elsewhere
# =============================================================================================
task(n=4, family="weights", position=1, created_at="2026-03-24T10:30:00+01:00",
     branch="feature/cn23-tare", base_who="ruud", base_date="2026-03-24T09:15:00+01:00",
     base_message="customs: tare weight on the declaration",
     base_changes=[edit("depot/customs.py", '''        "net_weight_kg": str(grams_to_kg(net_g)),
        "items": [''', '''        "net_weight_kg": str(grams_to_kg(net_g)),
        "tare_kg": parcel.weight_g - net_g,
        "items": [''')],
     tests=[edit("tests/test_customs.py", '''def test_declaration_weight_in_kg():''', '''def test_tare_weight():
    p = make_parcel(country="US", weight_g=1700,
                    items=[item("mug", qty=3, weight_g=250), item("book", weight_g=500)])
    decl = customs.declaration(p)
    assert decl["tare_kg"] == "0.450"
    assert decl["gross_weight_kg"] == "1.700"


def test_declaration_weight_in_kg():''')],
     gold=[edit("depot/customs.py", '''        "tare_kg": parcel.weight_g - net_g,''', '''        "tare_kg": str(grams_to_kg(parcel.weight_g - net_g)),''')],
     decoys=[
         [edit("depot/customs.py", '''def needs_declaration(parcel) -> bool:''', '''def _kg(grams: int) -> str:
    return f"{grams / 1000:.2f}"


def needs_declaration(parcel) -> bool:'''),
          edit("depot/customs.py", '''        "tare_kg": parcel.weight_g - net_g,''', '''        "tare_kg": _kg(parcel.weight_g - net_g),''')],
         [edit("depot/customs.py", '''    net_g = sum(item.weight_g * item.quantity for item in parcel.items)
    return {''', '''    net_g = sum(item.weight_g * item.quantity for item in parcel.items)
    tare_g = parcel.weight_g - net_g
    tare_kg = round(tare_g / 1000, 3)
    return {'''),
          edit("depot/customs.py", '''        "tare_kg": parcel.weight_g - net_g,''', '''        "tare_kg": tare_kg,''')],
         [edit("depot/customs.py", '''    net_g = sum(item.weight_g * item.quantity for item in parcel.items)
    return {''', '''    net_g = sum(item.weight_g * item.quantity for item in parcel.items)
    tare_g = max(0, parcel.weight_g - net_g)
    return {'''),
          edit("depot/customs.py", '''        "tare_kg": parcel.weight_g - net_g,''', '''        "tare_g": tare_g,''')],
     ],
     problem="""CN23 upload rejected: "tare weight: invalid format"

Since the tare field was added to the declaration, the customs portal rejects our CN23 uploads with `tare weight: invalid format`. Example: a parcel of 1700 g gross holding 3 mugs of 250 g and a 500 g book. The gross and net weights of the same declaration are accepted by the portal.""")

task(n=5, family="weights", position=2, created_at="2026-03-30T10:15:00+02:00",
     branch="feature/handover-summary", base_who="ruud", base_date="2026-03-30T09:00:00+02:00",
     base_message="manifest: handover summary for the courier tablet",
     base_changes=[edit("depot/manifest.py", '''from depot.sorting import assign_route, stop_order
''', '''from depot.customs import grams_to_kg
from depot.sorting import assign_route, stop_order
'''), edit("depot/manifest.py", '''def manifest_totals(parcels, route) -> dict:''', '''def handover_summary(parcels, route) -> dict:
    chosen = parcels_for_route(parcels, route)
    heaviest = max(chosen, key=lambda p: p.weight_g, default=None)
    return {
        "route": route,
        "parcels": len(chosen),
        "heaviest_parcel": heaviest.parcel_id if heaviest else None,
        "heaviest_weight": grams_to_kg(heaviest.weight_g) if heaviest else None,
        "two_person_lifts": sum(1 for p in chosen if grams_to_kg(p.weight_g) > 20),
    }


def manifest_totals(parcels, route) -> dict:''')],
     tests=[edit("tests/test_manifest.py", '''def test_totals_in_grams():''', '''def test_handover_summary():
    ps = [make_parcel(parcel_id="A", weight_g=1800), make_parcel(parcel_id="B", weight_g=800),
          make_parcel(parcel_id="C", weight_g=25000, postcode="3011 AA")]
    s = manifest.handover_summary(ps, "AMS-2")
    assert s["heaviest_parcel"] == "A"
    assert s["heaviest_weight"] == 1800
    assert isinstance(s["heaviest_weight"], int)


def test_handover_two_person_lifts():
    ps = [make_parcel(parcel_id="A", weight_g=21000), make_parcel(parcel_id="B", weight_g=20000)]
    assert manifest.handover_summary(ps, "AMS-2")["two_person_lifts"] == 1


def test_handover_empty_route():
    assert manifest.handover_summary([], "AMS-2")["heaviest_weight"] is None


def test_totals_in_grams():''')],
     gold=[edit("depot/manifest.py", "from depot.customs import grams_to_kg\n", ""),
           edit("depot/manifest.py", '''        "heaviest_weight": grams_to_kg(heaviest.weight_g) if heaviest else None,
        "two_person_lifts": sum(1 for p in chosen if grams_to_kg(p.weight_g) > 20),''', '''        "heaviest_weight": heaviest.weight_g if heaviest else None,
        "two_person_lifts": sum(1 for p in chosen if p.weight_g > 20000),''')],
     decoys=[
         [edit("depot/manifest.py", '''        "heaviest_weight": grams_to_kg(heaviest.weight_g) if heaviest else None,''',
               '''        "heaviest_weight": float(grams_to_kg(heaviest.weight_g)) if heaviest else None,''')],
         [edit("depot/manifest.py", '''def handover_summary(parcels, route) -> dict:''', '''def _tablet_weight(grams: int) -> str:
    return f"{grams_to_kg(grams)} kg"


def handover_summary(parcels, route) -> dict:'''),
          edit("depot/manifest.py", '''    heaviest = max(chosen, key=lambda p: p.weight_g, default=None)
    return {''', '''    heaviest = max(chosen, key=lambda p: p.weight_g, default=None)
    heaviest_weight = _tablet_weight(heaviest.weight_g) if heaviest else None
    return {'''),
          edit("depot/manifest.py", '''        "heaviest_weight": grams_to_kg(heaviest.weight_g) if heaviest else None,''',
               '''        "heaviest_weight": heaviest_weight,
        "weight_unit": "kg",''')],
         [edit("depot/manifest.py", "from depot.customs import grams_to_kg\n", ""),
          edit("depot/manifest.py", '''    heaviest = max(chosen, key=lambda p: p.weight_g, default=None)
    return {''', '''    heaviest = max(chosen, key=lambda p: p.weight_g, default=None)
    heaviest_kg = heaviest.weight_g // 1000 if heaviest else None
    return {'''),
          edit("depot/manifest.py", '''        "heaviest_weight": grams_to_kg(heaviest.weight_g) if heaviest else None,
        "two_person_lifts": sum(1 for p in chosen if grams_to_kg(p.weight_g) > 20),''', '''        "heaviest_weight": heaviest_kg,
        "two_person_lifts": sum(1 for p in chosen if p.weight_g / 1000 > 20),''')],
     ],
     problem="""Handover summary: tablet thinks the heaviest parcel weighs almost nothing

The courier tablet reads the new `manifest.handover_summary()` to decide who carries the heaviest parcel. For an 1800 g parcel it shows "1.800" and then treats it as 1.8 g, so nobody is warned. The tablet reads every other manifest figure correctly.""")

task(n=6, family="weights", position=3, created_at="2026-04-07T10:45:00+02:00",
     branch="feature/web-intake-kg", base_who="ruud", base_date="2026-04-07T09:20:00+02:00",
     base_message="intake: accept weight_kg from the web booking form",
     base_changes=[edit("depot/intake.py", '''def intake(raw: dict) -> Parcel:
    try:''', '''def intake(raw: dict) -> Parcel:
    if "weight_kg" in raw and "weight_g" not in raw:
        raw = {**raw, "weight_g": raw["weight_kg"]}
    try:''')],
     tests=[edit("tests/test_intake.py", '''def test_intake_rejects_overweight():''', '''def test_web_form_weight_kg():
    data = raw()
    del data["weight_g"]
    data["weight_kg"] = "1.25"
    p = intake(data)
    assert p.weight_g == 1250
    assert isinstance(p.weight_g, int)


def test_web_form_weight_kg_grams_exact():
    data = raw()
    del data["weight_g"]
    for text, grams in (("1.001", 1001), ("0.8", 800), ("2.3", 2300)):
        data["weight_kg"] = text
        assert intake(data).weight_g == grams


def test_intake_rejects_overweight():''')],
     gold=[edit("depot/intake.py", "from datetime import datetime\n", "from datetime import datetime\nfrom decimal import ROUND_HALF_UP, Decimal, InvalidOperation\n"),
           edit("depot/intake.py", '''def intake(raw: dict) -> Parcel:''', '''def _grams_from_kg(text) -> int:
    try:
        grams = Decimal(str(text).strip()) * 1000
    except InvalidOperation:
        raise IntakeError(f"bad weight_kg: {text!r}") from None
    return int(grams.to_integral_value(rounding=ROUND_HALF_UP))


def intake(raw: dict) -> Parcel:'''),
           edit("depot/intake.py", '''        raw = {**raw, "weight_g": raw["weight_kg"]}''', '''        raw = {**raw, "weight_g": _grams_from_kg(raw["weight_kg"])}''')],
     decoys=[
         [edit("depot/intake.py", '''        raw = {**raw, "weight_g": raw["weight_kg"]}''', '''        raw = {**raw, "weight_g": int(float(raw["weight_kg"]) * 1000)}''')],
         [edit("depot/intake.py", "from datetime import datetime\n", "from datetime import datetime\nfrom decimal import Decimal\n"),
          edit("depot/intake.py", '''        raw = {**raw, "weight_g": raw["weight_kg"]}''', '''        raw = {**raw, "weight_g": Decimal(raw["weight_kg"]).quantize(Decimal("0.001"))}''')],
         [edit("depot/intake.py", '''        raw = {**raw, "weight_g": raw["weight_kg"]}''', '''        kg = float(raw["weight_kg"])
        raw = {**raw, "weight_g": kg * 1000}''')],
     ],
     problem="""Web booking form parcels fail intake or get the wrong weight

The new web booking form sends the weight the customer typed as `weight_kg` (a string such as "1.25") instead of `weight_g`. Since it went live, these bookings fail intake with "missing or bad measurement", and the first attempts at a fix gave some parcels a weight that is a gram off, which changes their billable weight. Every web booking should end up with the same parcel weight as a counter booking of the same parcel.""")

# =============================================================================================
# family routes (procedure): edit routes.csv, run python -m depot.tools.build_routes, commit both
# =============================================================================================
RELAX_OLD = '''    if index["source_sha256"] != digest:
        raise StaleIndexError(
            f"routes_index.json was built from another routes.csv "
            f"(index {index['source_sha256'][:12]}, csv {digest[:12]})"
        )
    return index'''

task(n=7, family="routes", position=1, created_at="2026-03-25T09:30:00+01:00", branch=None,
     tests=[edit("tests/test_sorting.py", '''def test_international_and_unrouted():''', '''def test_almere_poort_route():
    assert sorting.assign_route(make_parcel(postcode="1359 AB")) == "ALM-1"
    assert sorting.stop_order(make_parcel(postcode="1359 AB")) == 10


def test_almere_poort_in_routes_table():
    assert build_routes.build()["prefixes"]["1359"] == {"route": "ALM-1", "stop": 10}


def test_international_and_unrouted():''')],
     gold=[edit("depot/data/routes.csv", "110,AMS-4,50\n", "110,AMS-4,50\n1359,ALM-1,10\n"), REGEN],
     decoys=[
         [edit("depot/data/routes.csv", "110,AMS-4,50\n", "110,AMS-4,50\n1359,ALM-1,10\n")],
         [edit("depot/data/routes.csv", "110,AMS-4,50\n", "110,AMS-4,50\n1359,ALM-1,10\n"),
          edit("depot/data/routes_index.json", '''    "30": {\n''', '''    "1359": {\n      "route": "ALM-1",\n      "stop": 10\n    },\n    "30": {\n''')],
         [edit("depot/sorting.py", '''class StaleIndexError(RuntimeError):''', '''EXTRA_PREFIXES = {"1359": {"route": "ALM-1", "stop": 10}}


class StaleIndexError(RuntimeError):'''),
          edit("depot/sorting.py", '''        )
    return index''', '''        )
    index["prefixes"].update(EXTRA_PREFIXES)
    return index''')],
     ],
     problem="""Almere-Poort parcels end up in the manual cage

Parcels for Almere-Poort (postcodes 1359 xx) come out of sorting as UNROUTED. Ops has put them on the new van ALM-1, where they are stop 10. The route list ops exports for the drivers must show them too.""")

task(n=8, family="routes", position=2, created_at="2026-03-31T09:45:00+02:00", branch=None,
     tests=[edit("tests/test_sorting.py", '''def test_international_and_unrouted():''', '''def test_leidsche_rijn_route():
    assert sorting.assign_route(make_parcel(postcode="3543 CD")) == "UTR-4"
    assert sorting.stop_order(make_parcel(postcode="3543 CD")) == 50
    assert sorting.assign_route(make_parcel(postcode="3512 JK")) == "UTR-1"


def test_leidsche_rijn_in_routes_table():
    assert build_routes.build()["prefixes"]["354"] == {"route": "UTR-4", "stop": 50}


def test_international_and_unrouted():''')],
     gold=[edit("depot/data/routes.csv", "352,UTR-3,40\n", "352,UTR-3,40\n354,UTR-4,50\n"), REGEN],
     decoys=[
         [edit("depot/data/routes.csv", "352,UTR-3,40\n", "352,UTR-3,40\n354,UTR-4,50\n")],
         [edit("depot/data/routes.csv", "352,UTR-3,40\n", "352,UTR-3,40\n354,UTR-4,50\n"),
          edit("depot/sorting.py", '''import json
from pathlib import Path
''', '''import json
import logging
from pathlib import Path

from depot.tools import build_routes
'''),
          edit("depot/sorting.py", '''INDEX_PATH = DATA / "routes_index.json"
''', '''INDEX_PATH = DATA / "routes_index.json"
log = logging.getLogger(__name__)
'''),
          edit("depot/sorting.py", RELAX_OLD, '''    if index["source_sha256"] != digest:
        log.warning("routes_index.json is stale, rebuilding from %s", CSV_PATH.name)
        index = build_routes.build(CSV_PATH)
    return index''')],
         [edit("depot/data/routes.csv", "352,UTR-3,40\n", "352,UTR-3,40\n354,UTR-4,50\n"),
          edit("depot/data/routes_index.json", '''      "route": "UTR-3",\n      "stop": 40\n    }\n''',
               '''      "route": "UTR-3",\n      "stop": 40\n    },\n    "354": {\n      "route": "UTR-4",\n      "stop": 50\n    }\n'''),
          edit("depot/sorting.py", '''import json
''', '''import json
import warnings
'''),
          edit("depot/sorting.py", RELAX_OLD, '''    if index["source_sha256"] != digest:
        warnings.warn(
            f"routes_index.json is older than routes.csv "
            f"(index {index['source_sha256'][:12]}, csv {digest[:12]})"
        )
    return index''')],
     ],
     problem="""Leidsche Rijn parcels loaded on the wrong Utrecht van

Since the new UTR-4 van started this week, parcels for Leidsche Rijn (postcodes 3540-3549) should go on UTR-4 as stop 50, but sorting still puts them on UTR-1 and the UTR-1 driver has to hand them over at the depot gate. The route list ops exports for the drivers must show the change too.""")

task(n=9, family="routes", position=3, created_at="2026-04-08T09:30:00+02:00", branch=None,
     tests=[edit("tests/test_sorting.py", '''def test_international_and_unrouted():''', '''def test_rotterdam_noord_first_stop():
    assert sorting.assign_route(make_parcel(postcode="3111 AA")) == "RTM-2"
    assert sorting.stop_order(make_parcel(postcode="3111 AA")) == 5


def test_rotterdam_noord_in_routes_table():
    assert build_routes.build()["prefixes"]["31"] == {"route": "RTM-2", "stop": 5}


def test_international_and_unrouted():''')],
     gold=[edit("depot/data/routes.csv", "31,RTM-2,20\n", "31,RTM-2,5\n"), REGEN],
     decoys=[
         [edit("depot/data/routes.csv", "31,RTM-2,20\n", "31,RTM-2,5\n"),
          edit("depot/sorting.py", '''from pathlib import Path
''', '''from pathlib import Path

from depot.tools import build_routes
'''),
          edit("depot/sorting.py", RELAX_OLD, '''    if index["source_sha256"] != digest:
        index = build_routes.build(CSV_PATH)
    return index''')],
         [edit("depot/data/routes.csv", "31,RTM-2,20\n", "31,RTM-2,5\n"),
          edit("depot/data/routes_index.json", '''      "route": "RTM-2",\n      "stop": 20\n''', '''      "route": "RTM-2",\n      "stop": 5\n'''),
          edit("depot/sorting.py", '''import json
''', '''import json
import warnings
'''),
          edit("depot/sorting.py", RELAX_OLD, '''    if index["source_sha256"] != digest:
        warnings.warn(
            f"routes_index.json is older than routes.csv "
            f"(index {index['source_sha256'][:12]}, csv {digest[:12]})"
        )
    return index''')],
         [edit("depot/sorting.py", '''class StaleIndexError(RuntimeError):''', '''STOP_OVERRIDES = {"31": 5}


def _apply_overrides(index: dict) -> dict:
    for prefix, stop in STOP_OVERRIDES.items():
        if prefix in index["prefixes"]:
            index["prefixes"][prefix] = {**index["prefixes"][prefix], "stop": stop}
    return index


class StaleIndexError(RuntimeError):'''),
          edit("depot/sorting.py", '''        )
    return index''', '''        )
    return _apply_overrides(index)''')],
     ],
     problem="""RTM-2 manifest lists Rotterdam-Noord last

Ops re-planned the RTM-2 van: it now starts in Rotterdam-Noord (postcodes 31xx), which is stop 5. The RTM-2 manifests still list those parcels after the others, so the driver loads them at the front of the van. The route list ops exports for the drivers must show the new stop as well.""")

# =============================================================================================
# family fx (linked): convert declared values to EUR with fx.to_eur_cents AND the intake-day rate
# =============================================================================================
task(n=10, family="fx", position=1, created_at="2026-03-26T10:00:00+01:00",
     branch="feature/high-value-limit", base_who="ruud", base_date="2026-03-26T09:00:00+01:00",
     base_message="intake: refuse parcels declared above the 5000 EUR insurance limit",
     base_changes=[edit("depot/intake.py", '''MAX_SIDE_CM = 175
''', '''MAX_SIDE_CM = 175
MAX_DECLARED_EUR_CENTS = 500000
'''), edit("depot/intake.py", '''    intake_at = raw.get("intake_at")
    return Parcel(''', '''    intake_at = raw.get("intake_at")
    declared = int(raw.get("declared_value_cents", 0))
    if declared > MAX_DECLARED_EUR_CENTS:
        raise IntakeError(f"declared value {declared} cents is above the insurance limit")
    return Parcel('''), edit("depot/intake.py", '''        declared_value_cents=int(raw.get("declared_value_cents", 0)),''', '''        declared_value_cents=declared,'''),
         edit("tests/test_intake.py", '''def test_intake_rejects_overweight():''', '''def test_high_value_refused():
    with pytest.raises(IntakeError):
        intake(raw(declared_value_cents=600000, intake_at="2026-03-20T10:00:00"))


def test_normal_value_accepted():
    assert intake(raw(declared_value_cents=400000)).declared_value_cents == 400000


def test_intake_rejects_overweight():''')],
     tests=[edit("tests/test_intake.py", '''def test_intake_rejects_overweight():''', '''def test_high_value_gbp_february():
    with pytest.raises(IntakeError):
        intake(raw(declared_value_cents=430000, currency="GBP", intake_at="2026-02-20T10:00:00"))


def test_gbp_march_accepted():
    p = intake(raw(declared_value_cents=430000, currency="GBP", intake_at="2026-03-10T10:00:00"))
    assert p.currency == "GBP"


def test_usd_under_limit_accepted():
    p = intake(raw(declared_value_cents=530000, currency="USD", intake_at="2026-03-10T10:00:00"))
    assert p.declared_value_cents == 530000


def test_intake_rejects_overweight():''')],
     gold=[edit("depot/intake.py", "from depot.parcels import Item, Parcel\n", "from depot import fx\nfrom depot.parcels import Item, Parcel\n"),
           edit("depot/intake.py", '''    declared = int(raw.get("declared_value_cents", 0))
    if declared > MAX_DECLARED_EUR_CENTS:''', '''    declared = int(raw.get("declared_value_cents", 0))
    on = datetime.fromisoformat(intake_at).date() if intake_at else None
    if fx.to_eur_cents(declared, raw.get("currency", "EUR"), on=on) > MAX_DECLARED_EUR_CENTS:''')],
     decoys=[
         [edit("depot/intake.py", "from depot.parcels import Item, Parcel\n", "from depot import fx\nfrom depot.parcels import Item, Parcel\n"),
          edit("depot/intake.py", '''    if declared > MAX_DECLARED_EUR_CENTS:''', '''    if fx.to_eur_cents(declared, raw.get("currency", "EUR")) > MAX_DECLARED_EUR_CENTS:''')],
         [edit("depot/intake.py", "from datetime import datetime\n", "from datetime import date, datetime\n"),
          edit("depot/intake.py", "from depot.parcels import Item, Parcel\n", "from depot import fx\nfrom depot.parcels import Item, Parcel\n"),
          edit("depot/intake.py", '''    declared = int(raw.get("declared_value_cents", 0))
    if declared > MAX_DECLARED_EUR_CENTS:''', '''    declared = int(raw.get("declared_value_cents", 0))
    currency = raw.get("currency", "EUR").upper()
    declared_eur = fx.to_eur_cents(declared, currency, on=date.today())
    if declared_eur > MAX_DECLARED_EUR_CENTS:''')],
         [edit("depot/intake.py", "from datetime import datetime\n", "from datetime import datetime\nfrom decimal import Decimal\n"),
          edit("depot/intake.py", "from depot.parcels import Item, Parcel\n", "from depot import fx\nfrom depot.parcels import Item, Parcel\n"),
          edit("depot/intake.py", '''    declared = int(raw.get("declared_value_cents", 0))
    if declared > MAX_DECLARED_EUR_CENTS:''', '''    declared = int(raw.get("declared_value_cents", 0))
    currency = raw.get("currency", "EUR").upper()
    on = datetime.fromisoformat(intake_at).date() if intake_at else None
    declared_eur = int(Decimal(declared) * fx.rate(currency, on=on))
    if declared_eur > MAX_DECLARED_EUR_CENTS:''')],
     ],
     problem="""Insurance limit at intake lets some parcels through and blocks others

The new intake check that refuses parcels declared above the €5000 insurance limit behaves oddly for parcels declared in other currencies: a USD 5300 parcel handed in last week was refused although it is worth well under €5000, and audit found a GBP 4300 parcel handed in on 20 February that was accepted although it was worth more than €5000. EUR parcels behave correctly.""")

task(n=11, family="fx", position=2, created_at="2026-04-01T10:10:00+02:00",
     branch="feature/cod-manifest", base_who="ruud", base_date="2026-04-01T09:00:00+02:00",
     base_message="manifest: cash-on-delivery manifest for the courier",
     base_changes=[edit("depot/manifest.py", '''from depot.sorting import assign_route, stop_order
''', '''from depot.money import fmt
from depot.sorting import assign_route, stop_order
'''), edit("depot/manifest.py", '''def manifest_totals(parcels, route) -> dict:''', '''COD_HEADER = "parcel_id,stop,cod_eur"


def build_cod_manifest(parcels, route) -> str:
    """Amounts the courier collects at the door, in EUR."""
    lines = [COD_HEADER]
    for p in parcels_for_route(parcels, route):
        if p.declared_value_cents:
            lines.append(f"{p.parcel_id},{stop_order(p)},{fmt(p.declared_value_cents)}")
    return "\\n".join(lines) + "\\n"


def manifest_totals(parcels, route) -> dict:'''),
         edit("tests/test_manifest.py", '''def test_totals_in_grams():''', '''def test_cod_manifest_eur():
    ps = [make_parcel(parcel_id="A", declared_value_cents=1250), make_parcel(parcel_id="B")]
    assert manifest.build_cod_manifest(ps, "AMS-2").splitlines() == ["parcel_id,stop,cod_eur", "A,20,12.50"]


def test_totals_in_grams():''')],
     tests=[edit("tests/test_manifest.py", "from tests.helpers import make_parcel", "from tests.helpers import at, make_parcel"),
            edit("tests/test_manifest.py", '''def test_totals_in_grams():''', '''def test_cod_manifest_foreign_currency():
    ps = [make_parcel(parcel_id="A", declared_value_cents=8500, currency="GBP", intake_at=at("2026-02-20T10:00")),
          make_parcel(parcel_id="B", declared_value_cents=10800, currency="USD", intake_at=at("2026-02-02T10:00")),
          make_parcel(parcel_id="C", declared_value_cents=9600, currency="CHF", intake_at=at("2026-03-30T10:00"))]
    assert manifest.build_cod_manifest(ps, "AMS-2").splitlines() == [
        "parcel_id,stop,cod_eur", "A,20,100.00", "B,20,100.00", "C,20,100.00"]


def test_totals_in_grams():''')],
     gold=[edit("depot/manifest.py", '''from depot.money import fmt
''', '''from depot import fx
from depot.money import fmt
'''), edit("depot/manifest.py", '''def build_cod_manifest(parcels, route) -> str:''', '''def _cod_eur_cents(parcel) -> int:
    on = parcel.intake_at.date() if parcel.intake_at else None
    return fx.to_eur_cents(parcel.declared_value_cents, parcel.currency, on=on)


def build_cod_manifest(parcels, route) -> str:'''),
           edit("depot/manifest.py", '''{fmt(p.declared_value_cents)}")''', '''{fmt(_cod_eur_cents(p))}")''')],
     decoys=[
         [edit("depot/manifest.py", '''from depot.money import fmt
''', '''from depot import fx
from depot.money import fmt
'''), edit("depot/manifest.py", '''{fmt(p.declared_value_cents)}")''', '''{fmt(fx.to_eur_cents(p.declared_value_cents, p.currency))}")''')],
         [edit("depot/manifest.py", '''{fmt(p.declared_value_cents)}")''', '''{fmt(p.declared_value_cents)} {p.currency}")''')],
         [edit("depot/manifest.py", '''"""Courier manifests: one CSV per route and day."""
''', '''"""Courier manifests: one CSV per route and day."""
from datetime import date

from depot import fx
'''), edit("depot/manifest.py", '''{fmt(p.declared_value_cents)}")''', '''{fmt(fx.to_eur_cents(p.declared_value_cents, p.currency, on=date.today()))}")''')],
     ],
     problem="""Cash-on-delivery manifest: couriers collect the wrong amount

Couriers collect cash-on-delivery amounts in euros from the COD manifest (`manifest.build_cod_manifest`). For parcels whose sender declared the value in pounds, dollars or francs the courier collected the foreign number as if it were euros, e.g. "85.00" for a parcel worth €100.00. Finance found the differences when reconciling the February and March collections.""")

task(n=12, family="fx", position=3, created_at="2026-04-09T10:30:00+02:00",
     branch="feature/duty-estimate", base_who="ruud", base_date="2026-04-09T09:10:00+02:00",
     base_message="customs: import duty estimate for GB and CH receivers",
     base_changes=[edit("depot/customs.py", '''CN22_LIMIT_EUR_CENTS = 30000
''', '''CN22_LIMIT_EUR_CENTS = 30000
DUTY_FREE_EUR_CENTS = 15000
DUTY_RATE_PERCENT = 4
'''), edit("depot/customs.py", '''def declaration(parcel) -> dict:''', '''def duty_estimate_cents(parcel) -> int:
    """Import duty the receiver will pay, in EUR cents (GB and CH receivers only)."""
    if parcel.country not in ("GB", "CH"):
        return 0
    value = parcel.declared_value_cents
    if value <= DUTY_FREE_EUR_CENTS:
        return 0
    return value * DUTY_RATE_PERCENT // 100


def declaration(parcel) -> dict:'''),
         edit("tests/test_customs.py", '''def test_declaration_weight_in_kg():''', '''def test_duty_estimate_eur():
    assert customs.duty_estimate_cents(make_parcel(country="GB", declared_value_cents=20000)) == 800
    assert customs.duty_estimate_cents(make_parcel(country="GB", declared_value_cents=15000)) == 0
    assert customs.duty_estimate_cents(make_parcel(country="US", declared_value_cents=90000)) == 0


def test_declaration_weight_in_kg():''')],
     tests=[edit("tests/test_customs.py", '''def test_declaration_weight_in_kg():''', '''def test_duty_estimate_gbp_february():
    p = make_parcel(country="GB", declared_value_cents=17000, currency="GBP", intake_at=at("2026-02-20T10:00"))
    assert customs.duty_estimate_cents(p) == 800


def test_duty_estimate_chf_at_threshold():
    p = make_parcel(country="CH", declared_value_cents=14400, currency="CHF", intake_at=at("2026-03-20T10:00"))
    assert customs.duty_estimate_cents(p) == 0
    p = make_parcel(country="CH", declared_value_cents=19200, currency="CHF", intake_at=at("2026-03-20T10:00"))
    assert customs.duty_estimate_cents(p) == 800


def test_declaration_weight_in_kg():''')],
     gold=[edit("depot/customs.py", '''    value = parcel.declared_value_cents
    if value <= DUTY_FREE_EUR_CENTS:''', '''    on = parcel.intake_at.date() if parcel.intake_at else None
    value = fx.to_eur_cents(parcel.declared_value_cents, parcel.currency, on=on)
    if value <= DUTY_FREE_EUR_CENTS:''')],
     decoys=[
         [edit("depot/customs.py", '''    value = parcel.declared_value_cents
    if value <= DUTY_FREE_EUR_CENTS:''', '''    currency = parcel.currency or "EUR"
    rate = fx.rate(currency)
    value = int(parcel.declared_value_cents / rate)
    if value <= DUTY_FREE_EUR_CENTS:''')],
         [edit("depot/customs.py", '''from decimal import Decimal
''', '''from datetime import date
from decimal import Decimal
'''), edit("depot/customs.py", '''    value = parcel.declared_value_cents
    if value <= DUTY_FREE_EUR_CENTS:''', '''    today = date.today()
    value = fx.to_eur_cents(parcel.declared_value_cents, parcel.currency, on=today)
    if value <= DUTY_FREE_EUR_CENTS:''')],
         [edit("depot/customs.py", '''    value = parcel.declared_value_cents
    if value <= DUTY_FREE_EUR_CENTS:
        return 0
    return value * DUTY_RATE_PERCENT // 100''', '''    value = parcel.declared_value_cents
    on = parcel.intake_at.date() if parcel.intake_at else None
    limit = DUTY_FREE_EUR_CENTS * fx.rate(parcel.currency, on=on)
    if value <= limit:
        return 0
    return value * DUTY_RATE_PERCENT // 100''')],
     ],
     problem="""Duty estimate wrong for receivers paying in pounds or francs

The import duty estimate we print on the GB/CH delivery notice (`customs.duty_estimate_cents`, in EUR cents) doesn't match what UK and Swiss customs charge when the sender declared the value in GBP or CHF. Example: a parcel declared at £170.00 handed in on 20 February; the receiver paid €8.00 duty, our notice said €6.80. EUR-declared parcels are right.""")
