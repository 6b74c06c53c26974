"""Family ``shop-paid-order-fulfilment``: payment reserves stock and opens the fulfilment at once.

Each task is a new way to pay that records the payment and marks the order paid, but forgets the
two steps every paid order needs: ``reserve_stock`` and ``create_fulfilment``. The naive fix adds
only the step the symptom points at.
"""

from __future__ import annotations

from collections.abc import Mapping

from evals.corpus.sizes import with_guard
from evals.corpus.spec import Decoy, Fact, Family, Rendered, Variant

# module, function, reference argument, method, how the issue names the payments
SITES: tuple[tuple[str, str, str, str, str], ...] = (
    ("voucher_payments", "pay_with_voucher", "voucher_code", "voucher", "voucher orders"),
    ("bank_transfer", "confirm_bank_transfer", "transfer_id", "bank_transfer",
     "orders paid by bank transfer"),
    ("gift_cards", "pay_with_gift_card", "card_number", "gift_card", "gift card orders"),
    ("manual_payments", "mark_paid_manually", "operator", "manual",
     "orders marked paid by support"),
    ("paypal_webhook", "handle_paypal_capture", "capture_id", "paypal", "PayPal orders"),
    ("store_credit", "pay_with_store_credit", "credit_id", "store_credit",
     "orders paid with store credit"),
    ("invoice_payments", "settle_invoice_payment", "invoice_ref", "invoice",
     "B2B orders paid on invoice"),
    ("cash_on_delivery", "confirm_cod_prepayment", "courier_ref", "cod",
     "cash-on-delivery prepaid orders"),
    ("klarna", "handle_klarna_authorisation", "authorisation", "klarna", "Klarna orders"),
    ("loyalty_points", "pay_with_points", "member_id", "points",
     "orders paid with loyalty points"),
    ("apple_pay", "handle_apple_pay_token", "token_ref", "apple_pay", "Apple Pay orders"),
)

PROBLEMS = (
    "{what} are charged fine but never get picked in the warehouse. Customers are starting to "
    "ask where their parcels are.",
    "Ops noticed {what} sitting in 'paid' forever: nothing happens after the payment. Other "
    "payment types ship normally.",
    "After enabling the new payment type, {what} never leave the warehouse queue. The payment "
    "itself is recorded correctly.",
)

MODULE = '''"""{doc}"""

from __future__ import annotations

{imports}from shop.db import Database
from shop.legacy import LEGACY_STATUS_CODES
from shop.models import Order, OrderStatus


def {func}(db: Database, order: Order, {arg}: str) -> None:
    """Record the {method} payment for ``order`` and mark it paid."""
    db.insert("payments", f"{{order.id}}:{method}", order_id=order.id, method="{method}",
              reference={arg}, amount=str(order.total))
    order.status = OrderStatus.PAID
    db.update("orders", order.id, status=LEGACY_STATUS_CODES[OrderStatus.PAID])
{tail}'''

VISIBLE_TEST = '''from shop.orders import load_status
from shop.models import OrderStatus
from shop.{module} import {func}


def test_{func}_records_payment(db, placed_order):
    {func}(db, placed_order, "ref-42")
    assert db.get("payments", "ord-1001:{method}")["reference"] == "ref-42"
    assert load_status(db, placed_order.id) is OrderStatus.PAID
'''

HIDDEN_TEST = '''from shop.inventory import available
from shop.{module} import {func}


def test_{func}_reserves_stock(db, placed_order):
    {func}(db, placed_order, "ref-42")
    assert available(db, "MUG-01") == 8
    assert db.get("reservations", "ord-1001:TEE-02")["quantity"] == 1


def test_{func}_opens_fulfilment(db, placed_order):
    {func}(db, placed_order, "ref-42")
    assert db.get("fulfilments", "ord-1001")["state"] == "open"
'''

FULFIL_IMPORT = "from shop.fulfilment import create_fulfilment\n"
RESERVE_IMPORT = "from shop.inventory import reserve_stock\n"
FULFIL_CALL = "    create_fulfilment(db, order)\n"
RESERVE_CALL = "    reserve_stock(db, order)\n"


MODULE_IMPORT = "from shop import fulfilment, inventory\n"
MODULE_CALLS = ("    inventory.reserve_stock(db, order)\n"
                "    fulfilment.create_fulfilment(db, order)\n")
TOTAL_GUARD = "if order.total <= 0:\n    raise ValueError(order.total)"


def _guarded(text: str, func: str, arg: str) -> tuple[str, ...]:
    """Other writings of a handler: a guard on its reference, on the order's total, both."""
    reference = f"if not {arg}:\n    raise ValueError({arg})"
    return (with_guard(text, func, reference), with_guard(text, func, TOTAL_GUARD),
            with_guard(with_guard(text, func, TOTAL_GUARD), func, reference))


def _variant(index: int, site: tuple[str, str, str, str, str]) -> Variant:
    module, func, arg, method, what = site
    fill = dict(module=module, func=func, arg=arg, method=method,
                doc=f"{method.replace('_', ' ').capitalize()} payments.")
    path, test_path = f"shop/{module}.py", f"tests/test_{module}.py"
    hidden_path = f"tests/test_{module}_fulfilment.py"

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        def writings(imports: str, tail: str) -> tuple[dict[str, str], ...]:
            text = MODULE.format(imports=imports, tail=tail, **fill)
            return tuple({path: form} for form in (text, *_guarded(text, func, arg)))

        gold = writings(FULFIL_IMPORT + RESERVE_IMPORT, RESERVE_CALL + FULFIL_CALL)
        # Each decoy may import its module too, so that the style tells nothing either.
        fulfil = (*writings(FULFIL_IMPORT, FULFIL_CALL),
                  *writings("from shop import fulfilment\n", MODULE_CALLS.split("\n", 1)[1]))
        reserve = (*writings(RESERVE_IMPORT, RESERVE_CALL),
                   *writings("from shop import inventory\n",
                             MODULE_CALLS.split("\n", 1)[0] + "\n"))
        return Rendered(
            site={path: MODULE.format(imports="", tail="", **fill),
                  test_path: VISIBLE_TEST.format(**fill)},
            gold=gold[0],
            # Both modules imported at once: one line fewer.
            gold_forms=(*gold[1:], *writings(MODULE_IMPORT, MODULE_CALLS)),
            gold_description="reserve the stock and open the fulfilment once the payment lands",
            decoys=(
                Decoy("open the fulfilment after the payment so the warehouse picks the order",
                      fulfil[0], fulfil[1:]),
                Decoy("reserve the stock once the payment is recorded", reserve[0], reserve[1:]),
            ),
            hidden_tests={hidden_path: HIDDEN_TEST.format(**fill)},
            test_files=(test_path, hidden_path),
            edit_path=path,
        )

    return Variant(
        key=module, title=f"{what[0].upper()}{what[1:]} never get picked",
        problem=PROBLEMS[index % len(PROBLEMS)].format(what=what[0].upper() + what[1:]),
        site_message=f"feat: {method.replace('_', ' ')} payments ({func})", render=render,
    )


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @priya-n on {rendered.edit_path}:17\n\n"
            "> create_fulfilment(db, order)\n\n"
            "A fulfilment without a reservation is how we oversold the mugs in March: the "
            "warehouse picks stock that another order already holds. Paid orders need the "
            "reservation and the fulfilment in the same step, like the card flow does. "
            "Please add the reservation (and a test that stock goes down).")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return ("QA defect DEF-{} (severity: critical, reporter: qa-jmarsh)\n"
            "Title: stock oversold after {}\n"
            "Steps: pay ord-1001 (2x MUG-01, 1x TEE-02) with the new method; check stock "
            "admin.\nExpected: MUG-01 available 8.\nActual: available still 10 and the "
            "warehouse already picked the order: the reservation is missing, so a second order "
            "took the same mugs.".format(300 + len(variant.key), variant.key.replace("_", " ")))


RESERVE_FACT = Fact(
    summary="A payment handler must call reserve_stock(db, order) from shop/inventory.py once "
            "the order is paid: without the reservation the warehouse picks stock that another "
            "order holds, and the shop oversells.",
    type="domain", module="shop", conditions=("adding or changing a payment method",),
)
FULFIL_FACT = Fact(
    summary="A payment handler must call create_fulfilment(db, order) from shop/fulfilment.py "
            "once the order is paid: without the fulfilment a paid order sits in the warehouse "
            "queue and is never picked.",
    type="domain", module="shop", conditions=("adding or changing a payment method",),
)

FAMILY = Family(
    id="shop-paid-order-fulfilment",
    repo="acme/shop-orders",
    fact="Every payment path must reserve stock (reserve_stock) and create the fulfilment "
         "(create_fulfilment) together once the order is paid; either alone breaks the warehouse.",
    memory=f"{RESERVE_FACT.summary} {FULFIL_FACT.summary}",
    memory_type="domain",
    identifiers=("reserve_stock", "create_fulfilment", "shop/inventory.py", "shop/fulfilment.py"),
    conditions=("adding or changing a payment method",),
    module="shop",
    # One memory per step: each decoy lacks one of them, and a memory naming both would give
    # every candidate the same support.
    facts=(RESERVE_FACT, FULFIL_FACT),
    lessons=(
        "Takeaway: a payment handler is not done until it both reserves stock and opens the "
        "fulfilment.",
        "Learned the hard way: create_fulfilment without reserve_stock oversells; every paid "
        "order needs the pair.",
        "Note: paid orders -> reservation + fulfilment, always together.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, site) for i, site in enumerate(SITES)),
    explore=("shop/inventory.py",),
)
