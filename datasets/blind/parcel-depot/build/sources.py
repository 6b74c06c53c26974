"""Source files of acme-post/parcel-depot at its first commit (used by build.py)."""

FILES = {}

FILES["README.md"] = """# parcel-depot

The depot service of Acme Post: parcel intake, sorting into courier routes,
delivery slots, customs declarations, surcharges and courier manifests.

Run the tests with `python -m pytest -q`.
"""

FILES[".gitignore"] = "__pycache__/\n*.pyc\n.pytest_cache/\n.env\n"

FILES["pytest.ini"] = "[pytest]\ntestpaths = tests\n"

FILES["depot/__init__.py"] = '"""Acme Post parcel depot."""\n\n__version__ = "0.4.0"\n'

FILES["depot/money.py"] = '''"""Money helpers: amounts are integer cents."""
from decimal import Decimal, ROUND_HALF_UP


def to_cents(amount) -> int:
    """Convert a decimal amount ("12.5", Decimal, int) to integer cents."""
    value = Decimal(str(amount)) * 100
    return int(value.quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def fmt(cents: int) -> str:
    """Format integer cents as a plain decimal string ("12.50")."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
'''

FILES["depot/parcels.py"] = '''"""The parcel record shared by every stage of the depot."""
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Item:
    description: str
    quantity: int
    weight_g: int
    value_cents: int


@dataclass
class Parcel:
    parcel_id: str
    weight_g: int
    length_cm: int
    width_cm: int
    height_cm: int
    postcode: str
    country: str = "NL"
    declared_value_cents: int = 0
    currency: str = "EUR"
    intake_at: datetime | None = None
    items: list[Item] = field(default_factory=list)

    @property
    def max_side_cm(self) -> int:
        return max(self.length_cm, self.width_cm, self.height_cm)
'''

FILES["depot/intake.py"] = '''"""Intake: turn a counter or API submission into a Parcel."""
from datetime import datetime

from depot.parcels import Item, Parcel

MAX_WEIGHT_G = 31500
MAX_SIDE_CM = 175


class IntakeError(ValueError):
    pass


def normalize_postcode(raw: str) -> str:
    return " ".join(raw.upper().split())


def intake(raw: dict) -> Parcel:
    try:
        weight_g = int(raw["weight_g"])
        dims = [int(raw[k]) for k in ("length_cm", "width_cm", "height_cm")]
    except (KeyError, TypeError, ValueError) as exc:
        raise IntakeError(f"missing or bad measurement: {exc}") from None
    if weight_g <= 0 or weight_g > MAX_WEIGHT_G:
        raise IntakeError(f"weight {weight_g} g outside 1..{MAX_WEIGHT_G}")
    if min(dims) <= 0 or max(dims) > MAX_SIDE_CM:
        raise IntakeError(f"dimensions {dims} outside 1..{MAX_SIDE_CM} cm")
    items = [
        Item(i["description"], int(i.get("quantity", 1)), int(i["weight_g"]), int(i["value_cents"]))
        for i in raw.get("items", [])
    ]
    intake_at = raw.get("intake_at")
    return Parcel(
        parcel_id=str(raw["parcel_id"]),
        weight_g=weight_g,
        length_cm=dims[0],
        width_cm=dims[1],
        height_cm=dims[2],
        postcode=normalize_postcode(raw.get("postcode", "")),
        country=raw.get("country", "NL").upper(),
        declared_value_cents=int(raw.get("declared_value_cents", 0)),
        currency=raw.get("currency", "EUR").upper(),
        intake_at=datetime.fromisoformat(intake_at) if intake_at else None,
        items=items,
    )
'''

FILES["depot/fx.py"] = '''"""Exchange rates, quoted as units of currency per 1 EUR, by effective date."""
from datetime import date
from decimal import Decimal, ROUND_HALF_UP

RATES = {
    "EUR": [(date(2000, 1, 1), Decimal("1"))],
    "GBP": [(date(2026, 1, 1), Decimal("0.8500")), (date(2026, 3, 1), Decimal("0.8800"))],
    "USD": [(date(2026, 1, 1), Decimal("1.0800")), (date(2026, 3, 1), Decimal("1.1200"))],
    "CHF": [(date(2026, 1, 1), Decimal("0.9400")), (date(2026, 3, 1), Decimal("0.9600"))],
}


def rate(currency: str, on: date | None = None) -> Decimal:
    """Units of `currency` per EUR; the latest rate when `on` is None."""
    table = RATES[currency.upper()]
    if on is None:
        return table[-1][1]
    chosen = None
    for effective, value in table:
        if effective <= on:
            chosen = value
    if chosen is None:
        raise KeyError(f"no {currency} rate on {on}")
    return chosen


def to_eur_cents(cents: int, currency: str, on: date | None = None) -> int:
    value = Decimal(cents) / rate(currency, on)
    return int(value.quantize(Decimal("1"), rounding=ROUND_HALF_UP))
'''

FILES["depot/sorting.py"] = '''"""Sorting: assign a parcel to a courier route from the routes index."""
import hashlib
import json
from pathlib import Path

DATA = Path(__file__).parent / "data"
CSV_PATH = DATA / "routes.csv"
INDEX_PATH = DATA / "routes_index.json"


class StaleIndexError(RuntimeError):
    pass


def load_index() -> dict:
    index = json.loads(INDEX_PATH.read_text())
    digest = hashlib.sha256(CSV_PATH.read_bytes()).hexdigest()
    if index["source_sha256"] != digest:
        raise StaleIndexError(
            f"routes_index.json was built from another routes.csv "
            f"(index {index['source_sha256'][:12]}, csv {digest[:12]})"
        )
    return index


def assign_route(parcel) -> str:
    if parcel.country != "NL":
        return "INTL"
    prefixes = load_index()["prefixes"]
    digits = parcel.postcode.replace(" ", "")[:4]
    for n in (4, 3, 2):
        route = prefixes.get(digits[:n])
        if route:
            return route["route"]
    return "UNROUTED"


def stop_order(parcel) -> int:
    prefixes = load_index()["prefixes"]
    digits = parcel.postcode.replace(" ", "")[:4]
    for n in (4, 3, 2):
        route = prefixes.get(digits[:n])
        if route:
            return route["stop"]
    return 999
'''

FILES["depot/data/routes.csv"] = """prefix,route,stop
10,AMS-1,10
101,AMS-2,20
102,AMS-2,30
109,AMS-3,40
35,UTR-1,10
351,UTR-1,20
352,UTR-2,30
30,RTM-1,10
31,RTM-2,20
"""

FILES["depot/tools/__init__.py"] = ""

FILES["depot/tools/build_routes.py"] = '''"""Build depot/data/routes_index.json from depot/data/routes.csv.

Usage: python -m depot.tools.build_routes
"""
import csv
import hashlib
import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def build(csv_path: Path = DATA / "routes.csv") -> dict:
    raw = csv_path.read_bytes()
    rows = csv.DictReader(raw.decode().splitlines())
    prefixes = {r["prefix"]: {"route": r["route"], "stop": int(r["stop"])} for r in rows}
    return {
        "source_sha256": hashlib.sha256(raw).hexdigest(),
        "prefixes": dict(sorted(prefixes.items())),
    }


def main() -> None:
    index = build()
    out = DATA / "routes_index.json"
    out.write_text(json.dumps(index, indent=2) + "\\n")
    print(f"wrote {out.relative_to(DATA.parent.parent)} ({len(index['prefixes'])} prefixes)")


if __name__ == "__main__":
    main()
'''

FILES["depot/surcharges.py"] = '''"""Surcharges on top of the base tariff. Weights are integer grams."""
import math

VOLUMETRIC_DIVISOR = 5000  # cm3 per kg
HEAVY_THRESHOLD_G = 20000
HEAVY_FEE_CENTS = 450
LONG_SIDE_CM = 120
LONG_FEE_CENTS = 600


def volumetric_weight_g(parcel) -> int:
    volume = parcel.length_cm * parcel.width_cm * parcel.height_cm
    return math.ceil(volume * 1000 / VOLUMETRIC_DIVISOR)


def billable_weight_g(parcel) -> int:
    return max(parcel.weight_g, volumetric_weight_g(parcel))


def surcharge_cents(parcel) -> int:
    total = 0
    if billable_weight_g(parcel) > HEAVY_THRESHOLD_G:
        total += HEAVY_FEE_CENTS
    if parcel.max_side_cm > LONG_SIDE_CM:
        total += LONG_FEE_CENTS
    return total
'''

FILES["depot/customs.py"] = '''"""Customs declarations (CN22 / CN23) for parcels leaving the EU."""
from decimal import Decimal

EU_COUNTRIES = {
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
    "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
}
CN22_LIMIT_EUR_CENTS = 30000


def grams_to_kg(grams: int) -> Decimal:
    return (Decimal(grams) / 1000).quantize(Decimal("0.001"))


def needs_declaration(parcel) -> bool:
    return parcel.country not in EU_COUNTRIES


def declaration_form(parcel) -> str | None:
    if not needs_declaration(parcel):
        return None
    if parcel.declared_value_cents > CN22_LIMIT_EUR_CENTS:
        return "CN23"
    return "CN22"


def declaration(parcel) -> dict:
    return {
        "parcel_id": parcel.parcel_id,
        "form": declaration_form(parcel),
        "gross_weight_kg": str(grams_to_kg(parcel.weight_g)),
        "items": [
            {
                "description": item.description,
                "quantity": item.quantity,
                "value_cents": item.value_cents,
            }
            for item in parcel.items
        ],
    }
'''

FILES["depot/slots.py"] = '''"""Delivery slots: which day a parcel goes out and in which window."""
from datetime import datetime, time, timedelta

SAME_DAY_CUTOFF = time(14, 0)
SLOTS = ("08:00-12:00", "12:00-16:00", "16:00-20:00")


def _next_working_day(day):
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def dispatch_date(intake_at: datetime):
    day = intake_at.date()
    if day.weekday() < 5 and intake_at.time() <= SAME_DAY_CUTOFF:
        return day
    return _next_working_day(day)


def next_slot(intake_at: datetime):
    day = dispatch_date(intake_at)
    if day == intake_at.date():
        return day, SLOTS[2]
    return day, SLOTS[0]
'''

FILES["depot/manifest.py"] = '''"""Courier manifests: one CSV per route and day."""
from depot.sorting import assign_route, stop_order

HEADER = "parcel_id,postcode,weight_g,stop"


def parcels_for_route(parcels, route):
    return sorted(
        (p for p in parcels if assign_route(p) == route),
        key=lambda p: (stop_order(p), p.parcel_id),
    )


def build_manifest(parcels, route) -> str:
    lines = [HEADER]
    for p in parcels_for_route(parcels, route):
        lines.append(f"{p.parcel_id},{p.postcode},{p.weight_g},{stop_order(p)}")
    return "\\n".join(lines) + "\\n"


def manifest_totals(parcels, route) -> dict:
    chosen = parcels_for_route(parcels, route)
    return {"route": route, "parcels": len(chosen), "weight_g": sum(p.weight_g for p in chosen)}
'''

FILES["tests/conftest.py"] = '''import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
'''

FILES["tests/helpers.py"] = '''from datetime import datetime

from depot.parcels import Item, Parcel


def make_parcel(**kw):
    base = dict(
        parcel_id="P1", weight_g=1200, length_cm=30, width_cm=20, height_cm=10,
        postcode="1011 AB", country="NL",
    )
    base.update(kw)
    return Parcel(**base)


def at(text):
    return datetime.fromisoformat(text)


def item(desc="book", qty=1, weight_g=500, value_cents=1500):
    return Item(desc, qty, weight_g, value_cents)
'''

FILES["tests/test_intake.py"] = '''import pytest

from depot.intake import IntakeError, intake


def raw(**kw):
    base = {"parcel_id": "A1", "weight_g": 800, "length_cm": 20, "width_cm": 15,
            "height_cm": 5, "postcode": " 1011ab ", "country": "nl"}
    base.update(kw)
    return base


def test_intake_normalizes():
    p = intake(raw())
    assert p.postcode == "1011AB"
    assert p.country == "NL"


def test_intake_rejects_overweight():
    with pytest.raises(IntakeError):
        intake(raw(weight_g=40000))


def test_intake_rejects_missing_dimension():
    data = raw()
    del data["height_cm"]
    with pytest.raises(IntakeError):
        intake(data)


def test_intake_items_and_time():
    p = intake(raw(items=[{"description": "mug", "weight_g": 300, "value_cents": 900}],
                   intake_at="2026-02-03T09:15:00"))
    assert p.items[0].quantity == 1
    assert p.intake_at.hour == 9
'''

FILES["tests/test_fx.py"] = '''from datetime import date

from depot import fx


def test_latest_rate():
    assert str(fx.rate("GBP")) == "0.8800"


def test_rate_on_date():
    assert str(fx.rate("GBP", on=date(2026, 2, 10))) == "0.8500"


def test_to_eur_cents():
    assert fx.to_eur_cents(8500, "GBP", on=date(2026, 2, 1)) == 10000
    assert fx.to_eur_cents(1234, "EUR") == 1234
'''

FILES["tests/test_sorting.py"] = '''import json

from depot import sorting
from depot.tools import build_routes
from tests.helpers import make_parcel


def test_longest_prefix_wins():
    assert sorting.assign_route(make_parcel(postcode="1011 AB")) == "AMS-2"
    assert sorting.assign_route(make_parcel(postcode="1055 XY")) == "AMS-1"


def test_utrecht_split():
    assert sorting.assign_route(make_parcel(postcode="3512 JK")) == "UTR-1"
    assert sorting.assign_route(make_parcel(postcode="3521 AA")) == "UTR-2"


def test_international_and_unrouted():
    assert sorting.assign_route(make_parcel(country="DE", postcode="10115")) == "INTL"
    assert sorting.assign_route(make_parcel(postcode="9999 ZZ")) == "UNROUTED"


def test_index_matches_csv():
    committed = json.loads(sorting.INDEX_PATH.read_text())
    assert committed == build_routes.build()
'''

FILES["tests/test_surcharges.py"] = '''from depot import surcharges
from tests.helpers import make_parcel


def test_volumetric_weight():
    p = make_parcel(length_cm=50, width_cm=40, height_cm=30)
    assert surcharges.volumetric_weight_g(p) == 12000


def test_heavy_fee_on_billable_weight():
    p = make_parcel(weight_g=21000)
    assert surcharges.surcharge_cents(p) == 450


def test_long_fee():
    p = make_parcel(length_cm=130, width_cm=10, height_cm=10)
    assert surcharges.surcharge_cents(p) == 600
'''

FILES["tests/test_customs.py"] = '''from depot import customs
from tests.helpers import item, make_parcel


def test_eu_needs_no_declaration():
    assert customs.declaration_form(make_parcel(country="DE")) is None


def test_cn22_and_cn23():
    assert customs.declaration_form(make_parcel(country="US", declared_value_cents=2500)) == "CN22"
    assert customs.declaration_form(make_parcel(country="US", declared_value_cents=45000)) == "CN23"


def test_declaration_weight_in_kg():
    p = make_parcel(country="CH", weight_g=1250, items=[item()])
    assert customs.declaration(p)["gross_weight_kg"] == "1.250"
'''

FILES["tests/test_slots.py"] = '''from datetime import date

from depot import slots
from tests.helpers import at


def test_morning_is_same_day():
    assert slots.next_slot(at("2026-02-03T09:00")) == (date(2026, 2, 3), "16:00-20:00")


def test_cutoff_exact():
    assert slots.dispatch_date(at("2026-02-03T14:00")) == date(2026, 2, 3)


def test_after_cutoff_next_day():
    assert slots.next_slot(at("2026-02-03T14:01")) == (date(2026, 2, 4), "08:00-12:00")


def test_friday_late_goes_monday():
    assert slots.dispatch_date(at("2026-02-06T17:00")) == date(2026, 2, 9)
'''

FILES["tests/test_manifest.py"] = '''from depot import manifest
from tests.helpers import make_parcel


def test_manifest_sorted_by_stop():
    ps = [make_parcel(parcel_id="B", postcode="1055 AA"), make_parcel(parcel_id="A", postcode="1012 AA"),
          make_parcel(parcel_id="C", postcode="3011 AA")]
    text = manifest.build_manifest(ps, "AMS-2")
    assert text.splitlines() == ["parcel_id,postcode,weight_g,stop", "A,1012 AA,1200,20"]


def test_totals_in_grams():
    ps = [make_parcel(parcel_id="A", weight_g=1200), make_parcel(parcel_id="B", weight_g=800)]
    assert manifest.manifest_totals(ps, "AMS-2") == {"route": "AMS-2", "parcels": 2, "weight_g": 2000}
'''
