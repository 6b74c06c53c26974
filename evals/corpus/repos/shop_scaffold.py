"""The first commit of ``acme/shop-orders``: a small order service with a real pytest suite."""

from __future__ import annotations

from evals.corpus.gitrepo import FileChanges

PYPROJECT = '''[project]
name = "shop-orders"
version = "0.1.0"
description = "Order management for the Acme web shop"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["contract: checks shared with the warehouse team"]
'''

README = '''# shop-orders

Order management for the Acme web shop: orders, payments, stock and fulfilment.

    make test        # the unit suite
    make contract    # contract checks shared with the warehouse team

The warehouse system imports `orders` every night; see `shop/warehouse.py` for its dashboard.
'''

MAKEFILE = '''test:
\tpython -m pytest -q

contract:
\tpython -m pytest -q -m contract
'''

MODELS = '''"""Orders and their lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import IntEnum


class OrderStatus(IntEnum):
    PENDING = 1
    PAID = 2
    PACKED = 3
    SHIPPED = 4
    DELIVERED = 5
    CANCELLED = 6
    REFUNDED = 7
    ON_HOLD = 8
    RETURNED = 9
    BACKORDERED = 10
    UNDER_REVIEW = 11
    ARCHIVED = 12
    PARTIALLY_SHIPPED = 13
    DISPUTED = 14


@dataclass
class OrderLine:
    sku: str
    quantity: int
    unit_price: Decimal


@dataclass
class Order:
    id: str
    customer_id: str
    lines: list[OrderLine] = field(default_factory=list)
    status: OrderStatus = OrderStatus.PENDING

    @property
    def total(self) -> Decimal:
        return sum((line.unit_price * line.quantity for line in self.lines), Decimal("0"))
'''

DB = '''"""A small table store with the shape of the shop's PostgreSQL schema."""

from __future__ import annotations

from collections import defaultdict
from typing import Any


class Database:
    """Tables of rows keyed by primary key; rows are plain dicts."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)

    def insert(self, table: str, key: str, **row: Any) -> None:
        if key in self.tables[table]:
            raise KeyError(f"duplicate key {key!r} in {table}")
        self.tables[table][key] = dict(row)

    def update(self, table: str, key: str, **fields: Any) -> None:
        self.tables[table][key].update(fields)

    def get(self, table: str, key: str) -> dict[str, Any]:
        return self.tables[table][key]

    def rows(self, table: str) -> list[dict[str, Any]]:
        return list(self.tables[table].values())
'''

LEGACY = '''"""Order status codes shared with the warehouse system."""

from __future__ import annotations

from shop.models import OrderStatus

LEGACY_STATUS_CODES: dict[OrderStatus, str] = {
    OrderStatus.PENDING: "N",
    OrderStatus.PAID: "P",
    OrderStatus.PACKED: "K",
    OrderStatus.SHIPPED: "S",
    OrderStatus.DELIVERED: "D",
    OrderStatus.CANCELLED: "X",
    OrderStatus.REFUNDED: "R",
    OrderStatus.ON_HOLD: "H",
    OrderStatus.RETURNED: "T",
    OrderStatus.BACKORDERED: "B",
    OrderStatus.UNDER_REVIEW: "U",
    OrderStatus.ARCHIVED: "A",
    OrderStatus.PARTIALLY_SHIPPED: "Q",
    OrderStatus.DISPUTED: "G",
}


def status_from_legacy(code: str) -> OrderStatus:
    for status, known in LEGACY_STATUS_CODES.items():
        if known == code:
            return status
    raise ValueError(f"unknown status code {code!r}")
'''

ORDERS = '''"""Placing orders and reading them back."""

from __future__ import annotations

from shop.db import Database
from shop.legacy import LEGACY_STATUS_CODES, status_from_legacy
from shop.models import Order, OrderStatus


def save_order(db: Database, order: Order) -> None:
    db.insert(
        "orders", order.id, customer_id=order.customer_id,
        status=LEGACY_STATUS_CODES[order.status], note="",
        lines=[(line.sku, line.quantity, str(line.unit_price)) for line in order.lines],
    )


def load_status(db: Database, order_id: str) -> OrderStatus:
    return status_from_legacy(db.get("orders", order_id)["status"])
'''

INVENTORY = '''"""Stock levels and reservations."""

from __future__ import annotations

from shop.db import Database
from shop.models import Order


def set_stock(db: Database, sku: str, quantity: int) -> None:
    db.tables["stock"][sku] = {"sku": sku, "on_hand": quantity, "reserved": 0}


def available(db: Database, sku: str) -> int:
    row = db.get("stock", sku)
    return int(row["on_hand"] - row["reserved"])


def reserve_stock(db: Database, order: Order) -> None:
    for line in order.lines:
        if available(db, line.sku) < line.quantity:
            raise ValueError(f"not enough stock for {line.sku}")
    for line in order.lines:
        db.get("stock", line.sku)["reserved"] += line.quantity
        db.insert("reservations", f"{order.id}:{line.sku}", order_id=order.id,
                  sku=line.sku, quantity=line.quantity)
'''

FULFILMENT = '''"""Fulfilment requests for the warehouse."""

from __future__ import annotations

from shop.db import Database
from shop.models import Order


def create_fulfilment(db: Database, order: Order) -> None:
    db.insert("fulfilments", order.id, order_id=order.id, state="open",
              lines=[(line.sku, line.quantity) for line in order.lines])
'''

MONEY = '''"""Money: amounts arrive as decimal strings and are stored as integer cents."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def to_cents(amount: str | Decimal) -> int:
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return int(value * 100)
'''

WAREHOUSE = '''"""What the warehouse dashboard shows for an order row."""

from __future__ import annotations

from typing import Any

LABELS = {
    "N": "New", "P": "Paid", "K": "Packed", "S": "Shipped", "D": "Delivered",
    "X": "Cancelled", "R": "Refunded", "H": "On hold", "T": "Returned", "B": "Backordered",
    "U": "Under review", "A": "Archived", "Q": "Partly shipped", "G": "Disputed",
}


def dashboard_label(row: dict[str, Any]) -> str:
    return LABELS.get(row.get("status"), "unknown")
'''

CONFIG = '''"""Service settings."""

PAGE_SIZE = 50
"""Orders per page in list endpoints."""

CURRENCY = "EUR"
'''

CONFTEST_ROOT = '''# Keeps the repository root importable when pytest runs from anywhere.
'''

CONFTEST = '''from decimal import Decimal

import pytest

from shop.db import Database
from shop.inventory import set_stock
from shop.models import Order, OrderLine
from shop.orders import save_order


@pytest.fixture
def db() -> Database:
    database = Database()
    set_stock(database, "MUG-01", 10)
    set_stock(database, "TEE-02", 5)
    return database


@pytest.fixture
def placed_order(db: Database) -> Order:
    order = Order("ord-1001", "cust-7", [OrderLine("MUG-01", 2, Decimal("9.50")),
                                         OrderLine("TEE-02", 1, Decimal("19.99"))])
    save_order(db, order)
    return order
'''

TEST_ORDERS = '''from shop.models import OrderStatus
from shop.orders import load_status


def test_new_order_is_pending(db, placed_order):
    assert load_status(db, placed_order.id) is OrderStatus.PENDING


def test_order_total(placed_order):
    assert str(placed_order.total) == "38.99"
'''

TEST_INVENTORY = '''import pytest

from shop.inventory import available, reserve_stock


def test_reserve_stock_decrements_available(db, placed_order):
    reserve_stock(db, placed_order)
    assert available(db, "MUG-01") == 8


def test_reserve_stock_refuses_oversell(db, placed_order):
    placed_order.lines[0].quantity = 50
    with pytest.raises(ValueError):
        reserve_stock(db, placed_order)
'''

TEST_MONEY = '''from shop.money import to_cents


def test_to_cents_whole_amount():
    assert to_cents("12.00") == 1200
'''


def scaffold() -> FileChanges:
    """Every file of the repository's first commit."""
    return {
        "pyproject.toml": PYPROJECT, "README.md": README, "Makefile": MAKEFILE,
        ".gitignore": "__pycache__/\n.pytest_cache/\n", "conftest.py": CONFTEST_ROOT,
        "shop/__init__.py": '"""Order management for the Acme web shop."""\n',
        "shop/models.py": MODELS, "shop/db.py": DB, "shop/legacy.py": LEGACY,
        "shop/orders.py": ORDERS, "shop/inventory.py": INVENTORY,
        "shop/fulfilment.py": FULFILMENT, "shop/money.py": MONEY,
        "shop/warehouse.py": WAREHOUSE, "shop/config.py": CONFIG,
        "tests/conftest.py": CONFTEST, "tests/test_orders.py": TEST_ORDERS,
        "tests/test_inventory.py": TEST_INVENTORY, "tests/test_money.py": TEST_MONEY,
    }
