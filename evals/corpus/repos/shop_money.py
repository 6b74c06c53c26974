"""Family ``shop-money-cents``: money becomes cents only through ``to_cents``.

Amounts arrive as decimal strings. ``int(float(x) * 100)`` loses a cent on values such as
``"0.29"``; the obvious repair, ``round(...)``, still rounds half-cents to even and misreads
binary floats (``"2.675"``, ``"1.005"``). The shop rounds half up with ``Decimal``.
"""

from __future__ import annotations

from collections.abc import Mapping

from evals.corpus.sizes import with_guard
from evals.corpus.spec import Decoy, Family, Rendered, Variant

# module, function, ledger kind, how the issue names the amounts
SITES: tuple[tuple[str, str, str, str], ...] = (
    ("discounts", "apply_discount", "discount", "discounts"),
    ("shipping_fees", "charge_shipping", "shipping", "shipping fees"),
    ("tips", "add_tip", "tip", "courier tips"),
    ("gift_wrap", "add_gift_wrap", "gift_wrap", "gift wrap charges"),
    ("service_fees", "add_service_fee", "service_fee", "service fees"),
    ("price_adjustments", "adjust_price", "adjustment", "price adjustments"),
    ("handling_fees", "add_handling_fee", "handling", "handling fees"),
    ("donations", "add_donation", "donation", "charity donations at checkout"),
    ("deposits", "take_deposit", "deposit", "deposits on pre-orders"),
    ("customs", "charge_customs", "customs", "customs pre-payments"),
    ("insurance", "add_parcel_insurance", "insurance", "parcel insurance charges"),
)

PROBLEMS = (
    "Finance reconciled last month and some {what} in the ledger are a cent lower than what "
    "the storefront showed the customer. Not all of them, just some.",
    "Small mismatch between the ledger export and the storefront for {what}: off by 0.01 on a "
    "handful of orders.",
    "Accounting reports rounding differences on {what}. The totals we book don't always match "
    "the receipts.",
)

MODULE = '''"""{doc}"""

from __future__ import annotations

from shop.db import Database
{imports}

def {func}(db: Database, order_id: str, amount: str) -> int:
    """Book the {words} for an order; ``amount`` is the storefront's decimal string."""
    cents = {expr}
    db.insert("ledger", f"{{order_id}}:{kind}", order_id=order_id, kind="{kind}",
              amount_cents=cents)
    return cents
'''

VISIBLE_TEST = '''from shop.{module} import {func}


def test_{func}_books_amount(db, placed_order):
    assert {func}(db, placed_order.id, "5.00") == 500
    assert db.get("ledger", "ord-1001:{kind}")["amount_cents"] == 500
'''

HIDDEN_TEST = '''import pytest

from shop.db import Database
from shop.{module} import {func}


@pytest.mark.parametrize("amount, cents", [("0.29", 29), ("2.675", 268), ("1.005", 101)])
def test_{func}_matches_storefront(amount, cents):
    assert {func}(Database(), "ord-9", amount) == cents
'''


GUARDS = ("if not amount:\n    raise ValueError(amount)",
          "if not order_id:\n    raise KeyError(order_id)")
"""Guards a booking may start with (writings of other code sizes, ``evals.corpus.sizes``)."""


def _writings(text: str, func: str) -> tuple[str, ...]:
    one, other = (with_guard(text, func, guard) for guard in GUARDS)
    return (text, one, other, with_guard(one, func, GUARDS[1]))


def _variant(index: int, site: tuple[str, str, str, str]) -> Variant:
    module, func, kind, what = site
    words = kind.replace("_", " ")
    fill = dict(module=module, func=func, kind=kind, words=words,
                doc=f"{words.capitalize()} bookings.")
    path, test_path = f"shop/{module}.py", f"tests/test_{module}.py"
    hidden_path = f"tests/test_{module}_rounding.py"

    def module_with(expr: str, imports: str = "") -> str:
        return MODULE.format(expr=expr, imports=imports, **fill)

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        def writings(expr: str, imports: str = "") -> tuple[dict[str, str], ...]:
            return tuple({path: form} for form in _writings(module_with(expr, imports), func))

        gold = writings("to_cents(amount)", "from shop.money import to_cents\n")
        rounded, two_places = (writings("round(float(amount) * 100)"),
                               writings("int(round(float(amount), 2) * 100)"))
        return Rendered(
            site={path: module_with("int(float(amount) * 100)"),
                  test_path: VISIBLE_TEST.format(**fill)},
            gold=gold[0],
            gold_forms=gold[1:],
            gold_description="convert with the shop's cents helper instead of float maths",
            decoys=(
                Decoy("round instead of truncating so 0.29 books as 29", rounded[0],
                      rounded[1:]),
                Decoy("round to two decimals before converting", two_places[0],
                      two_places[1:]),
            ),
            hidden_tests={hidden_path: HIDDEN_TEST.format(**fill)},
            test_files=(test_path, hidden_path),
            edit_path=path,
        )

    return Variant(
        key=module, title=f"{what.capitalize()} off by a cent in the ledger",
        problem=PROBLEMS[index % len(PROBLEMS)].format(what=what),
        site_message=f"feat: book {words} in the ledger ({func})", render=render,
    )


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @tomasz on {rendered.edit_path}:10\n\n"
            "> cents = round(float(amount) * 100)\n\n"
            "round() is banker's rounding and the float is already wrong before it: "
            "float('2.675') * 100 is 267.49999..., finance expects 268 (half-up, like the "
            "receipts). We never go through float for money here, shop/money.py has the helper.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return (f"QA defect DEF-{400 + len(variant.key)} (severity: minor, reporter: finance-ops)\n"
            f"Title: {variant.title}\n"
            "Storefront amount 2.675 (three-decimal supplier price) -> ledger 267, receipt 2.68. "
            "Amount 1.005 -> ledger 100, receipt 1.01. Expected half-up rounding to the cent.")


FAMILY = Family(
    id="shop-money-cents",
    repo="acme/shop-orders",
    fact="Amounts become integer cents only through shop.money.to_cents (Decimal, ROUND_HALF_UP); "
         "float arithmetic, int() and round() lose or mis-round cents.",
    memory="Money strings become integer cents only via to_cents() from shop/money.py "
           "(Decimal, ROUND_HALF_UP), never through float(amount) * 100 with int() or round(), "
           "which book 2.675 as 267 and 1.005 as 100 where finance expects 268 and 101.",
    memory_type="domain",
    identifiers=("to_cents", "shop/money.py", "ROUND_HALF_UP"),
    conditions=("converting a storefront amount to cents",),
    module="shop",
    lessons=(
        "Note: never push money through float here -- to_cents() or nothing.",
        "Lesson learned: round() is not the fix for cents, the Decimal half-up helper is.",
        "For later: ledger amounts must match receipts, which round half up; use the money "
        "helper.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, site) for i, site in enumerate(SITES)),
)
