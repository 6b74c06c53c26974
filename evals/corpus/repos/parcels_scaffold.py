"""The first commit of ``acme/parcels``: rating, customs, carrier scans and the service catalog.

A small parcel-shipping service with a real pytest suite. Its packages hold the three facts of
its families: weights are whole grams in ``parcels/rating`` but three-decimal kilograms in
``parcels/customs``; carrier scan times are the hub's wall clock (``parcels/carriers/clock.py``);
checkout reads a catalog generated from the service registry (``make catalog``).
"""

from __future__ import annotations

from evals.corpus.gitrepo import FileChanges
from evals.corpus.repos.parcels_services import (
    CATALOG,
    REGISTRY,
    SCAFFOLD_SERVICES,
    catalog_source,
    registry_source,
)

PYPROJECT = '''[project]
name = "parcels"
version = "0.3.0"
description = "Parcel shipping for the Acme shops: rates, customs, tracking and checkout"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

README = '''# parcels

Parcel shipping for the Acme shops: carrier rates, customs declarations, scan tracking and the
services offered at checkout.

    make test       # the unit suite
    make catalog    # regenerate parcels/services/_catalog.py
'''

MAKEFILE = '''test:
\tpython -m pytest -q

catalog:
\tpython -m parcels.services.build_catalog
'''

RATING_UNITS = '''"""Weights as the carriers' rate tables count them."""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal


def to_grams(weight_kg: str | Decimal) -> int:
    """A scale reading in kilograms as whole grams, every started gram counted."""
    return int((Decimal(weight_kg) * 1000).to_integral_value(rounding=ROUND_CEILING))
'''

BANDS = '''"""Weight bands of a carrier's rate table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quote:
    grams: int
    price_cents: int


def quote(grams: int, bands: tuple[tuple[int, int], ...]) -> Quote:
    """The price of the first band (upper limit in grams, price in cents) that holds ``grams``."""
    for limit, price in bands:
        if grams <= limit:
            return Quote(grams, price)
    raise ValueError(f"{grams} g is over the carrier's limit")
'''

CUSTOMS_UNITS = '''"""Weights on customs declarations (CN23)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

PRECISION = Decimal("0.001")


def declared_kg(weight_kg: str | Decimal) -> Decimal:
    """A scale reading as a declared net weight: kilograms, half-up to 0.001, at least 0.001."""
    return max(Decimal(weight_kg).quantize(PRECISION, rounding=ROUND_HALF_UP), PRECISION)
'''

DEPOTS = '''"""The hubs where carriers scan our parcels."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Depot:
    city: str
    zone: str


DEPOTS: dict[str, Depot] = {
    "AMS": Depot("Amsterdam", "Europe/Amsterdam"),
    "RTM": Depot("Rotterdam", "Europe/Amsterdam"),
    "LIS": Depot("Lisbon", "Europe/Lisbon"),
    "ATH": Depot("Athens", "Europe/Athens"),
}
'''

SCAN = '''"""Scan events from the carriers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Scan:
    parcel_id: str
    depot: str
    status: str
    at: datetime
'''

CLOCK = '''"""Clocks of the carriers' scan feeds."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

# The carriers' hub codes; older than parcels/depots.py and kept by the carrier team.
DEPOT_TIMEZONES: dict[str, str] = {
    "AMS": "Europe/Amsterdam",
    "RTM": "Europe/Amsterdam",
    "LIS": "Europe/Lisbon",
    "ATH": "Europe/Athens",
}


def to_utc(value: datetime) -> datetime:
    """``value`` in UTC; a naive value is one of our own timestamps, already in UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def parse_scan_time(raw: str, depot: str) -> datetime:
    """A carrier's scan time at ``depot`` as an aware UTC datetime."""
    zone = ZoneInfo(DEPOT_TIMEZONES.get(depot, "UTC"))
    return datetime.fromisoformat(raw).replace(tzinfo=zone).astimezone(timezone.utc)
'''

TRACKING = '''"""Messages recipients get about their parcels."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from parcels.carriers.scan import Scan
from parcels.depots import DEPOTS


def delivered_message(scan: Scan) -> str:
    """The text message sent when a parcel is delivered, in the hub's local time."""
    local = scan.at.astimezone(ZoneInfo(DEPOTS[scan.depot].zone))
    return f"Your parcel {scan.parcel_id} was delivered at {local:%H:%M}."
'''

SERVICE_BASE = '''"""A shipping service a customer can choose at checkout."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Service:
    id: str
    carrier: str
    name: str
    max_weight_g: int
'''

BUILD_CATALOG = '''"""Write parcels/services/_catalog.py from the registry (``make catalog``)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from parcels.services.registry import SERVICES

TARGET = Path(__file__).with_name("_catalog.py")


def render() -> str:
    """The catalog module for the services registered now."""
    rows = "".join(f"    {json.dumps(asdict(s))},\\n"
                   for s in sorted(SERVICES.values(), key=lambda s: s.id))
    return (f'"""Generated by `make catalog` from parcels/services/registry.py '
            f'({len(SERVICES)} services)."""\\n\\nCATALOG = [\\n{rows}]\\n')


def main() -> None:
    TARGET.write_text(render())
    print(f"wrote parcels/services/_catalog.py ({len(SERVICES)} services)")


if __name__ == "__main__":
    main()
'''

CHECKOUT = '''"""What checkout offers."""

from __future__ import annotations

from parcels.services._catalog import CATALOG


def offered(weight_g: int | None = None) -> list[str]:
    """Ids of the services a parcel of ``weight_g`` grams can be sent with."""
    return [row["id"] for row in CATALOG if weight_g is None or weight_g <= row["max_weight_g"]]
'''

TEST_UNITS = '''from decimal import Decimal

from parcels.customs.units import declared_kg
from parcels.rating.units import to_grams


def test_to_grams_whole_kilograms():
    assert to_grams("2.5") == 2500


def test_declared_kg_keeps_kilograms():
    assert declared_kg("2.5") == Decimal("2.500")
'''

TEST_TRACKING = '''from datetime import datetime, timezone

from parcels.carriers.clock import to_utc
from parcels.carriers.scan import Scan
from parcels.tracking import delivered_message


def test_delivered_message_in_hub_time():
    scan = Scan("PX1", "AMS", "delivered", datetime(2024, 1, 15, 8, 30, tzinfo=timezone.utc))
    assert delivered_message(scan) == "Your parcel PX1 was delivered at 09:30."


def test_to_utc_keeps_aware_values():
    value = datetime(2024, 1, 15, 8, 30, tzinfo=timezone.utc)
    assert to_utc(value) == value
'''

TEST_CATALOG = '''from parcels.checkout import offered
from parcels.services import build_catalog


def test_catalog_is_fresh():
    on_disk = build_catalog.TARGET.read_text()
    assert on_disk == build_catalog.render(), (
        "parcels/services/_catalog.py is stale: run `make catalog`")


def test_checkout_offers_registered_services():
    assert "dhl-parcel" in offered()
    assert "postnl-standard" not in offered(25000)
'''


def scaffold() -> FileChanges:
    """Every file of the repository's first commit."""
    services = {s.path: s.source() for s in SCAFFOLD_SERVICES}
    return {
        "pyproject.toml": PYPROJECT, "README.md": README, "Makefile": MAKEFILE,
        ".gitignore": "__pycache__/\n.pytest_cache/\n",
        "conftest.py": "# Keeps the repository root importable when pytest runs from anywhere.\n",
        "parcels/__init__.py": '"""Parcel shipping for the Acme shops."""\n',
        "parcels/rating/__init__.py": '"""Carrier rates."""\n',
        "parcels/rating/units.py": RATING_UNITS, "parcels/rating/bands.py": BANDS,
        "parcels/customs/__init__.py": '"""Customs declarations."""\n',
        "parcels/customs/units.py": CUSTOMS_UNITS,
        "parcels/carriers/__init__.py": '"""Carrier scan feeds."""\n',
        "parcels/carriers/scan.py": SCAN, "parcels/carriers/clock.py": CLOCK,
        "parcels/depots.py": DEPOTS, "parcels/tracking.py": TRACKING,
        "parcels/services/__init__.py": '"""Shipping services."""\n',
        "parcels/services/base.py": SERVICE_BASE,
        "parcels/services/build_catalog.py": BUILD_CATALOG,
        **services,
        REGISTRY: registry_source([(s.module, s.const) for s in SCAFFOLD_SERVICES]),
        CATALOG: catalog_source(list(SCAFFOLD_SERVICES)),
        "parcels/checkout.py": CHECKOUT,
        "tests/test_units.py": TEST_UNITS, "tests/test_tracking.py": TEST_TRACKING,
        "tests/test_catalog.py": TEST_CATALOG,
    }
