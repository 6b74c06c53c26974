"""Source of the acme-events/box-office repository at its first commit, and the
commits made by people outside the recorded sessions."""

INITIAL = {}

INITIAL[".gitignore"] = """__pycache__/
*.pyc
.pytest_cache/
.env
.venv/
"""

INITIAL["pyproject.toml"] = """[project]
name = "box-office"
version = "0.3.0"
description = "Event ticketing: seat holds, bookings, refunds, tiers, promos, settlement"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

INITIAL["README.md"] = """# box-office

Ticketing service for Acme Events venues: seat holds, bookings, price tiers,
promo codes, refunds, ticket texts and venue settlement statements.

## Layout

- `boxoffice/pricing.py` - price tiers and quotes
- `boxoffice/fees.py` - booking fees per tier
- `boxoffice/promos.py` - promo codes
- `boxoffice/holds.py` - seat holds (10 minute TTL)
- `boxoffice/refunds.py` - refunds
- `boxoffice/tickets.py` - ticket and confirmation email texts
- `boxoffice/settlement/` - venue settlement statements
- `boxoffice/reports/` - ops dashboard figures

## Policy notes

- Refunds are available until 48 hours before the show starts.
- The booking fee is kept on a customer refund.

## Tests

    python -m pytest -q
"""

INITIAL["boxoffice/__init__.py"] = '''"""Acme Events box office."""

__version__ = "0.3.0"
'''

INITIAL["boxoffice/clock.py"] = '''from datetime import datetime, timezone


def utc(text):
    """Parse 'YYYY-MM-DD HH:MM' as a UTC datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
'''

INITIAL["boxoffice/models.py"] = '''from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Venue:
    code: str
    name: str
    utc_offset_minutes: int = 0


@dataclass(frozen=True)
class Event:
    code: str
    title: str
    venue: Venue
    starts_at: datetime
    doors_at: datetime
    base_price_cents: int


@dataclass
class Booking:
    ref: str
    event: Event
    tier: str
    qty: int
    face_cents: int
    fee_cents: int
    booked_at: datetime
    discount_cents: int = 0
    promo: str | None = None
    status: str = "paid"
    refunded_at: datetime | None = None

    @property
    def total_cents(self):
        return self.face_cents - self.discount_cents + self.fee_cents
'''

INITIAL["boxoffice/money.py"] = '''def fmt(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100}.{cents % 100:02d}"


def pct_of(cents, pct):
    """pct percent of cents, rounded half up to the cent."""
    return (cents * pct + 50) // 100
'''

INITIAL["boxoffice/fees.py"] = '''from .money import pct_of

FEE_TABLE = {
    "adult": 10,
    "child": 5,
    "senior": 5,
}


def fee_for(tier, face_cents):
    return pct_of(face_cents, FEE_TABLE[tier])
'''

INITIAL["boxoffice/promos.py"] = '''PROMOS = {
    "SAVE10": 10,
    "FALL15": 15,
}


class UnknownPromo(KeyError):
    pass


def promo_pct(code):
    try:
        return PROMOS[code.strip().upper()]
    except KeyError:
        raise UnknownPromo(code) from None
'''

INITIAL["boxoffice/pricing.py"] = '''from .fees import fee_for
from .models import Booking

TIERS = {
    "adult": 100,
    "child": 50,
    "senior": 70,
}


class UnknownTier(KeyError):
    pass


def list_price(event, tier):
    try:
        pct = TIERS[tier]
    except KeyError:
        raise UnknownTier(tier) from None
    return event.base_price_cents * pct // 100


def quote(event, tier, qty):
    face = list_price(event, tier) * qty
    fee = fee_for(tier, face)
    return {"face": face, "fee": fee, "discount": 0, "total": face + fee}


def book(ref, event, tier, qty, booked_at):
    q = quote(event, tier, qty)
    return Booking(
        ref=ref,
        event=event,
        tier=tier,
        qty=qty,
        face_cents=q["face"],
        fee_cents=q["fee"],
        booked_at=booked_at,
        discount_cents=q["discount"],
    )
'''

INITIAL["boxoffice/holds.py"] = '''from datetime import timedelta

HOLD_TTL = timedelta(minutes=10)


class SeatTaken(Exception):
    pass


class HoldBook:
    def __init__(self):
        self._holds = {}

    def hold(self, seat, token, now):
        current = self._holds.get(seat)
        if current and current[1] > now and current[0] != token:
            raise SeatTaken(seat)
        self._holds[seat] = (token, now + HOLD_TTL)

    def release(self, seat, token):
        current = self._holds.get(seat)
        if current and current[0] == token:
            del self._holds[seat]

    def held_by(self, seat, now):
        current = self._holds.get(seat)
        if current and current[1] > now:
            return current[0]
        return None

    def expire(self, now):
        gone = [seat for seat, (_, until) in self._holds.items() if until <= now]
        for seat in gone:
            del self._holds[seat]
        return sorted(gone)
'''

INITIAL["boxoffice/refunds.py"] = '''from datetime import timedelta

REFUND_CUTOFF_HOURS = 48


class RefundClosed(Exception):
    pass


def refund_deadline(event):
    return event.starts_at - timedelta(hours=REFUND_CUTOFF_HOURS)


def refund(booking, now):
    if booking.status != "paid":
        raise ValueError(f"booking {booking.ref} is {booking.status}")
    if now >= refund_deadline(booking.event):
        raise RefundClosed(booking.ref)
    booking.status = "refunded"
    booking.refunded_at = now
    return booking.face_cents - booking.discount_cents
'''

INITIAL["boxoffice/tickets.py"] = '''from datetime import timedelta

from .money import fmt


def render_ticket(booking, seat):
    ev = booking.event
    return "\\n".join([
        ev.title,
        f"{ev.venue.name} - doors {ev.doors_at:%Y-%m-%d %H:%M} UTC",
        f"Seat {seat}  Tier {booking.tier}",
        f"Ref {booking.ref}",
    ])


def confirmation_email(booking):
    ev = booking.event
    refund_by = ev.starts_at - timedelta(hours=48)
    return "\\n".join([
        f"Subject: Your tickets for {ev.title}",
        "",
        f"Booking {booking.ref}: {booking.qty} x {booking.tier}",
        f"Paid {fmt(booking.total_cents)} (incl. {fmt(booking.fee_cents)} booking fee)",
        f"Refunds available until {refund_by:%Y-%m-%d %H:%M} UTC",
    ])
'''

INITIAL["boxoffice/settlement/__init__.py"] = ""

INITIAL["boxoffice/settlement/util.py"] = '''from datetime import timedelta


def local_day(ts, venue):
    """Calendar day of the UTC timestamp ts at the venue."""
    return (ts + timedelta(minutes=venue.utc_offset_minutes)).date()
'''

INITIAL["boxoffice/settlement/report.py"] = '''from ..money import fmt
from .util import local_day

TIER_ORDER = ["adult", "senior", "child"]


def settlement_rows(bookings):
    unknown = sorted({b.tier for b in bookings} - set(TIER_ORDER))
    if unknown:
        raise ValueError(f"tiers not in settlement order: {', '.join(unknown)}")
    rows = []
    for tier in TIER_ORDER:
        paid = [b for b in bookings if b.tier == tier and b.status == "paid"]
        if not paid:
            continue
        rows.append({
            "tier": tier,
            "tickets": sum(b.qty for b in paid),
            "face": sum(b.face_cents for b in paid),
            "discounts": sum(b.discount_cents for b in paid),
            "fees": sum(b.fee_cents for b in paid),
        })
    return rows


def venue_payout(bookings):
    return sum(r["face"] - r["discounts"] for r in settlement_rows(bookings))


def statement(event, bookings):
    lines = [
        f"Settlement {event.code} {event.venue.name}",
        f"Show date {local_day(event.starts_at, event.venue)}",
    ]
    for r in settlement_rows(bookings):
        lines.append(f"{r['tier']:<10}{r['tickets']:>5}{fmt(r['face'] - r['discounts']):>12}")
    lines.append(f"Payout {fmt(venue_payout(bookings))}")
    return "\\n".join(lines)
'''

INITIAL["boxoffice/reports/__init__.py"] = ""

INITIAL["boxoffice/reports/sales.py"] = '''from collections import defaultdict


def daily_sales(bookings):
    """Tickets and gross per day across all venues (ops dashboard)."""
    out = defaultdict(lambda: {"tickets": 0, "gross": 0})
    for b in bookings:
        if b.status != "paid":
            continue
        day = b.booked_at.date()
        out[day]["tickets"] += b.qty
        out[day]["gross"] += b.total_cents
    return dict(sorted(out.items()))
'''

INITIAL["tests/conftest.py"] = '''import pytest

from boxoffice.clock import utc
from boxoffice.models import Event, Venue


@pytest.fixture
def venue():
    return Venue("BRX", "Bronx Hall", utc_offset_minutes=-240)


@pytest.fixture
def event(venue):
    return Event(
        code="E100",
        title="The Quiet Band",
        venue=venue,
        starts_at=utc("2026-10-24 20:00"),
        doors_at=utc("2026-10-24 18:30"),
        base_price_cents=4000,
    )
'''

INITIAL["tests/test_pricing.py"] = '''import pytest

from boxoffice.clock import utc
from boxoffice.pricing import UnknownTier, book, list_price, quote


def test_list_price_by_tier(event):
    assert list_price(event, "adult") == 4000
    assert list_price(event, "child") == 2000
    assert list_price(event, "senior") == 2800


def test_unknown_tier(event):
    with pytest.raises(UnknownTier):
        list_price(event, "alien")


def test_quote_adds_fee(event):
    assert quote(event, "adult", 2) == {"face": 8000, "fee": 800, "discount": 0, "total": 8800}


def test_book_copies_quote(event):
    b = book("R1", event, "senior", 1, utc("2026-10-01 12:00"))
    assert (b.face_cents, b.fee_cents, b.total_cents) == (2800, 140, 2940)
'''

INITIAL["tests/test_holds.py"] = '''import pytest

from boxoffice.clock import utc
from boxoffice.holds import HoldBook, SeatTaken


def test_hold_blocks_other_token():
    book = HoldBook()
    book.hold("A-1", "t1", utc("2026-10-01 12:00"))
    with pytest.raises(SeatTaken):
        book.hold("A-1", "t2", utc("2026-10-01 12:05"))


def test_hold_expires():
    book = HoldBook()
    book.hold("A-1", "t1", utc("2026-10-01 12:00"))
    assert book.held_by("A-1", utc("2026-10-01 12:09")) == "t1"
    assert book.held_by("A-1", utc("2026-10-01 12:10")) is None
    assert book.expire(utc("2026-10-01 12:10")) == ["A-1"]


def test_release_only_by_owner():
    book = HoldBook()
    book.hold("A-1", "t1", utc("2026-10-01 12:00"))
    book.release("A-1", "t2")
    assert book.held_by("A-1", utc("2026-10-01 12:01")) == "t1"
'''

INITIAL["tests/test_refunds.py"] = '''import pytest

from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.refunds import RefundClosed, refund


def test_refund_returns_face_keeps_fee(event):
    b = book("R1", event, "adult", 2, utc("2026-10-01 12:00"))
    assert refund(b, utc("2026-10-10 12:00")) == 8000
    assert b.status == "refunded"


def test_refund_twice_rejected(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-10 12:00"))
    with pytest.raises(ValueError):
        refund(b, utc("2026-10-10 13:00"))


def test_refund_closed_near_show(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    with pytest.raises(RefundClosed):
        refund(b, utc("2026-10-24 12:00"))
'''

INITIAL["tests/test_tickets.py"] = '''from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.tickets import confirmation_email, render_ticket


def test_render_ticket(event):
    b = book("R9", event, "adult", 1, utc("2026-10-01 12:00"))
    text = render_ticket(b, "A-12")
    assert "Seat A-12  Tier adult" in text
    assert "doors 2026-10-24 18:30 UTC" in text


def test_confirmation_email_totals(event):
    b = book("R9", event, "adult", 2, utc("2026-10-01 12:00"))
    text = confirmation_email(b)
    assert "Paid $88.00 (incl. $8.00 booking fee)" in text
'''

INITIAL["tests/test_settlement.py"] = '''import pytest

from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.settlement.report import settlement_rows, statement, venue_payout


def _bookings(event):
    return [
        book("R1", event, "adult", 2, utc("2026-10-01 12:00")),
        book("R2", event, "child", 1, utc("2026-10-02 12:00")),
        book("R3", event, "senior", 1, utc("2026-10-03 12:00")),
    ]


def test_rows_follow_tier_order(event):
    rows = settlement_rows(_bookings(event))
    assert [r["tier"] for r in rows] == ["adult", "senior", "child"]
    assert rows[0]["face"] == 8000


def test_unknown_tier_rejected(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    b.tier = "adlut"
    with pytest.raises(ValueError):
        settlement_rows([b])


def test_payout_excludes_fees(event):
    assert venue_payout(_bookings(event)) == 8000 + 2000 + 2800


def test_statement_show_date_is_venue_day(event):
    text = statement(event, _bookings(event))
    assert "Show date 2026-10-24" in text
    assert "Payout $128.00" in text
'''

INITIAL["tests/test_sales.py"] = '''from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.reports.sales import daily_sales


def test_daily_sales_groups_by_day(event):
    bookings = [
        book("R1", event, "adult", 2, utc("2026-10-01 12:00")),
        book("R2", event, "adult", 1, utc("2026-10-01 15:00")),
        book("R3", event, "child", 1, utc("2026-10-02 09:00")),
    ]
    days = daily_sales(bookings)
    assert [str(d) for d in days] == ["2026-10-01", "2026-10-02"]
    assert days[utc("2026-10-01 00:00").date()]["tickets"] == 3
'''


# Commits made outside the sessions: (key, date, author, message, {path: content or None})
RULE_CHANGE_REFUNDS = '''from datetime import timedelta

REFUND_CUTOFF = timedelta(hours=24)


class RefundClosed(Exception):
    pass


def refund_deadline(event):
    return event.doors_at - REFUND_CUTOFF


def refund(booking, now):
    if booking.status != "paid":
        raise ValueError(f"booking {booking.ref} is {booking.status}")
    if now >= refund_deadline(booking.event):
        raise RefundClosed(booking.ref)
    booking.status = "refunded"
    booking.refunded_at = now
    return booking.face_cents - booking.discount_cents


def refund_status(booking, now):
    if booking.status == "refunded":
        return ("refunded", None)
    deadline = refund_deadline(booking.event)
    if now >= deadline:
        return ("closed", deadline)
    return ("open", deadline)
'''
