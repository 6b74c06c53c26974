from datetime import date

import pytest

from irrigation.budget.ledger import Ledger

D1 = date(2026, 1, 12)
D2 = date(2026, 1, 13)


def test_used_liters():
    ledger = Ledger()
    ledger.record(1, D1, 120.0)
    ledger.record(1, D1, 30.5)
    ledger.record(1, D2, 10.0)
    ledger.record(2, D1, 99.0)
    assert ledger.used_liters(1, D1) == 150.5
    assert ledger.used_liters(1, D2) == 10.0
    assert ledger.zones() == [1, 2]


def test_rejects_negative():
    with pytest.raises(ValueError):
        Ledger().record(1, D1, -1)
