from datetime import date

from fare_engine.engine import FareEngine
from fare_engine.reports.daily import daily_revenue
from fare_engine.reports.rows import load_rows

from .helpers import at

EXPORT = """ts,card_id,stop,kind,charged_cents
1709542800,card-1,CEN,ride,250
1709544600,card-1,UNI,transfer,0
1709571600,card-2,HARB,ride,375
1709629200,card-2,HARB,ride,375
"""


def test_load_rows():
    rows = load_rows(EXPORT)
    assert rows[0]["at"] == at(4, 9)
    assert rows[0]["charged_cents"] == 250
    assert rows[2]["at"] == at(4, 17)


def test_daily_revenue():
    report = daily_revenue(load_rows(EXPORT), date(2024, 3, 4))
    assert report == {
        "day": "2024-03-04",
        "rides": 2,
        "transfers": 1,
        "refunds": 0,
        "revenue_cents": 625,
        "revenue": "$6.25",
    }


def test_report_from_ledger_export():
    engine = FareEngine()
    engine.tap("card-1", "CEN", at(4, 9))
    engine.tap("card-2", "UNI", at(4, 10))
    csv_text = "ts,card_id,stop,kind,charged_cents\n" + "".join(
        f"{r['ts']},{r['card_id']},{r['stop']},{r['kind']},{r['charged_cents']}\n"
        for r in engine.ledger.export_rows()
    )
    report = daily_revenue(load_rows(csv_text), date(2024, 3, 4))
    assert report["revenue_cents"] == 550
