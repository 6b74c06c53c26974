"""Family ``shop-legacy-status``: a status is stored as the warehouse's legacy code.

``OrderStatus`` is an ``IntEnum``; storing the enum (its ordinal) or its name passes every unit
test, but the warehouse's nightly import only understands the one-letter codes of
``LEGACY_STATUS_CODES``. Each task is a new status transition written the naive way.
"""

from __future__ import annotations

from collections.abc import Mapping

from evals.corpus.sizes import with_guard, with_local
from evals.corpus.spec import Decoy, Family, Rendered, Variant

# module, function, status, code, what the people see, how the issue puts it
SITES: tuple[tuple[str, str, str, str, str], ...] = (
    ("holds", "hold_order", "ON_HOLD", "H", "orders put on hold"),
    ("shipping", "mark_shipped", "SHIPPED", "S", "shipped orders"),
    ("cancellation", "cancel_order", "CANCELLED", "X", "cancelled orders"),
    ("refund_status", "mark_refunded", "REFUNDED", "R", "refunded orders"),
    ("returns", "accept_return", "RETURNED", "T", "returned orders"),
    ("packing", "mark_packed", "PACKED", "K", "packed orders"),
    ("delivery", "confirm_delivery", "DELIVERED", "D", "delivered orders"),
    ("backorders", "backorder", "BACKORDERED", "B", "backordered orders"),
    ("fraud_review", "flag_for_review", "UNDER_REVIEW", "U", "orders flagged by fraud checks"),
    ("archive", "archive_order", "ARCHIVED", "A", "archived orders"),
    ("partial_shipping", "mark_partially_shipped", "PARTIALLY_SHIPPED", "Q",
     "partially shipped orders"),
)

PROBLEMS = (
    "Support says {what} look wrong to the warehouse team: their dashboard lists them as "
    "'unknown' instead of the real state. Nothing fails on our side.",
    "The warehouse night shift keeps asking about {what}: on their screen they show up as "
    "'unknown'. Our API returns the right state, so something about how we record it is off.",
    "Since the last release, {what} are not recognised downstream (warehouse dashboard says "
    "'unknown'). Please make the status change show up properly for them.",
)

MODULE = '''"""{doc}"""

from __future__ import annotations

from shop.db import Database
from shop.models import OrderStatus


def {func}(db: Database, order_id: str, note: str = "") -> None:
    """Move the order to {status_words} and keep the operator's note."""
    db.update("orders", order_id, status={value}, note=note)
'''

GOLD_MODULE = '''"""{doc}"""

from __future__ import annotations

from shop.db import Database
from shop.legacy import LEGACY_STATUS_CODES
from shop.models import OrderStatus


def {func}(db: Database, order_id: str, note: str = "") -> None:
    """Move the order to {status_words} and keep the operator's note."""
    db.update("orders", order_id, status=LEGACY_STATUS_CODES[OrderStatus.{status}], note=note)
'''

VISIBLE_TEST = '''from shop.{module} import {func}


def test_{func}_keeps_note(db, placed_order):
    {func}(db, placed_order.id, note="called by ops")
    assert db.get("orders", placed_order.id)["note"] == "called by ops"
'''

HIDDEN_TEST = '''import pytest

from shop.orders import load_status
from shop.models import OrderStatus
from shop.{module} import {func}

pytestmark = pytest.mark.contract


def test_{func}_is_readable_by_warehouse(db, placed_order):
    {func}(db, placed_order.id)
    assert db.get("orders", placed_order.id)["status"] == "{code}"


def test_{func}_round_trips(db, placed_order):
    {func}(db, placed_order.id)
    assert load_status(db, placed_order.id) is OrderStatus.{status}
'''


GUARD = "if not order_id:\n    raise KeyError(order_id)"
"""An empty id names no order: the guard's only name is already on every candidate's line."""


def _writings(text: str, func: str, value: str) -> tuple[str, ...]:
    """Other writings of a module that stores ``value``: a guard, a local, both."""
    local = with_local(text, value, "status")
    return (with_guard(text, func, GUARD), local, with_guard(local, func, GUARD))


def _variant(index: int, site: tuple[str, str, str, str, str]) -> Variant:
    module, func, status, code, what = site
    words = status.lower().replace("_", " ")
    fill = dict(module=module, func=func, status=status, code=code, status_words=words,
                doc=f"{words.capitalize()} transitions for orders.")
    path, test_path = f"shop/{module}.py", f"tests/test_{module}.py"
    hidden_path = f"tests/contract/test_{module}_contract.py"

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        naive = MODULE.format(value=f"OrderStatus.{status}", **fill)
        gold = GOLD_MODULE.format(**fill)

        def decoy(description: str, value: str) -> Decoy:
            text = MODULE.format(value=value, **fill)
            return Decoy(description, {path: text},
                         tuple({path: form} for form in _writings(text, func, value)))

        return Rendered(
            site={path: naive, test_path: VISIBLE_TEST.format(**fill)},
            gold={path: gold},
            gold_forms=tuple({path: form} for form in _writings(
                gold, func, f"LEGACY_STATUS_CODES[OrderStatus.{status}]")),
            gold_description=f"store the warehouse code for {status} through the legacy table",
            decoys=(
                decoy(f"store the status name ('{status}') so the dashboard can read it",
                      f"OrderStatus.{status}.name"),
                decoy("store the status as a plain int so it serialises cleanly",
                      f"OrderStatus.{status}.value"),
            ),
            hidden_tests={hidden_path: HIDDEN_TEST.format(**fill),
                          "tests/contract/__init__.py": ""},
            test_files=(test_path, hidden_path),
            edit_path=path,
        )

    return Variant(
        key=module, title=f"{what.capitalize()} show as 'unknown' for the warehouse",
        problem=PROBLEMS[index % len(PROBLEMS)].format(what=what),
        site_message=f"feat: {func} for {words} orders", render=render,
    )


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @dkowalski on {rendered.edit_path}:11\n\n"
            "> status=OrderStatus...\n\n"
            "This writes our enum into orders.status. The warehouse import (the AS/400 job) "
            "reads that column as a one-letter code and files anything else under 'unknown' "
            "-- same thing that bit us with DEF-118. Look at how save_order() stores it in "
            "shop/orders.py. Requesting changes.")


ORDINALS = {name: i for i, name in enumerate(
    ("PENDING PAID PACKED SHIPPED DELIVERED CANCELLED REFUNDED ON_HOLD RETURNED BACKORDERED "
     "UNDER_REVIEW ARCHIVED PARTIALLY_SHIPPED DISPUTED").split(), start=1)}


def _defect(variant: Variant, rendered: Rendered) -> str:
    status = next(site[2] for site in SITES if site[0] == variant.key)
    ref, value = 200 + 7 * len(variant.key), ORDINALS[status]
    return (f"QA defect DEF-{ref} (severity: major, reporter: qa-jmarsh)\n"
            f"Title: {variant.title}\n"
            "Steps: run the transition on order ord-1001 in staging, open the warehouse "
            "dashboard, search ord-1001.\n"
            "Expected: the new state.\nActual: label 'unknown'; orders.status holds "
            f"'{value}' where the other rows hold single letters (N, P, S...).\n"
            "Contract suite output attached (make contract).")


FAMILY = Family(
    id="shop-legacy-status",
    repo="acme/shop-orders",
    fact="Order status must be persisted as the warehouse's one-letter legacy code "
         "(LEGACY_STATUS_CODES), never as the OrderStatus enum, its int value or its name.",
    memory="orders.status is read by the warehouse import as a one-letter code: store "
           "LEGACY_STATUS_CODES[OrderStatus.X] from shop/legacy.py, never the OrderStatus "
           "member, its .value ordinal or its .name (the dashboard shows 'unknown' and "
           "tests/contract fails).",
    memory_type="domain",
    identifiers=("LEGACY_STATUS_CODES", "shop/legacy.py"),
    conditions=("writing an order status to the orders table",),
    module="shop",
    lessons=(
        "Note for next time: anything written to orders.status has to be the warehouse letter "
        "from shop/legacy.py, not the enum.",
        "Lesson: the warehouse only understands the legacy one-letter status codes, so status "
        "writes go through the legacy mapping table.",
        "Reminder to self -- store statuses via LEGACY_STATUS_CODES; ints and names end up as "
        "'unknown' downstream.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, site) for i, site in enumerate(SITES)),
    explore=("shop/legacy.py", "shop/warehouse.py"),
)
