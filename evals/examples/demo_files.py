"""The source files of the demo suite's two repositories, at each point of their history."""

from __future__ import annotations


def _after(text: str, anchor: str, insert: str) -> str:
    """``text`` with ``insert`` placed right after the first ``anchor``."""
    if anchor not in text:
        raise ValueError(f"anchor {anchor!r} not found")
    return text.replace(anchor, anchor + insert, 1)

PRICING_BASE = {
    "pricing/__init__.py": '"""acme/pricing: carts, money and shipping."""\n',
    "pricing/money.py": '''"""Money helpers: every amount is a Decimal, rounded half-up to cents."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def round_cents(value: Decimal) -> Decimal:
    """Round ``value`` half-up to whole cents: the shop's rounding rule."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)
''',
    "pricing/settings.py": '''"""Feature flags, read from ACME_-prefixed environment variables."""

import os

PREFIX = "ACME_"


def flag(name: str) -> bool:
    """Whether feature flag ``name`` is on: ``ACME_<name>`` set to 1, true or yes."""
    return os.environ.get(PREFIX + name, "").lower() in ("1", "true", "yes")
''',
    "pricing/cart.py": '''"""Cart arithmetic."""

from decimal import Decimal


def line_total(price: Decimal, quantity: Decimal) -> Decimal:
    """The price of ``quantity`` units."""
    return price * quantity


def shipping_fee(subtotal: Decimal) -> Decimal:
    """The flat shipping fee."""
    return Decimal("4.90")
''',
    "tests/test_cart.py": '''from decimal import Decimal

from pricing.cart import line_total, shipping_fee


def test_line_total_whole_units():
    assert line_total(Decimal("2.50"), Decimal("3")) == Decimal("7.50")


def test_shipping_fee_default(monkeypatch):
    monkeypatch.delenv("ACME_FREE_SHIPPING", raising=False)
    assert shipping_fee(Decimal("10")) == Decimal("4.90")
''',
}

PRICING_ROUNDING_GOLD = {
    "pricing/cart.py": _after(PRICING_BASE["pricing/cart.py"], "from decimal import Decimal\n",
                              "\nfrom pricing.money import round_cents\n")
    .replace("return price * quantity", "return round_cents(price * quantity)"),
}
PRICING_ROUNDING_DECOY = {
    "pricing/cart.py": PRICING_BASE["pricing/cart.py"]
    .replace("return price * quantity", "return round(price * quantity, 2)"),
}
PRICING_ROUNDING_TEST = {
    "tests/test_rounding.py": '''from decimal import Decimal

from pricing.cart import line_total


def test_half_cent_rounds_up():
    assert line_total(Decimal("0.125"), Decimal("1")) == Decimal("0.13")


def test_total_has_cents_only():
    assert line_total(Decimal("0.333"), Decimal("3")) == Decimal("1.00")
''',
}

_CART_1 = PRICING_ROUNDING_GOLD["pricing/cart.py"]
_FEE_DOC = '    """The flat shipping fee."""\n'
PRICING_SHIPPING_GOLD = {
    "pricing/cart.py": _after(
        _after(_CART_1, "from pricing.money import round_cents\n",
               "from pricing.settings import flag\n"),
        _FEE_DOC, '    if flag("FREE_SHIPPING"):\n        return Decimal("0.00")\n'),
}
PRICING_SHIPPING_DECOY = {
    "pricing/cart.py": _after(
        _after(_CART_1, '"""Cart arithmetic."""\n\n', "import os\n"),
        _FEE_DOC, '    if os.environ.get("FREE_SHIPPING"):\n        return Decimal("0.00")\n'),
}
PRICING_SHIPPING_TEST = {
    "tests/test_free_shipping.py": '''from decimal import Decimal

from pricing.cart import shipping_fee


def test_free_shipping_flag(monkeypatch):
    monkeypatch.setenv("ACME_FREE_SHIPPING", "1")
    assert shipping_fee(Decimal("10")) == Decimal("0.00")
''',
}

TEXTKIT_BASE = {
    "textkit/__init__.py": '"""acme/textkit: text helpers."""\n',
    "textkit/unicode.py": '''"""Unicode folding."""

import unicodedata


def fold_ascii(text: str) -> str:
    """Drop accents: NFKD-decompose, then remove combining marks."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
''',
    "textkit/slug.py": '''"""URL slugs."""

import re


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens."""
    words = re.findall(r"\\w+", text.lower())
    return "-".join(words)
''',
    "tests/test_slug.py": '''from textkit.slug import slugify


def test_words_joined():
    assert slugify("Hello, World") == "hello-world"
''',
}
_SLUG_DOC = '    """Lower-case words joined by hyphens."""\n'
TEXTKIT_ACCENTS_GOLD = {
    "textkit/slug.py": _after(
        _after(TEXTKIT_BASE["textkit/slug.py"], "import re\n",
               "\nfrom textkit.unicode import fold_ascii\n"),
        _SLUG_DOC, "    text = fold_ascii(text)\n"),
}
TEXTKIT_ACCENTS_DECOY = {
    "textkit/slug.py": _after(TEXTKIT_BASE["textkit/slug.py"], _SLUG_DOC,
                              '    text = text.encode("ascii", "ignore").decode()\n'),
}
TEXTKIT_ACCENTS_TEST = {
    "tests/test_accents.py": '''from textkit.slug import slugify


def test_accents_folded():
    assert slugify("Café Crème") == "cafe-creme"
''',
}
