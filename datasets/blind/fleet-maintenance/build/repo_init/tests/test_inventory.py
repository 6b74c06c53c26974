import pytest

from fleet.depots import depot_for
from fleet.inventory.catalogue import lookup, price_cents
from fleet.inventory.stock import Inventory, OutOfStock


def test_depot_for():
    assert depot_for("n-12") == "NORTH"
    with pytest.raises(ValueError):
        depot_for("X-1")


def test_lookup():
    assert lookup("flt-105")["pack_size"] == 12
    assert price_cents("BRK-110") == 3890


def test_reserve_and_consume():
    inv = Inventory()
    inv.receive("NORTH", "FLT-105", 24)
    inv.reserve("NORTH", "FLT-105", 12)
    assert inv.available("NORTH", "FLT-105") == 12
    inv.consume("NORTH", "FLT-105", 12)
    assert inv.levels[("NORTH", "FLT-105")] == 12
    with pytest.raises(OutOfStock):
        inv.reserve("NORTH", "FLT-105", 13)
