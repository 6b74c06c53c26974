from datetime import date

from irrigation.budget.ledger import Ledger
from irrigation.reports.daily import render_daily


def test_render_daily(zones):
    day = date(2026, 1, 12)
    ledger = Ledger()
    ledger.record(1, day, 400)
    ledger.record(4, day, 650.5)
    text = render_daily(zones, ledger, day)
    assert text.splitlines()[0] == "Irrigation report 2026-01-12"
    assert "tomato-east        400.0       900" in text
    assert "total             1050.5" in text
