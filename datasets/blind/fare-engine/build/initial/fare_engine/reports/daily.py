from datetime import date

from ..money import format_cents


def daily_revenue(rows: list[dict], day: date) -> dict:
    rides = transfers = refunds = 0
    revenue = 0
    for row in rows:
        if row["at"].date() != day:
            continue
        if row["kind"] == "ride":
            rides += 1
        elif row["kind"] == "transfer":
            transfers += 1
        elif row["kind"] == "refund":
            refunds += 1
        revenue += row["charged_cents"]
    return {
        "day": day.isoformat(),
        "rides": rides,
        "transfers": transfers,
        "refunds": refunds,
        "revenue_cents": revenue,
        "revenue": format_cents(revenue),
    }
