"""The twelve evaluation tasks. Each: a base (main, or a feature branch off main with the
feature written the naive way), the issue text, the deciding tests, the gold and three decoys.
An edit is (path, old, new); old=None writes the whole file."""

DANA = ("Dana Ortiz", "dana@acme-events.example")
MARCO = ("Marco Bellini", "marco@acme-events.example")
SAM = ("Sam Okafor", "sam@acme-events.example")

TESTS_HEAD = "from dataclasses import replace\n\nimport pytest\n\nfrom boxoffice.clock import utc\nfrom boxoffice.models import Venue\nfrom boxoffice.pricing import book\n"

TASKS = []

# ---------------------------------------------------------------- refund-deadline (rule_change)
TASKS.append(dict(
    n=1, family="refund-deadline", branch="feature/ticket-transfers", author=SAM,
    branch_at="2026-10-02T09:40:00+00:00", created_at="2026-10-02T15:20:00+00:00",
    branch_msg="Ticket transfers to another holder",
    branch_files={
        "boxoffice/transfers.py": '''from datetime import timedelta

TRANSFER_CUTOFF_HOURS = 48


class TransferClosed(Exception):
    pass


def transfer_deadline(event):
    return event.starts_at - timedelta(hours=TRANSFER_CUTOFF_HOURS)


def transfer(booking, new_holder, now):
    if booking.status != "paid":
        raise ValueError(f"booking {booking.ref} is {booking.status}")
    if now >= transfer_deadline(booking.event):
        raise TransferClosed(booking.ref)
    return {"ref": booking.ref, "holder": new_holder, "at": now}
''',
        "tests/test_transfers.py": '''import pytest

from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.transfers import TransferClosed, transfer


def test_transfer_early(event):
    b = book("R1", event, "adult", 2, utc("2026-10-01 12:00"))
    assert transfer(b, "kim@example.com", utc("2026-10-10 12:00"))["holder"] == "kim@example.com"


def test_transfer_of_refunded_booking(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    b.status = "refunded"
    with pytest.raises(ValueError):
        transfer(b, "kim@example.com", utc("2026-10-10 12:00"))


def test_transfer_closed_on_show_day(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    with pytest.raises(TransferClosed):
        transfer(b, "kim@example.com", utc("2026-10-24 12:00"))
'''},
    problem="""Ticket transfers close at the wrong time

A customer with a booking for E100 "The Quiet Band" (starts 2026-10-24 20:00 UTC, doors 18:30 UTC)
tried to transfer the tickets to a friend on 2026-10-23 at 10:00 UTC and got `TransferClosed`.
Support says that under the current policy this transfer should have gone through, and that the
transfer window should close at the same moment customers lose the right to a refund - not before,
not after.""",
    tests={"tests/test_transfer_window.py": '''import pytest

from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.transfers import TransferClosed, transfer


def test_transfer_allowed_day_before(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert transfer(b, "kim@example.com", utc("2026-10-23 10:00"))["holder"] == "kim@example.com"


def test_transfer_closed_evening_before(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    with pytest.raises(TransferClosed):
        transfer(b, "kim@example.com", utc("2026-10-23 19:00"))


def test_transfer_closed_at_cutoff(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    with pytest.raises(TransferClosed):
        transfer(b, "kim@example.com", utc("2026-10-23 18:30"))
'''},
    gold=[("boxoffice/transfers.py", "from datetime import timedelta\n\nTRANSFER_CUTOFF_HOURS = 48\n", "from .refunds import refund_deadline\n"),
          ("boxoffice/transfers.py", "    return event.starts_at - timedelta(hours=TRANSFER_CUTOFF_HOURS)", "    return refund_deadline(event)")],
    decoys=[
        [("boxoffice/transfers.py", "TRANSFER_CUTOFF_HOURS = 48", "TRANSFER_CUTOFF_HOURS = 24")],
        [("boxoffice/transfers.py", "from datetime import timedelta\n\nTRANSFER_CUTOFF_HOURS = 48\n",
          "from .refunds import refund_deadline\n"),
         ("boxoffice/transfers.py", "    return event.starts_at - timedelta(hours=TRANSFER_CUTOFF_HOURS)", "    return refund_deadline(event)"),
         ("boxoffice/transfers.py", "    if now >= transfer_deadline(booking.event):\n        raise TransferClosed(booking.ref)",
          "    deadline = transfer_deadline(booking.event)\n    if now > deadline:\n        raise TransferClosed(booking.ref)")],
        [("boxoffice/transfers.py", "from datetime import timedelta\n\nTRANSFER_CUTOFF_HOURS = 48\n", "from datetime import timedelta\n\nTRANSFER_CUTOFF = timedelta(0)\n"),
         ("boxoffice/transfers.py", "    return event.starts_at - timedelta(hours=TRANSFER_CUTOFF_HOURS)",
          "    doors = event.doors_at\n    cutoff = TRANSFER_CUTOFF\n    return doors - cutoff")],
    ]))

TASKS.append(dict(
    n=2, family="refund-deadline", branch="feature/reminder-email", author=DANA,
    branch_at="2026-10-05T08:50:00+00:00", created_at="2026-10-05T13:05:00+00:00",
    branch_msg="Reminder email before the show",
    branch_files={
        "boxoffice/delivery/reminders.py": '''from datetime import timedelta

from ..money import fmt


def reminder_email(booking, now):
    ev = booking.event
    lines = [
        f"Subject: {ev.title} is coming up",
        "",
        f"Doors open {ev.doors_at:%Y-%m-%d %H:%M} UTC at {ev.venue.name}.",
        f"Booking {booking.ref}: {booking.qty} x {booking.tier}, paid {fmt(booking.total_cents)}",
    ]
    refund_by = ev.starts_at - timedelta(hours=48)
    if booking.status == "paid" and now < refund_by:
        lines.append(f"Can't make it? Refunds are possible until {refund_by:%Y-%m-%d %H:%M} UTC.")
    return "\\n".join(lines)
''',
        "tests/test_reminders.py": '''from boxoffice.clock import utc
from boxoffice.delivery.reminders import reminder_email
from boxoffice.pricing import book


def test_reminder_has_doors(event):
    b = book("R5", event, "adult", 2, utc("2026-10-01 12:00"))
    text = reminder_email(b, utc("2026-10-10 09:00"))
    assert "Doors open 2026-10-24 18:30 UTC at Bronx Hall." in text
    assert "paid $88.00" in text


def test_no_refund_line_for_refunded_booking(event):
    b = book("R5", event, "adult", 2, utc("2026-10-01 12:00"))
    b.status = "refunded"
    assert "Refunds are possible" not in reminder_email(b, utc("2026-10-10 09:00"))
'''},
    problem="""Reminder emails: wrong refund line

Reminder emails for E100 (starts 2026-10-24 20:00 UTC, doors 18:30 UTC) that went out on the morning
of 2026-10-23 had no "Refunds are possible until ..." line at all, although those customers could still
get a refund at that time. The reminders sent earlier in the month print a refund date that support
does not recognise. The line should show the real refund deadline and appear exactly while a refund is
still possible.""",
    tests={"tests/test_reminder_refund_line.py": '''from boxoffice.clock import utc
from boxoffice.delivery.reminders import reminder_email
from boxoffice.pricing import book


def test_refund_line_shows_deadline(event):
    b = book("R5", event, "adult", 2, utc("2026-10-01 12:00"))
    text = reminder_email(b, utc("2026-10-10 09:00"))
    assert "Refunds are possible until 2026-10-23 18:30 UTC." in text


def test_refund_line_on_the_morning_before(event):
    b = book("R5", event, "adult", 2, utc("2026-10-01 12:00"))
    assert "Refunds are possible" in reminder_email(b, utc("2026-10-23 10:00"))


def test_no_refund_line_after_cutoff(event):
    b = book("R5", event, "adult", 2, utc("2026-10-01 12:00"))
    assert "Refunds are possible" not in reminder_email(b, utc("2026-10-23 19:00"))
'''},
    gold=[("boxoffice/delivery/reminders.py", "from datetime import timedelta\n\nfrom ..money import fmt\n",
           "from ..money import fmt\nfrom ..refunds import refund_deadline\n"),
          ("boxoffice/delivery/reminders.py", "    refund_by = ev.starts_at - timedelta(hours=48)\n", "    refund_by = refund_deadline(ev)\n")],
    decoys=[
        [("boxoffice/delivery/reminders.py", "    refund_by = ev.starts_at - timedelta(hours=48)\n    if booking.status == \"paid\" and now < refund_by:\n",
          "    cutoff = timedelta(hours=24)\n    refund_by = ev.starts_at - cutoff\n    is_paid = booking.status == \"paid\"\n    if is_paid and now < refund_by:\n")],
        [("boxoffice/delivery/reminders.py", "from ..money import fmt\n", "from ..money import fmt\n\nREFUND_NOTICE_HOURS = 48\n"),
         ("boxoffice/delivery/reminders.py", "    refund_by = ev.starts_at - timedelta(hours=48)\n    if booking.status == \"paid\" and now < refund_by:\n",
          "    refund_by = ev.doors_at - timedelta(hours=REFUND_NOTICE_HOURS)\n    still_open = booking.status == \"paid\" and now < refund_by\n    if still_open:\n")],
        [("boxoffice/delivery/reminders.py", "from ..money import fmt\n", "from ..money import fmt\nfrom ..refunds import refund_deadline\n"),
         ("boxoffice/delivery/reminders.py", "    refund_by = ev.starts_at - timedelta(hours=48)\n    if booking.status == \"paid\" and now < refund_by:\n",
          "    refund_by = refund_deadline(ev)\n    last_notice = ev.starts_at - timedelta(hours=48)\n    if booking.status == \"paid\" and now < last_notice:\n")],
    ]))

TASKS.append(dict(
    n=3, family="refund-deadline", branch="feature/account-actions", author=SAM,
    branch_at="2026-10-08T10:15:00+00:00", created_at="2026-10-08T16:40:00+00:00",
    branch_msg="Account page: actions per booking",
    branch_files={
        "boxoffice/account.py": '''from datetime import timedelta

SELF_SERVICE_CUTOFF = timedelta(hours=48)


def booking_actions(booking, now):
    """Buttons shown on the account page for a booking."""
    ev = booking.event
    actions = ["view"]
    if booking.status != "paid":
        return actions
    actions.append("download")
    if now < ev.starts_at - SELF_SERVICE_CUTOFF:
        actions.append("refund")
    return actions
''',
        "tests/test_account.py": '''from boxoffice.account import booking_actions
from boxoffice.clock import utc
from boxoffice.pricing import book


def test_paid_booking_actions_early(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert booking_actions(b, utc("2026-10-05 12:00")) == ["view", "download", "refund"]


def test_refunded_booking_only_view(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    b.status = "refunded"
    assert booking_actions(b, utc("2026-10-05 12:00")) == ["view"]


def test_show_day_no_refund(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert "refund" not in booking_actions(b, utc("2026-10-24 12:00"))
'''},
    problem="""Account page shows the Refund button at the wrong times

For E100 (starts 2026-10-24 20:00 UTC, doors 18:30 UTC) the account page hides the Refund button on
2026-10-23 at 10:00 UTC, although a refund for the booking goes through at that moment when support
does it by hand. We also need the button gone as soon as a refund would be refused.""",
    tests={"tests/test_account_refund_button.py": '''from boxoffice.account import booking_actions
from boxoffice.clock import utc
from boxoffice.pricing import book


def test_refund_button_morning_before(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert "refund" in booking_actions(b, utc("2026-10-23 10:00"))


def test_refund_button_gone_at_cutoff(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert "refund" not in booking_actions(b, utc("2026-10-23 18:30"))


def test_refund_button_gone_evening_before(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    assert "refund" not in booking_actions(b, utc("2026-10-23 19:00"))
'''},
    gold=[("boxoffice/account.py", "from datetime import timedelta\n\nSELF_SERVICE_CUTOFF = timedelta(hours=48)\n",
           "from .refunds import refund_status\n"),
          ("boxoffice/account.py", "    if now < ev.starts_at - SELF_SERVICE_CUTOFF:\n        actions.append(\"refund\")",
           "    state, _ = refund_status(booking, now)\n    if state == \"open\":\n        actions.append(\"refund\")"),
          ("boxoffice/account.py", "    ev = booking.event\n    actions = [\"view\"]", "    actions = [\"view\"]")],
    decoys=[
        [("boxoffice/account.py", "from datetime import timedelta\n\nSELF_SERVICE_CUTOFF = timedelta(hours=48)\n",
          "from .refunds import REFUND_CUTOFF\n"),
         ("boxoffice/account.py", "    if now < ev.starts_at - SELF_SERVICE_CUTOFF:", "    if now < ev.starts_at - REFUND_CUTOFF:")],
        [("boxoffice/account.py", "    if now < ev.starts_at - SELF_SERVICE_CUTOFF:", "    if now < ev.doors_at - SELF_SERVICE_CUTOFF:")],
        [("boxoffice/account.py", "from datetime import timedelta\n\nSELF_SERVICE_CUTOFF = timedelta(hours=48)\n",
          "from .refunds import refund_deadline\n"),
         ("boxoffice/account.py", "    if now < ev.starts_at - SELF_SERVICE_CUTOFF:", "    if now <= refund_deadline(ev):")],
    ]))

# ---------------------------------------------------------------- settlement-venue-day (module_only)
BERLIN_EVENT = '''

def _berlin(event):
    venue = Venue("BER", "Kesselhaus Berlin", utc_offset_minutes=120)
    return replace(event, code="E200", venue=venue)
'''

TASKS.append(dict(
    n=4, family="settlement-venue-day", branch="feature/settlement-refunds", author=DANA,
    branch_at="2026-10-03T09:10:00+00:00", created_at="2026-10-03T14:30:00+00:00",
    branch_msg="Settlement: refunds per day",
    branch_edits=[("boxoffice/settlement/report.py", "def venue_payout(bookings):", '''def refunds_by_day(bookings):
    days = {}
    for b in bookings:
        if b.status != "refunded":
            continue
        day = b.refunded_at.date()
        entry = days.setdefault(day, {"tickets": 0, "amount": 0})
        entry["tickets"] += b.qty
        entry["amount"] += b.face_cents - b.discount_cents
    return dict(sorted(days.items()))


def venue_payout(bookings):''')],
    branch_files={"tests/test_settlement_refunds.py": '''from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.refunds import refund
from boxoffice.settlement.report import refunds_by_day


def test_refunds_by_day(event):
    a = book("R1", event, "adult", 2, utc("2026-10-01 12:00"))
    b = book("R2", event, "child", 1, utc("2026-10-01 12:00"))
    refund(a, utc("2026-10-05 12:00"))
    refund(b, utc("2026-10-06 12:00"))
    days = refunds_by_day([a, b])
    assert [str(d) for d in days] == ["2026-10-05", "2026-10-06"]
    assert days[utc("2026-10-05 00:00").date()] == {"tickets": 2, "amount": 8000}
'''},
    problem="""Settlement refunds table puts refunds on the wrong day

Bronx Hall says the "refunds by day" table of their E100 settlement lists a refund made on the evening
of 2026-10-05 under 2026-10-06, and our Berlin venue reports the mirror problem: a refund made shortly
after midnight on 2026-10-06 is listed under 2026-10-05. Neither matches their books.""",
    tests={"tests/test_settlement_refund_days.py": TESTS_HEAD + '''from boxoffice.refunds import refund
from boxoffice.settlement.report import refunds_by_day
''' + BERLIN_EVENT + '''

def test_evening_refund_western_venue(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-06 01:30"))
    assert [str(d) for d in refunds_by_day([b])] == ["2026-10-05"]


def test_after_midnight_refund_eastern_venue(event):
    b = book("R2", _berlin(event), "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-05 22:30"))
    assert [str(d) for d in refunds_by_day([b])] == ["2026-10-06"]


def test_midday_refunds_unchanged(event):
    b = book("R3", event, "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-05 12:00"))
    assert [str(d) for d in refunds_by_day([b])] == ["2026-10-05"]
'''},
    gold=[("boxoffice/settlement/report.py", "        day = b.refunded_at.date()\n", "        venue = b.event.venue\n        day = local_day(b.refunded_at, venue)\n")],
    decoys=[
        [("boxoffice/settlement/report.py", "from ..money import fmt\n", "from datetime import timedelta\n\nfrom ..money import fmt\n"),
         ("boxoffice/settlement/report.py", "        day = b.refunded_at.date()\n",
          "        offset = timedelta(minutes=b.event.venue.utc_offset_minutes)\n        day = (b.refunded_at - offset).date()\n")],
        [("boxoffice/settlement/report.py", "from ..money import fmt\n", "from datetime import timedelta\n\nfrom ..money import fmt\n"),
         ("boxoffice/settlement/report.py", "        day = b.refunded_at.date()\n",
          "        day = b.refunded_at.date()\n        behind = -b.event.venue.utc_offset_minutes\n"
          "        minutes = b.refunded_at.hour * 60 + b.refunded_at.minute\n        if minutes < behind:\n            day -= timedelta(days=1)\n")],
        [("boxoffice/settlement/report.py", "        day = b.refunded_at.date()\n", "        day = local_day(b.booked_at, b.event.venue)\n")],
    ]))

TASKS.append(dict(
    n=5, family="settlement-venue-day", branch="feature/ops-refunds-tile", author=SAM,
    branch_at="2026-10-06T08:30:00+00:00", created_at="2026-10-06T12:45:00+00:00",
    branch_msg="Ops dashboard: refunds per day",
    branch_edits=[("boxoffice/reports/sales.py", "from collections import defaultdict\n",
                   "from collections import defaultdict\n\nfrom ..settlement.util import local_day\n"),
                  ("boxoffice/reports/sales.py", '''def sales_by_venue(bookings):''', '''def daily_refunds(bookings):
    """Refunded tickets and amounts per day across all venues (ops dashboard)."""
    out = defaultdict(lambda: {"tickets": 0, "amount": 0})
    for b in bookings:
        if b.status != "refunded":
            continue
        day = local_day(b.refunded_at, b.event.venue)
        out[day]["tickets"] += b.qty
        out[day]["amount"] += b.face_cents - b.discount_cents
    return dict(sorted(out.items()))


def sales_by_venue(bookings):''')],
    branch_files={"tests/test_ops_refunds.py": '''from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.refunds import refund
from boxoffice.reports.sales import daily_refunds


def test_daily_refunds(event):
    a = book("R1", event, "adult", 2, utc("2026-10-01 12:00"))
    refund(a, utc("2026-10-05 12:00"))
    assert daily_refunds([a]) == {utc("2026-10-05 00:00").date(): {"tickets": 2, "amount": 8000}}
'''},
    problem="""Ops dashboard: refunds tile disagrees with the other tiles

On the ops dashboard a Bronx Hall refund made at 01:30 UTC on 2026-10-06 is counted under 2026-10-05 in
the refunds tile, while the sales tiles count bookings made in that same hour under 2026-10-06. The
refunds tile should line up with the rest of the dashboard.""",
    tests={"tests/test_ops_refund_days.py": TESTS_HEAD + '''from boxoffice.refunds import refund
from boxoffice.reports.sales import daily_refunds, daily_sales, sales_by_venue
''' + BERLIN_EVENT + '''

def test_refund_tile_late_night(event):
    b = book("R1", event, "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-06 01:30"))
    assert [str(d) for d in daily_refunds([b])] == ["2026-10-06"]


def test_refund_tile_eastern_venue(event):
    b = book("R2", _berlin(event), "adult", 1, utc("2026-10-01 12:00"))
    refund(b, utc("2026-10-05 22:30"))
    assert [str(d) for d in daily_refunds([b])] == ["2026-10-05"]


def test_tiles_agree_on_late_night_hour(event):
    sold = book("R3", event, "adult", 1, utc("2026-10-06 01:10"))
    back = book("R4", event, "adult", 1, utc("2026-10-01 12:00"))
    refund(back, utc("2026-10-06 01:30"))
    assert list(daily_sales([sold])) == list(daily_refunds([back]))
    assert list(sales_by_venue([sold])["BRX"]) == list(daily_refunds([back]))
'''},
    gold=[("boxoffice/reports/sales.py", "from collections import defaultdict\n\nfrom ..settlement.util import local_day\n",
           "from collections import defaultdict\n"),
          ("boxoffice/reports/sales.py", "        day = local_day(b.refunded_at, b.event.venue)\n", "        day = b.refunded_at.date()\n")],
    decoys=[
        [("boxoffice/reports/sales.py", "        day = b.booked_at.date()\n        out[day][\"tickets\"] += b.qty\n        out[day][\"gross\"]",
          "        day = local_day(b.booked_at, b.event.venue)\n        out[day][\"tickets\"] += b.qty\n        out[day][\"gross\"]"),
         ("boxoffice/reports/sales.py", "        out[b.event.venue.code][b.booked_at.date()] += b.qty",
          "        out[b.event.venue.code][local_day(b.booked_at, b.event.venue)] += b.qty")],
        [("boxoffice/reports/sales.py", "from collections import defaultdict\n\nfrom ..settlement.util import local_day\n",
          "from collections import defaultdict\nfrom datetime import timedelta\n"),
         ("boxoffice/reports/sales.py", "        day = local_day(b.refunded_at, b.event.venue)\n",
          "        shift = timedelta(minutes=b.event.venue.utc_offset_minutes)\n        local = b.refunded_at + shift\n        day = local.date()\n")],
        [("boxoffice/reports/sales.py", "        day = local_day(b.refunded_at, b.event.venue)\n", "        day = b.refunded_at.date()\n"),
         ("boxoffice/reports/sales.py", "        out[b.event.venue.code][b.booked_at.date()] += b.qty",
          "        venue = b.event.venue\n        out[venue.code][local_day(b.booked_at, venue)] += b.qty")],
    ]))

TASKS.append(dict(
    n=6, family="settlement-venue-day", branch="feature/settlement-sales-window", author=MARCO,
    branch_at="2026-10-09T09:00:00+00:00", created_at="2026-10-09T14:10:00+00:00",
    branch_msg="Settlement statement: on-sale window",
    branch_edits=[("boxoffice/settlement/report.py", "def venue_payout(bookings):", '''def sales_window(bookings):
    paid = [b for b in bookings if b.status == "paid"]
    if not paid:
        return None
    first = min(b.booked_at for b in paid)
    last = max(b.booked_at for b in paid)
    return first.date(), last.date()


def venue_payout(bookings):''')],
    branch_files={"tests/test_sales_window.py": '''from boxoffice.clock import utc
from boxoffice.pricing import book
from boxoffice.settlement.report import sales_window


def test_sales_window(event):
    bookings = [
        book("R1", event, "adult", 1, utc("2026-09-02 12:00")),
        book("R2", event, "adult", 1, utc("2026-10-20 12:00")),
    ]
    assert [str(d) for d in sales_window(bookings)] == ["2026-09-02", "2026-10-20"]


def test_sales_window_empty():
    assert sales_window([]) is None
'''},
    problem="""Settlement on-sale window off by a day

The Bronx Hall settlement for E100 says sales started on 2026-09-02, but the venue opened the presale
on the evening of 2026-09-01 and sold its first tickets that evening. The Berlin venue's window for
E200 ends a day early in the same way: it sold tickets after midnight on its last sales day. The
window must match the venues' books.""",
    tests={"tests/test_sales_window_days.py": TESTS_HEAD + '''from boxoffice.settlement.report import sales_window
''' + BERLIN_EVENT + '''

def test_presale_evening_counts_on_its_day(event):
    bookings = [
        book("R1", event, "adult", 1, utc("2026-09-02 00:30")),
        book("R2", event, "adult", 1, utc("2026-10-20 12:00")),
    ]
    assert [str(d) for d in sales_window(bookings)] == ["2026-09-01", "2026-10-20"]


def test_eastern_venue_last_sale_after_midnight(event):
    ev = _berlin(event)
    bookings = [
        book("R1", ev, "adult", 1, utc("2026-09-10 12:00")),
        book("R2", ev, "adult", 1, utc("2026-10-20 23:00")),
    ]
    assert [str(d) for d in sales_window(bookings)] == ["2026-09-10", "2026-10-21"]
'''},
    gold=[("boxoffice/settlement/report.py", "    first = min(b.booked_at for b in paid)\n    last = max(b.booked_at for b in paid)\n    return first.date(), last.date()\n",
           "    venue = paid[0].event.venue\n    first = min(b.booked_at for b in paid)\n    last = max(b.booked_at for b in paid)\n"
           "    first_day = local_day(first, venue)\n    last_day = local_day(last, venue)\n    return first_day, last_day\n")],
    decoys=[
        [("boxoffice/settlement/report.py", "    return first.date(), last.date()\n", "    return first.astimezone().date(), last.astimezone().date()\n")],
        [("boxoffice/settlement/report.py", "    return first.date(), last.date()\n",
          "    return local_day(first, paid[0].event.venue), last.date()\n")],
        [("boxoffice/settlement/report.py", "from ..money import fmt\n", "from datetime import timedelta\n\nfrom ..money import fmt\n"),
         ("boxoffice/settlement/report.py", "    first = min(b.booked_at for b in paid)\n    last = max(b.booked_at for b in paid)\n    return first.date(), last.date()\n",
          "    offset = timedelta(minutes=paid[0].event.venue.utc_offset_minutes)\n    first = min(b.booked_at for b in paid)\n    last = max(b.booked_at for b in paid)\n"
          "    return (first - offset).date(), (last - offset).date()\n")],
    ]))

# ---------------------------------------------------------------- tier-registration (procedure)
def tier_tests(name, tier, pct, fee_pct, face2, fee2):
    return {f"tests/test_tier_{tier}.py": f'''from boxoffice.clock import utc
from boxoffice.pricing import book, quote
from boxoffice.settlement.report import settlement_rows, statement


def test_{tier}_quote(event):
    assert quote(event, "{tier}", 2) == {{"face": {face2}, "fee": {fee2}, "discount": 0, "total": {face2 + fee2}}}


def test_{tier}_booking(event):
    b = book("R1", event, "{tier}", 2, utc("2026-10-01 12:00"))
    assert b.total_cents == {face2 + fee2}


def test_{tier}_on_settlement(event):
    b = book("R1", event, "{tier}", 2, utc("2026-10-01 12:00"))
    rows = settlement_rows([b])
    assert [(r["tier"], r["tickets"], r["face"]) for r in rows] == [("{tier}", 2, {face2})]
    assert "Payout ${face2 // 100}.{face2 % 100:02d}" in statement(event, [b])
'''}


TASKS.append(dict(
    n=7, family="tier-registration", branch=None, created_at="2026-10-02T11:00:00+00:00",
    problem="""VIP tickets cannot be sold

Venues want to sell VIP tickets: tier `vip`, 250% of the event's base price, 12% booking fee.
Right now `quote(event, "vip", 2)` raises `UnknownTier`. Please add the tier so VIP tickets can be
quoted, booked and paid out to the venue like the other tiers.""",
    tests=tier_tests("VIP", "vip", 250, 12, 20000, 2400),
    gold=[("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 250,\n}'),
          ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 12,\n}'),
          ("boxoffice/settlement/report.py", 'TIER_ORDER = ["adult", "member"', 'TIER_ORDER = ["vip", "adult", "member"')],
    decoys=[
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 250,\n}'),
         ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 12,\n}')],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 250,\n}'),
         ("boxoffice/fees.py", "def fee_for(tier, face_cents):\n    return pct_of(face_cents, FEE_TABLE[tier])",
          "VIP_FEE_PCT = 12\n\n\ndef fee_for(tier, face_cents):\n    if tier == \"vip\":\n        pct = VIP_FEE_PCT\n    else:\n        pct = FEE_TABLE[tier]\n    return pct_of(face_cents, pct)")],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 250,\n}'),
         ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "vip": 12,\n}'),
         ("boxoffice/settlement/report.py", '''    unknown = sorted({b.tier for b in bookings} - set(TIER_ORDER))
    if unknown:
        raise ValueError(f"tiers not in settlement order: {', '.join(unknown)}")
    rows = []
    for tier in TIER_ORDER:''', '''    extra = sorted({b.tier for b in bookings} - set(TIER_ORDER))
    rows = []
    for tier in TIER_ORDER + extra:''')],
    ]))

TASKS.append(dict(
    n=8, family="tier-registration", branch=None, created_at="2026-10-05T10:20:00+00:00",
    problem="""Military tier

Please add a `military` tier for service members: 80% of the base price, 5% booking fee. Booking it
currently fails with `UnknownTier`. It has to work end to end: quote, booking, venue settlement.""",
    tests=tier_tests("military", "military", 80, 5, 6400, 320),
    gold=[("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 80,\n}'),
          ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 5,\n}'),
          ("boxoffice/settlement/report.py", '"student", "child", "companion"]', '"student", "military", "child", "companion"]')],
    decoys=[
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 80,\n}'),
         ("boxoffice/fees.py", "def fee_for(tier, face_cents):\n    return pct_of(face_cents, FEE_TABLE[tier])",
          "DEFAULT_FEE_PCT = 5\n\n\ndef fee_for(tier, face_cents):\n    pct = FEE_TABLE.get(tier, DEFAULT_FEE_PCT)\n    return pct_of(face_cents, pct)")],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 80,\n}'),
         ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 5,\n}'),
         ("boxoffice/settlement/report.py", '''    unknown = sorted({b.tier for b in bookings} - set(TIER_ORDER))
    if unknown:
        raise ValueError(f"tiers not in settlement order: {', '.join(unknown)}")
    rows = []''', '''    rows = []'''),
         ("boxoffice/settlement/report.py", '''    for tier in TIER_ORDER:
        paid = [b for b in bookings if b.tier == tier and b.status == "paid"]''', '''    order = list(TIER_ORDER)
    for b in bookings:
        if b.tier not in order:
            order.append(b.tier)
    for tier in order:
        paid = [b for b in bookings if b.tier == tier and b.status == "paid"]''')],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 80,\n}'),
         ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "military": 5,\n}'),
         ("boxoffice/settlement/report.py", '''    unknown = sorted({b.tier for b in bookings} - set(TIER_ORDER))
    if unknown:''', '''    known = set(TIER_ORDER) | {"military"}
    unknown = sorted({b.tier for b in bookings} - known)
    if unknown:''')],
    ]))

TASKS.append(dict(
    n=9, family="tier-registration", branch=None, created_at="2026-10-08T09:30:00+00:00",
    problem="""Partial-view seats need their own tier

Seats with a partial view of the stage should be sold as tier `partial_view`: 75% of the base price,
5% booking fee. Today any attempt to sell them fails with `UnknownTier`.""",
    tests=tier_tests("partial-view", "partial_view", 75, 5, 6000, 300),
    gold=[("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 75,\n}'),
          ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 5,\n}'),
          ("boxoffice/settlement/report.py", 'TIER_ORDER = ["adult", "member", "senior", "student", "child", "companion"]',
           'TIER_ORDER = ["adult", "member", "partial_view", "senior", "student", "child", "companion"]')],
    decoys=[
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 75,\n}')],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 75,\n}'),
         ("boxoffice/fees.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 5,\n}')],
        [("boxoffice/pricing.py", '    "companion": 0,\n}', '    "companion": 0,\n    "partial_view": 75,\n}'),
         ("boxoffice/settlement/report.py", '"child", "companion"]', '"child", "companion", "partial_view"]')],
    ]))

# ---------------------------------------------------------------- promo-discount (linked)
TASKS.append(dict(
    n=10, family="promo-discount", branch="feature/cart-quote", author=MARCO,
    branch_at="2026-10-03T10:00:00+00:00", created_at="2026-10-03T16:00:00+00:00",
    branch_msg="Cart quotes with several tiers",
    branch_files={
        "boxoffice/cart.py": '''from .fees import fee_for
from .money import pct_of
from .pricing import list_price
from .promos import promo_pct


def quote_cart(event, lines, promo=None):
    """Quote a cart of (tier, qty) lines with one optional promo code."""
    face = 0
    fee = 0
    for tier, qty in lines:
        line_face = list_price(event, tier) * qty
        face += line_face
        fee += fee_for(tier, line_face)
    subtotal = face + fee
    discount = pct_of(subtotal, promo_pct(promo)) if promo else 0
    return {"face": face, "fee": fee, "discount": discount, "total": subtotal - discount}
''',
        "tests/test_cart.py": '''from boxoffice.cart import quote_cart


def test_cart_without_promo(event):
    q = quote_cart(event, [("adult", 2), ("senior", 1)])
    assert q == {"face": 10800, "fee": 940, "discount": 0, "total": 11740}
'''},
    problem="""Cart totals with a promo code are wrong

For E300 (base price $33.30) a cart with one adult ticket and promo FALL15 totals $31.14; finance
says the customer must pay $31.64. Carts with several lines and a promo are off as well.""",
    tests={"tests/test_cart_promo.py": '''from dataclasses import replace

from boxoffice.cart import quote_cart


def test_single_adult_fall15(event):
    ev = replace(event, code="E300", base_price_cents=3330)
    q = quote_cart(ev, [("adult", 1)], promo="FALL15")
    assert q == {"face": 3330, "fee": 333, "discount": 499, "total": 3164}


def test_mixed_cart_save10(event):
    ev = replace(event, code="E300", base_price_cents=3330)
    q = quote_cart(ev, [("adult", 2), ("senior", 1)], promo="SAVE10")
    assert q == {"face": 8991, "fee": 783, "discount": 899, "total": 8875}
'''},
    gold=[("boxoffice/cart.py", "from .money import pct_of\nfrom .pricing import list_price\nfrom .promos import promo_pct\n",
           "from .pricing import list_price\nfrom .promos import discount_for\n"),
          ("boxoffice/cart.py", "    subtotal = face + fee\n    discount = pct_of(subtotal, promo_pct(promo)) if promo else 0\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": subtotal - discount}\n",
           "    discount = discount_for(promo, face) if promo else 0\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": face - discount + fee}\n")],
    decoys=[
        [("boxoffice/cart.py", "    discount = pct_of(subtotal, promo_pct(promo)) if promo else 0\n",
          "    discount = pct_of(face, promo_pct(promo)) if promo else 0\n")],
        [("boxoffice/cart.py", "    discount = pct_of(subtotal, promo_pct(promo)) if promo else 0\n",
          "    discount = subtotal * promo_pct(promo) // 100 if promo else 0\n")],
        [("boxoffice/cart.py", "from .promos import promo_pct\n", "from .promos import discount_for\n"),
         ("boxoffice/cart.py", "    discount = pct_of(subtotal, promo_pct(promo)) if promo else 0\n",
          "    discount = discount_for(promo, subtotal) if promo else 0\n")],
    ]))

TASKS.append(dict(
    n=11, family="promo-discount", branch="feature/group-orders", author=SAM,
    branch_at="2026-10-06T09:20:00+00:00", created_at="2026-10-06T15:35:00+00:00",
    branch_msg="Group orders: automatic discount from 10 tickets",
    branch_files={
        "boxoffice/groups.py": '''from .fees import fee_for
from .pricing import list_price

GROUP_MIN_TICKETS = 10
GROUP_DISCOUNT_PCT = 10


def group_quote(event, tier, qty):
    face = list_price(event, tier) * qty
    fee = fee_for(tier, face)
    discount = 0
    if qty >= GROUP_MIN_TICKETS:
        discount = round((face + fee) * GROUP_DISCOUNT_PCT / 100)
    return {"face": face, "fee": fee, "discount": discount, "total": face + fee - discount}
''',
        "tests/test_groups.py": '''from boxoffice.groups import group_quote


def test_small_group_no_discount(event):
    assert group_quote(event, "adult", 4) == {"face": 16000, "fee": 1600, "discount": 0, "total": 17600}
'''},
    problem="""Group discount amount disputed by finance

A group order of 11 adult tickets for E300 (base price $33.35) shows a group discount of $40.35.
Finance says the discount on that order must be $36.68, and the booking fee on the order stays at
$36.69.""",
    tests={"tests/test_group_discount.py": '''from dataclasses import replace

from boxoffice.groups import group_quote


def test_group_of_eleven(event):
    ev = replace(event, code="E300", base_price_cents=3335)
    assert group_quote(ev, "adult", 11) == {"face": 36685, "fee": 3669, "discount": 3668, "total": 36686}


def test_group_of_fifteen_seniors(event):
    ev = replace(event, code="E300", base_price_cents=3335)
    assert group_quote(ev, "senior", 15) == {"face": 35010, "fee": 1751, "discount": 3501, "total": 33260}
'''},
    gold=[("boxoffice/groups.py", "        discount = round((face + fee) * GROUP_DISCOUNT_PCT / 100)\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": face + fee - discount}\n",
           "        discount = face * GROUP_DISCOUNT_PCT // 100\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": face - discount + fee}\n")],
    decoys=[
        [("boxoffice/groups.py", "from .fees import fee_for\n", "from .fees import fee_for\nfrom .money import pct_of\n"),
         ("boxoffice/groups.py", "        discount = round((face + fee) * GROUP_DISCOUNT_PCT / 100)\n",
          "        rate = GROUP_DISCOUNT_PCT\n        base = face\n        discount = pct_of(base, rate)\n")],
        [("boxoffice/groups.py", "    discount = 0\n    if qty >= GROUP_MIN_TICKETS:\n        discount = round((face + fee) * GROUP_DISCOUNT_PCT / 100)\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": face + fee - discount}\n",
          "    gross = face + fee\n    discount = 0\n    if qty >= GROUP_MIN_TICKETS:\n        discount = gross * GROUP_DISCOUNT_PCT // 100\n    return {\"face\": face, \"fee\": fee, \"discount\": discount, \"total\": gross - discount}\n")],
        [("boxoffice/groups.py", '''    face = list_price(event, tier) * qty
    fee = fee_for(tier, face)
    discount = 0
    if qty >= GROUP_MIN_TICKETS:
        discount = round((face + fee) * GROUP_DISCOUNT_PCT / 100)
    return {"face": face, "fee": fee, "discount": discount, "total": face + fee - discount}''', '''    face = list_price(event, tier) * qty
    discount = 0
    if qty >= GROUP_MIN_TICKETS:
        discount = face * GROUP_DISCOUNT_PCT // 100
    net = face - discount
    fee = fee_for(tier, net)
    return {"face": face, "fee": fee, "discount": discount, "total": net + fee}''')],
    ]))

TASKS.append(dict(
    n=12, family="promo-discount", branch="feature/walkup-sales", author=DANA,
    branch_at="2026-10-09T08:45:00+00:00", created_at="2026-10-09T12:25:00+00:00",
    branch_msg="Walk-up sales at the venue box office",
    branch_files={
        "boxoffice/walkup.py": '''from .fees import fee_for
from .pricing import list_price
from .promos import promo_pct


def walkup_total(event, tier, qty, promo=None):
    """Amount to charge at the venue box office for a walk-up sale."""
    face = list_price(event, tier) * qty
    fee = fee_for(tier, face)
    total = face + fee
    if promo:
        total = round(total * (100 - promo_pct(promo)) / 100)
    return total
''',
        "tests/test_walkup.py": '''from boxoffice.walkup import walkup_total


def test_walkup_without_promo(event):
    assert walkup_total(event, "adult", 2) == 8800
'''},
    problem="""Walk-up sales with a promo code charge the wrong amount

At the Bronx Hall box office, 5 senior tickets for E300 (base price $33.30) with promo SAVE10 were
charged $110.14. The same order booked online costs $110.73. Walk-up and online must charge the same.""",
    tests={"tests/test_walkup_promo.py": '''from dataclasses import replace

from boxoffice.walkup import walkup_total


def test_five_seniors_save10(event):
    ev = replace(event, code="E300", base_price_cents=3330)
    assert walkup_total(ev, "senior", 5, promo="SAVE10") == 11073


def test_one_adult_fall15(event):
    ev = replace(event, code="E300", base_price_cents=3330)
    assert walkup_total(ev, "adult", 1, promo="fall15") == 3164
'''},
    gold=[("boxoffice/walkup.py", "from .promos import promo_pct\n", "from .promos import discount_for\n"),
          ("boxoffice/walkup.py", "        total = round(total * (100 - promo_pct(promo)) / 100)\n",
           "        total -= discount_for(promo, face)\n")],
    decoys=[
        [("boxoffice/walkup.py", "        total = round(total * (100 - promo_pct(promo)) / 100)\n",
          "        total = total * (100 - promo_pct(promo)) // 100\n")],
        [("boxoffice/walkup.py", "from .pricing import list_price\n", "from .money import pct_of\nfrom .pricing import list_price\n"),
         ("boxoffice/walkup.py", "    total = face + fee\n    if promo:\n        total = round(total * (100 - promo_pct(promo)) / 100)\n    return total\n",
          "    discount = 0\n    if promo:\n        pct = promo_pct(promo)\n        discount = pct_of(face, pct)\n    total = face - discount + fee\n    return total\n")],
        [("boxoffice/walkup.py", "from .promos import promo_pct\n", "from .promos import discount_for\n"),
         ("boxoffice/walkup.py", "    face = list_price(event, tier) * qty\n    fee = fee_for(tier, face)\n    total = face + fee\n    if promo:\n        total = round(total * (100 - promo_pct(promo)) / 100)\n    return total\n",
          "    face = list_price(event, tier) * qty\n    discount = discount_for(promo, face) if promo else 0\n    net = face - discount\n    fee = fee_for(tier, net)\n    total = net + fee\n    return total\n")],
    ]))
