"""Task definitions: problem statements, gold and decoy candidates (as edits against the base),
and the tests that decide each task. Base of every task: main after the rename commit."""

# ---------------------------------------------------------------------------------------------
# helpers for candidates: ("new", path, text) or ("edit", path, old, new)
LEDGER = "meter_billing/payments/ledger.py"
MIGR = "meter_billing/payments/schema_migrations.py"
API = "meter_billing/payments/api.py"

V4_FIELDS = '"method": "card", "memo": "", "channel": "web"'

# =============================================================================================
# family payment-day (rule_change)
# =============================================================================================
T1_TEST = '''from datetime import date, datetime, timezone

from meter_billing.payments.discounts import early_payment_credit_cents

DUE = date(2026, 2, 28)


def test_on_time_payment_gets_one_percent():
    assert early_payment_credit_cents(12_345, datetime(2026, 2, 20, 16, 0, tzinfo=timezone.utc), DUE) == 123


def test_credit_is_capped():
    assert early_payment_credit_cents(90_000, datetime(2026, 2, 27, 16, 0, tzinfo=timezone.utc), DUE) == 500


def test_late_payment_gets_nothing():
    assert early_payment_credit_cents(10_000, datetime(2026, 3, 2, 16, 0, tzinfo=timezone.utc), DUE) == 0


def test_payment_on_the_evening_of_the_due_date():
    assert early_payment_credit_cents(10_000, datetime(2026, 3, 1, 5, 30, tzinfo=timezone.utc), DUE) == 100


def test_payment_after_midnight_is_late():
    assert early_payment_credit_cents(10_000, datetime(2026, 3, 1, 6, 30, tzinfo=timezone.utc), DUE) == 0
'''

T1 = dict(
    n=1, family="payment-day", position=1, created_at="2026-04-06T15:10:00+00:00",
    problem=(
        "Early-payment credit\n\n"
        "Finance approved a 1% credit (rounded half up to whole cents, capped at $5.00) for payments "
        "made on or before the bill's due date. Please add "
        "`early_payment_credit_cents(amount_cents, posted_at, due_date)` in a new module "
        "`meter_billing/payments/discounts.py`. `posted_at` is the payment's timestamp (an aware "
        "datetime), `due_date` a date; it returns the credit in cents, 0 when the payment is late."
    ),
    tests={"tests/test_discounts.py": T1_TEST},
    gold=[("new", "meter_billing/payments/discounts.py", '''"""Credits applied to payments."""

from meter_billing.clock import utility_date

CREDIT_CAP_CENTS = 500


def early_payment_credit_cents(amount_cents, posted_at, due_date):
    if utility_date(posted_at) > due_date:
        return 0
    credit = (amount_cents + 50) // 100
    return min(credit, CREDIT_CAP_CENTS)
''')],
    decoys=[
        [("new", "meter_billing/payments/discounts.py", '''"""Credits applied to payments."""

from datetime import timezone
from decimal import ROUND_HALF_UP, Decimal

CREDIT_CAP_CENTS = 500


def early_payment_credit_cents(amount_cents, posted_at, due_date):
    if posted_at.tzinfo is None:
        posted_at = posted_at.replace(tzinfo=timezone.utc)
    if posted_at.astimezone(timezone.utc).date() > due_date:
        return 0
    credit = int((Decimal(amount_cents) / 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
    return min(credit, CREDIT_CAP_CENTS)
''')],
        [("new", "meter_billing/payments/discounts.py", '''"""Credits applied to payments."""


def early_payment_credit_cents(amount_cents, posted_at, due_date):
    if posted_at.date() > due_date:
        return 0
    return min((amount_cents + 50) // 100, 500)
''')],
        [("new", "meter_billing/payments/discounts.py", '''"""Credits applied to payments."""

from datetime import timedelta, timezone

OFFICE_TZ = timezone(timedelta(hours=-5))
CREDIT_CAP_CENTS = 500


def early_payment_credit_cents(amount_cents, posted_at, due_date):
    paid_on = posted_at.astimezone(OFFICE_TZ).date()
    if paid_on > due_date:
        return 0
    return min((amount_cents + 50) // 100, CREDIT_CAP_CENTS)
''')],
    ],
)

T2_TEST = '''from datetime import date

from meter_billing.payments.ledger import Entry, Ledger


def _ledger(*rows):
    return Ledger([Entry(f"p{i}", account, cents, ts).to_dict() for i, (account, cents, ts) in enumerate(rows)])


def test_totals_by_day():
    ledger = _ledger(("A-1", 500, "2026-03-02T15:00:00+00:00"), ("A-2", 700, "2026-03-02T16:30:00+00:00"),
                     ("A-1", 100, "2026-03-04T12:00:00+00:00"))
    assert ledger.daily_totals() == {date(2026, 3, 2): 1200, date(2026, 3, 4): 100}


def test_evening_payment_counts_with_its_day():
    ledger = _ledger(("A-1", 500, "2026-03-03T03:15:00+00:00"), ("A-1", 250, "2026-03-02T20:00:00+00:00"))
    assert ledger.daily_totals() == {date(2026, 3, 2): 750}


def test_days_are_in_order():
    ledger = _ledger(("A-1", 1, "2026-03-09T12:00:00+00:00"), ("A-1", 2, "2026-03-05T12:00:00+00:00"))
    assert list(ledger.daily_totals()) == [date(2026, 3, 5), date(2026, 3, 9)]


def test_empty_ledger():
    assert Ledger().daily_totals() == {}
'''

_T2_ANCHOR = "    def dump(self):\n"
T2 = dict(
    n=2, family="payment-day", position=2, created_at="2026-04-13T14:30:00+00:00",
    problem=(
        "Daily payment totals for the cash-office reconciliation\n\n"
        "The cash office reconciles the ledger against the bank deposit for each business day. Add "
        "`Ledger.daily_totals()` returning a dict that maps each `datetime.date` to the total "
        "`amount_cents` of the entries that count on that day, keys in ascending order. Entries store "
        "`posted_at` as an ISO 8601 string."
    ),
    tests={"tests/test_daily_totals.py": T2_TEST},
    gold=[
        ("edit", LEDGER, "from dataclasses import asdict, dataclass, fields\n",
         "from dataclasses import asdict, dataclass, fields\nfrom datetime import datetime\n\n"
         "from meter_billing.clock import utility_date\n"),
        ("edit", LEDGER, _T2_ANCHOR,
         "    def daily_totals(self):\n"
         "        totals = {}\n"
         "        for e in self.entries:\n"
         "            day = utility_date(datetime.fromisoformat(e.posted_at))\n"
         "            totals[day] = totals.get(day, 0) + e.amount_cents\n"
         "        return dict(sorted(totals.items()))\n\n" + _T2_ANCHOR),
    ],
    decoys=[
        [("edit", LEDGER, "from dataclasses import asdict, dataclass, fields\n",
          "from dataclasses import asdict, dataclass, fields\nfrom datetime import datetime\n"),
         ("edit", LEDGER, _T2_ANCHOR,
          "    def daily_totals(self):\n"
          "        totals = {}\n"
          "        for e in self.entries:\n"
          "            day = datetime.fromisoformat(e.posted_at).date()\n"
          "            totals[day] = totals.get(day, 0) + e.amount_cents\n"
          "        return dict(sorted(totals.items()))\n\n" + _T2_ANCHOR)],
        [("edit", LEDGER, "from dataclasses import asdict, dataclass, fields\n",
          "from dataclasses import asdict, dataclass, fields\nfrom datetime import date\n"),
         ("edit", LEDGER, _T2_ANCHOR,
          "    def daily_totals(self):\n"
          "        totals = {}\n"
          "        for e in sorted(self.entries, key=lambda e: e.posted_at):\n"
          "            day = date.fromisoformat(e.posted_at[:10])\n"
          "            totals[day] = totals.get(day, 0) + e.amount_cents\n"
          "        return totals\n\n" + _T2_ANCHOR)],
        [("edit", LEDGER, "from dataclasses import asdict, dataclass, fields\n",
          "from collections import Counter\nfrom dataclasses import asdict, dataclass, fields\n"
          "from datetime import datetime, timezone\n"),
         ("edit", LEDGER, _T2_ANCHOR,
          "    def daily_totals(self):\n"
          "        totals = Counter()\n"
          "        for e in self.entries:\n"
          "            totals[datetime.fromisoformat(e.posted_at).astimezone(timezone.utc).date()] += e.amount_cents\n"
          "        return dict(sorted(totals.items()))\n\n" + _T2_ANCHOR)],
    ],
)

T3_TEST = '''from datetime import date

from meter_billing.billing.period import BillingPeriod
from meter_billing.billing.statement import paid_in_period_cents, payments_in_period
from meter_billing.payments.ledger import Entry

FEB = BillingPeriod(date(2026, 2, 1), date(2026, 3, 1))


def _entries():
    return [
        Entry("p1", "A-1", 1000, "2026-02-10T15:00:00+00:00"),
        Entry("p2", "A-1", 2000, "2026-03-01T04:00:00+00:00"),
        Entry("p3", "A-1", 4000, "2026-03-01T07:00:00+00:00"),
        Entry("p4", "A-1", 8000, "2026-02-01T03:00:00+00:00"),
    ]


def test_mid_period_payment_listed():
    assert "p1" in [e.entry_id for e in payments_in_period(_entries(), FEB)]


def test_last_evening_of_period_is_listed():
    assert [e.entry_id for e in payments_in_period(_entries(), FEB)] == ["p1", "p2"]


def test_total():
    assert paid_in_period_cents(_entries(), FEB) == 3000


def test_empty():
    assert payments_in_period([], FEB) == [] and paid_in_period_cents([], FEB) == 0
'''

T3 = dict(
    n=3, family="payment-day", position=3, created_at="2026-04-20T16:05:00+00:00",
    problem=(
        "Statements list payments under the wrong month\n\n"
        "The monthly statement should list the payments received during the billing period. Add "
        "`meter_billing/billing/statement.py` with `payments_in_period(entries, period)`, returning "
        "the ledger entries (in their original order) whose payment falls inside the `BillingPeriod` "
        "(see `BillingPeriod.contains`), and `paid_in_period_cents(entries, period)` with their total. "
        "Entries are `meter_billing.payments.ledger.Entry` objects; `posted_at` is an ISO 8601 string. "
        "Support has a case of a payment made on Feb 28 that showed up on the March statement."
    ),
    tests={"tests/test_statement.py": T3_TEST},
    gold=[("new", "meter_billing/billing/statement.py", '''"""Payments shown on a customer statement."""

from datetime import datetime

from meter_billing.clock import utility_date


def payments_in_period(entries, period):
    return [e for e in entries if period.contains(utility_date(datetime.fromisoformat(e.posted_at)))]


def paid_in_period_cents(entries, period):
    return sum(e.amount_cents for e in payments_in_period(entries, period))
''')],
    decoys=[
        [("new", "meter_billing/billing/statement.py", '''"""Payments shown on a customer statement."""

from datetime import datetime, timezone


def _paid_on(entry):
    ts = datetime.fromisoformat(entry.posted_at)
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone(timezone.utc).date()


def payments_in_period(entries, period):
    selected = []
    for entry in entries:
        if period.contains(_paid_on(entry)):
            selected.append(entry)
    return selected


def paid_in_period_cents(entries, period):
    return sum(e.amount_cents for e in payments_in_period(entries, period))
''')],
        [("new", "meter_billing/billing/statement.py", '''"""Payments shown on a customer statement."""

from datetime import datetime, time, timezone


def _bounds(period):
    start = datetime.combine(period.start, time.min, tzinfo=timezone.utc)
    end = datetime.combine(period.end, time.min, tzinfo=timezone.utc)
    return start, end


def payments_in_period(entries, period):
    start, end = _bounds(period)
    return [e for e in entries if start <= datetime.fromisoformat(e.posted_at) < end]


def paid_in_period_cents(entries, period):
    return sum(e.amount_cents for e in payments_in_period(entries, period))
''')],
        [("new", "meter_billing/billing/statement.py", '''"""Payments shown on a customer statement."""

from datetime import datetime


def _posted_day(entry):
    posted = entry.posted_at
    if isinstance(posted, str):
        posted = datetime.fromisoformat(posted)
    return posted.date()


def payments_in_period(entries, period):
    return [e for e in entries if period.contains(_posted_day(e))]


def paid_in_period_cents(entries, period):
    total = 0
    for entry in payments_in_period(entries, period):
        total += entry.amount_cents
    return total
''')],
    ],
)

# =============================================================================================
# family register-units (module_only)
# =============================================================================================
T4_TEST = '''from datetime import date

from meter_billing.billing.alerts import high_usage_alert
from meter_billing.reads.models import Meter, Read


def _reads(a, b, meter_id="M-1"):
    return [Read(meter_id, date(2026, 1, 1), a), Read(meter_id, date(2026, 2, 1), b)]


def test_alert_over_threshold():
    assert high_usage_alert(Meter("M-1"), _reads(1000, 1500), 3000) is True


def test_no_alert_under_threshold():
    assert high_usage_alert(Meter("M-1"), _reads(1000, 1300), 3000) is False


def test_close_to_threshold():
    assert high_usage_alert(Meter("M-1"), _reads(1000, 1400), 2995) is False


def test_rollover():
    assert high_usage_alert(Meter("M-1", digits=4), _reads(9900, 100), 1000) is True
'''

T4 = dict(
    n=4, family="register-units", position=1, created_at="2026-04-08T13:40:00+00:00",
    problem=(
        "High-usage alert\n\n"
        "Customer service wants to flag accounts whose latest cycle used more water than the "
        "customer's alert preference. Preferences are entered in gallons (e.g. 3,000 gallons). Add "
        "`meter_billing/billing/alerts.py` with `high_usage_alert(meter, reads, threshold_gallons) -> "
        "bool`, true when the usage between the two most recent reads is strictly greater than the "
        "threshold."
    ),
    tests={"tests/test_alerts.py": T4_TEST},
    gold=[("new", "meter_billing/billing/alerts.py", '''"""Usage alerts."""

from meter_billing.reads.history import sort_reads
from meter_billing.reads.register import consumption
from meter_billing.units import cubic_feet_to_gallons


def high_usage_alert(meter, reads, threshold_gallons):
    ordered = sort_reads(reads)
    usage = consumption(ordered[-2].value, ordered[-1].value, meter.digits)
    return cubic_feet_to_gallons(usage) > threshold_gallons
''')],
    decoys=[
        [("new", "meter_billing/billing/alerts.py", '''"""Usage alerts."""

from meter_billing.reads.history import sort_reads
from meter_billing.reads.register import consumption


def high_usage_alert(meter, reads, threshold_gallons):
    ordered = sort_reads(reads)
    if len(ordered) < 2:
        raise ValueError("need two reads")
    if threshold_gallons < 0:
        raise ValueError("threshold must not be negative")
    usage = consumption(ordered[-2].value, ordered[-1].value, meter.digits)
    return usage > threshold_gallons
''')],
        [("new", "meter_billing/billing/alerts.py", '''"""Usage alerts."""

from meter_billing.reads.history import sort_reads
from meter_billing.reads.register import consumption
from meter_billing.units import gallons_to_cubic_feet


def high_usage_alert(meter, reads, threshold_gallons):
    ordered = sort_reads(reads)
    if len(ordered) < 2:
        raise ValueError("need two reads")
    previous, current = ordered[-2], ordered[-1]
    usage = consumption(previous.value, current.value, meter.digits)
    return gallons_to_cubic_feet(usage) > threshold_gallons
''')],
        [("new", "meter_billing/billing/alerts.py", '''"""Usage alerts."""

from decimal import Decimal

from meter_billing.reads.history import sort_reads
from meter_billing.reads.register import consumption

GALLONS_PER_UNIT = Decimal("7.5")


def high_usage_alert(meter, reads, threshold_gallons):
    ordered = sort_reads(reads)
    if len(ordered) < 2:
        raise ValueError("need two reads")
    usage = consumption(ordered[-2].value, ordered[-1].value, meter.digits)
    return usage * GALLONS_PER_UNIT > threshold_gallons
''')],
    ],
)

T5_TEST = '''from meter_billing.tariffs.quote import quote_cents


def test_residential_quote():
    assert quote_cents("RES-1", 1000, 2000) == 4944


def test_commercial_quote():
    assert quote_cents("COM-1", 0, 10000) == 46831


def test_wrapped_register():
    assert quote_cents("IRR-1", 9900, 150, digits=4) == 2134


def test_no_usage_is_service_charge_only():
    assert quote_cents("RES-1", 500, 500) == 1250
'''

T5 = dict(
    n=5, family="register-units", position=2, created_at="2026-04-15T10:20:00+00:00",
    problem=(
        "Rate calculator on the website\n\n"
        "The website's rate calculator lets a customer type two readings from their meter's register "
        "and pick their tariff, then shows what the bill would be. Add `meter_billing/tariffs/quote.py` "
        "with `quote_cents(tariff_code, previous_value, current_value, digits=6)` returning the bill "
        "total in cents (service charge plus water charge), handling a register that wrapped around."
    ),
    tests={"tests/test_quote.py": T5_TEST},
    gold=[("new", "meter_billing/tariffs/quote.py", '''"""Bill quotes for the website's rate calculator."""

from meter_billing.money import to_cents
from meter_billing.reads.register import consumption
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge
from meter_billing.units import cubic_feet_to_gallons


def quote_cents(tariff_code, previous_value, current_value, digits=6):
    tariff = get_tariff(tariff_code)
    usage = consumption(previous_value, current_value, digits)
    water = tiered_charge(cubic_feet_to_gallons(usage), tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
    decoys=[
        [("new", "meter_billing/tariffs/quote.py", '''"""Bill quotes for the website's rate calculator."""

from meter_billing.money import to_cents
from meter_billing.reads.register import consumption
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge


def quote_cents(tariff_code, previous_value, current_value, digits=6):
    tariff = get_tariff(tariff_code)
    water = tiered_charge(consumption(previous_value, current_value, digits), tariff["tiers"])
    return to_cents(tariff["service_charge"] + water)
''')],
        [("new", "meter_billing/tariffs/quote.py", '''"""Bill quotes for the website's rate calculator."""

from meter_billing.money import to_cents
from meter_billing.reads.register import consumption
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge
from meter_billing.units import ccf


def quote_cents(tariff_code, previous_value, current_value, digits=6):
    tariff = get_tariff(tariff_code)
    usage = consumption(previous_value, current_value, digits)
    water = tiered_charge(ccf(usage), tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
        [("new", "meter_billing/tariffs/quote.py", '''"""Bill quotes for the website's rate calculator."""

from decimal import Decimal

from meter_billing.money import to_cents
from meter_billing.reads.register import consumption, max_register
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge

GALLONS_PER_UNIT = Decimal("7.48")


def quote_cents(tariff_code, previous_value, current_value, digits=6):
    for value in (previous_value, current_value):
        if value > max_register(digits):
            raise ValueError(f"register value {value} does not fit {digits} digits")
    tariff = get_tariff(tariff_code)
    usage = consumption(previous_value, current_value, digits)
    water = tiered_charge(usage * GALLONS_PER_UNIT, tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
    ],
)

T6_TEST = '''from datetime import date

from meter_billing.billing.budget import monthly_budget_cents
from meter_billing.reads.models import Meter, Read


def test_residential_budget():
    reads = [Read("M-1", date(2026, 1, 1), 1000), Read("M-1", date(2026, 1, 31), 1300)]
    assert monthly_budget_cents(Meter("M-1"), reads, "RES-1") == 2170


def test_commercial_budget_uses_history():
    reads = [Read("M-2", date(2026, 1, 1), 0), Read("M-2", date(2026, 1, 31), 4000),
             Read("M-2", date(2026, 3, 2), 8400)]
    assert monthly_budget_cents(Meter("M-2"), reads, "COM-1") == 20365


def test_estimates_do_not_count():
    reads = [Read("M-1", date(2026, 1, 1), 1000), Read("M-1", date(2026, 1, 31), 1300),
             Read("M-1", date(2026, 3, 2), 9000, kind="E")]
    assert monthly_budget_cents(Meter("M-1"), reads, "RES-1") == 2170
'''

T6 = dict(
    n=6, family="register-units", position=3, created_at="2026-04-22T09:45:00+00:00",
    problem=(
        "Budget billing\n\n"
        "Customers on budget billing pay the same amount every month. Add "
        "`meter_billing/billing/budget.py` with `monthly_budget_cents(meter, reads, tariff_code)`: the "
        "cost, in cents and including the service charge, of a 30-day month at the meter's average "
        "daily usage over its read history (`meter_billing.reads.estimate.average_daily_usage`)."
    ),
    tests={"tests/test_budget.py": T6_TEST},
    gold=[("new", "meter_billing/billing/budget.py", '''"""Budget billing: a level monthly amount."""

from decimal import ROUND_HALF_UP, Decimal

from meter_billing.money import to_cents
from meter_billing.reads.estimate import average_daily_usage
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge
from meter_billing.units import cubic_feet_to_gallons

BUDGET_MONTH_DAYS = 30


def monthly_budget_cents(meter, reads, tariff_code):
    tariff = get_tariff(tariff_code)
    daily = average_daily_usage(reads, meter.digits)
    monthly = (daily * BUDGET_MONTH_DAYS).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    water = tiered_charge(cubic_feet_to_gallons(monthly), tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
    decoys=[
        [("new", "meter_billing/billing/budget.py", '''"""Budget billing: a level monthly amount."""

from meter_billing.money import to_cents
from meter_billing.reads.estimate import average_daily_usage
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge


def monthly_budget_cents(meter, reads, tariff_code):
    tariff = get_tariff(tariff_code)
    water = tiered_charge(average_daily_usage(reads, meter.digits) * 30, tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
        [("new", "meter_billing/billing/budget.py", '''"""Budget billing: a level monthly amount."""

from meter_billing.money import to_cents
from meter_billing.reads.estimate import average_daily_usage
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge
from meter_billing.units import gallons_to_cubic_feet


def monthly_budget_cents(meter, reads, tariff_code):
    tariff = get_tariff(tariff_code)
    monthly = average_daily_usage(reads, meter.digits) * 30
    water = tiered_charge(gallons_to_cubic_feet(monthly), tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
        [("new", "meter_billing/billing/budget.py", '''"""Budget billing: a level monthly amount."""

from decimal import Decimal

from meter_billing.money import to_cents
from meter_billing.reads.estimate import average_daily_usage
from meter_billing.tariffs.catalog import get_tariff
from meter_billing.tariffs.tiers import tiered_charge


def monthly_budget_cents(meter, reads, tariff_code):
    tariff = get_tariff(tariff_code)
    gallons = average_daily_usage(reads, meter.digits) * 30 * Decimal("7.5")
    water = tiered_charge(gallons, tariff["tiers"])
    return to_cents(tariff["service_charge"]) + to_cents(water)
''')],
    ],
)

# =============================================================================================
# family ledger-schema (procedure)
# =============================================================================================
_ENTRY_V = '    channel: str = "web"\n    v: int = SCHEMA_VERSION\n'
_MIGR_TAIL = "MIGRATIONS = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}\n"


def _field(decl):
    return ("edit", LEDGER, _ENTRY_V, f'    channel: str = "web"\n    {decl}\n    v: int = SCHEMA_VERSION\n')


_BUMP = ("edit", LEDGER, "SCHEMA_VERSION = 4\n", "SCHEMA_VERSION = 5\n")


def _migration(field, default, key=4, set_default=True):
    body = f'    record.setdefault("{field}", {default})\n' if set_default else ""
    return ("edit", MIGR, _MIGR_TAIL,
            f"def _v4_to_v5(record):\n{body}    record[\"v\"] = 5\n    return record\n\n\n"
            f"MIGRATIONS = {{1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, {key}: _v4_to_v5}}\n")


def _tolerant_load(field, default):
    return ("edit", LEDGER, "    record = migrate(record, SCHEMA_VERSION)\n",
            "    record = migrate(record, SCHEMA_VERSION)\n"
            f"    if \"{field}\" not in record:\n"
            f"        record = dict(record, {field}={default})\n")


_ROUTES_OLD = ("        if method == \"GET\" and len(parts) == 2 and parts[0] == \"payments\":\n")

T7_API = [
    ("edit", API, _ROUTES_OLD,
     "        if method == \"POST\" and len(parts) == 3 and parts[0] == \"payments\" and parts[2] == \"refund\":\n"
     "            return self._refund(parts[1])\n" + _ROUTES_OLD),
    ("edit", API, "    def _post(self, body):\n",
     "    def _refund(self, entry_id):\n"
     "        original = next((e for e in self.ledger.entries if e.entry_id == entry_id), None)\n"
     "        if original is None:\n"
     "            return 404, {\"error\": \"no such payment\"}\n"
     "        if any(e.reversal_of == entry_id for e in self.ledger.entries):\n"
     "            return 409, {\"error\": \"payment already refunded\"}\n"
     "        refund = Entry(f\"r{self._next}\", original.account_id, -original.amount_cents,\n"
     "                       self.clock().isoformat(), method=original.method, channel=original.channel,\n"
     "                       reversal_of=entry_id)\n"
     "        self._next += 1\n"
     "        self.ledger.add(refund)\n"
     "        return 201, refund.to_dict()\n\n"
     "    def _post(self, body):\n"),
]

T7_TEST = '''from datetime import datetime, timezone

from meter_billing.payments.api import PaymentsAPI
from meter_billing.payments.ledger import Ledger, load_record

V4 = {"entry_id": "p1", "account_id": "A-1", "amount_cents": 900, "posted_at": "2026-03-01T10:00:00+00:00",
      ''' + V4_FIELDS + ''', "v": 4}


def _api(ledger=None):
    return PaymentsAPI(ledger=ledger, clock=lambda: datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))


def test_refund_creates_reversal():
    api = _api()
    api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 4200})
    status, body = api.handle("POST", "/payments/p1/refund")
    assert status == 201
    assert body["amount_cents"] == -4200 and body["reversal_of"] == "p1"
    assert api.ledger.balance_paid_cents("A-1") == 0


def test_refund_unknown_payment():
    assert _api().handle("POST", "/payments/p404/refund")[0] == 404


def test_refund_twice_conflicts():
    api = _api()
    api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 100})
    api.handle("POST", "/payments/p1/refund")
    assert api.handle("POST", "/payments/p1/refund")[0] == 409


def test_stored_records_still_load():
    entry = load_record(V4)
    assert entry.reversal_of is None and entry.amount_cents == 900


def test_refund_of_stored_payment():
    api = _api(Ledger([V4]))
    status, body = api.handle("POST", "/payments/p1/refund")
    assert status == 201 and body["reversal_of"] == "p1"


def test_upgraded_records_are_written_at_the_new_version():
    rec = Ledger([V4]).dump()[0]
    assert rec["v"] == 5 and rec["reversal_of"] is None
'''

T7 = dict(
    n=7, family="ledger-schema", position=1, created_at="2026-04-07T11:00:00+00:00",
    problem=(
        "Refunds\n\n"
        "Support needs to refund a payment. Add `POST /payments/<entry_id>/refund` to the payments API: "
        "it appends a new ledger entry for the same account with the negated amount and a new field "
        "`reversal_of` holding the original entry id (`None` on ordinary payments), and returns 201 "
        "with the refund entry. Unknown ids return 404; refunding a payment twice returns 409. Ledgers "
        "stored by the current release must keep loading."
    ),
    tests={"tests/test_refunds.py": T7_TEST},
    gold=[_field("reversal_of: str | None = None"), _BUMP, _migration("reversal_of", "None")] + T7_API,
    decoys=[
        [_field("reversal_of: str | None = None")] + T7_API,
        [_field("reversal_of: str | None = None"), _BUMP] + T7_API,
        [_field("reversal_of: str | None = None"), _BUMP, _migration("reversal_of", "None", set_default=False)] + T7_API,
    ],
)

_T8_POST_OLD = ("        channel = body.get(\"channel\", \"web\")\n")
T8_API = [
    ("edit", API, _T8_POST_OLD,
     "        fee = body.get(\"fee_cents\", 0)\n"
     "        if not isinstance(fee, int) or isinstance(fee, bool) or fee < 0:\n"
     "            return 400, {\"error\": \"fee_cents must be a non-negative integer\"}\n" + _T8_POST_OLD),
    ("edit", API, "                      channel=channel)\n", "                      channel=channel, fee_cents=fee)\n"),
    ("edit", LEDGER, "    def dump(self):\n",
     "    def fees_collected_cents(self):\n"
     "        return sum(e.fee_cents for e in self.entries)\n\n"
     "    def dump(self):\n"),
]

T8_TEST = '''from datetime import datetime, timezone

from meter_billing.payments.api import PaymentsAPI
from meter_billing.payments.ledger import Ledger, load_record

V4 = {"entry_id": "s100", "account_id": "A-1", "amount_cents": 900, "posted_at": "2026-03-01T10:00:00+00:00",
      ''' + V4_FIELDS + ''', "v": 4}


def _api(ledger=None):
    return PaymentsAPI(ledger=ledger, clock=lambda: datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))


def test_fee_is_recorded():
    api = _api()
    status, body = api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 5000, "fee_cents": 150})
    assert status == 201 and body["fee_cents"] == 150


def test_fee_defaults_to_zero():
    status, body = _api().handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 5000})
    assert body["fee_cents"] == 0


def test_negative_fee_rejected():
    assert _api().handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 5, "fee_cents": -1})[0] == 400


def test_fees_collected():
    api = _api(Ledger([V4]))
    api.handle("POST", "/payments", {"account_id": "A-2", "amount_cents": 100, "fee_cents": 150})
    api.handle("POST", "/payments", {"account_id": "A-3", "amount_cents": 100, "fee_cents": 95})
    assert api.ledger.fees_collected_cents() == 245


def test_stored_records_get_no_fee():
    assert load_record(V4).fee_cents == 0


def test_upgraded_records_are_written_at_the_new_version():
    rec = Ledger([V4]).dump()[0]
    assert rec["v"] == 5 and rec["fee_cents"] == 0
'''

T8 = dict(
    n=8, family="ledger-schema", position=2, created_at="2026-04-14T12:15:00+00:00",
    problem=(
        "Record card convenience fees\n\n"
        "The card processor charges a convenience fee that we collect on top of the payment. POST "
        "/payments gets an optional `fee_cents` (non-negative integer, default 0, otherwise 400) that "
        "is stored on the ledger entry as `fee_cents` and returned. Add "
        "`Ledger.fees_collected_cents()` with the sum over all entries. Ledgers stored by the current "
        "release must keep loading."
    ),
    tests={"tests/test_fees.py": T8_TEST},
    gold=[_field("fee_cents: int = 0"), _BUMP, _migration("fee_cents", "0")] + T8_API,
    decoys=[
        [_field("fee_cents: int = 0")] + T8_API,
        [_field("fee_cents: int = 0"), _BUMP] + T8_API,
        [_field("fee_cents: int = 0"), _tolerant_load("fee_cents", "0"),
         ("edit", LEDGER, "    def entries_for(self, account_id: str):\n",
          "    def fees_for(self, account_id: str) -> int:\n"
          "        return sum(e.fee_cents for e in self.entries_for(account_id))\n\n"
          "    def fees_by_account(self) -> dict:\n"
          "        totals = {}\n"
          "        for e in self.entries:\n"
          "            totals[e.account_id] = totals.get(e.account_id, 0) + e.fee_cents\n"
          "        return totals\n\n"
          "    def entries_for(self, account_id: str):\n")] + T8_API,
    ],
)

T9_API = [
    ("edit", API, _ROUTES_OLD,
     "        if method == \"GET\" and len(parts) == 3 and parts[:2] == [\"payments\", \"by-ref\"]:\n"
     "            found = [e for e in self.ledger.entries if e.external_ref == parts[2]]\n"
     "            return (200, found[0].to_dict()) if found else (404, {\"error\": \"not found\"})\n"
     + _ROUTES_OLD),
    ("edit", API, _T8_POST_OLD,
     "        ref = body.get(\"external_ref\")\n"
     "        if ref is not None and any(e.external_ref == ref for e in self.ledger.entries):\n"
     "            return 409, {\"error\": \"duplicate external_ref\"}\n" + _T8_POST_OLD),
    ("edit", API, "                      channel=channel)\n", "                      channel=channel, external_ref=ref)\n"),
]

T9_API_BIG = [
    ("edit", API, _ROUTES_OLD,
     "        if method == \"GET\" and len(parts) == 3 and parts[:2] == [\"payments\", \"by-ref\"]:\n"
     "            return self._by_ref(parts[2])\n" + _ROUTES_OLD),
    ("edit", API, "    def _post(self, body):\n",
     "    def _find_ref(self, ref):\n"
     "        for entry in self.ledger.entries:\n"
     "            if entry.external_ref == ref:\n"
     "                return entry\n"
     "        return None\n\n"
     "    def _by_ref(self, ref):\n"
     "        entry = self._find_ref(ref)\n"
     "        if entry is None:\n"
     "            return 404, {\"error\": \"not found\"}\n"
     "        return 200, entry.to_dict()\n\n"
     "    def _post(self, body):\n"),
    ("edit", API, _T8_POST_OLD,
     "        ref = body.get(\"external_ref\")\n"
     "        if ref is not None and not isinstance(ref, str):\n"
     "            return 400, {\"error\": \"external_ref must be a string\"}\n"
     "        if ref is not None and self._find_ref(ref) is not None:\n"
     "            return 409, {\"error\": \"duplicate external_ref\"}\n" + _T8_POST_OLD),
    ("edit", API, "                      channel=channel)\n", "                      channel=channel, external_ref=ref)\n"),
]

T9_TEST = '''from datetime import datetime, timezone

from meter_billing.payments.api import PaymentsAPI
from meter_billing.payments.ledger import Ledger, load_record

V4 = {"entry_id": "s100", "account_id": "A-1", "amount_cents": 900, "posted_at": "2026-03-01T10:00:00+00:00",
      ''' + V4_FIELDS + ''', "v": 4}


def _api(ledger=None):
    return PaymentsAPI(ledger=ledger, clock=lambda: datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))


def test_lookup_by_ref():
    api = _api()
    api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 700, "external_ref": "ch_123"})
    status, body = api.handle("GET", "/payments/by-ref/ch_123")
    assert status == 200 and body["amount_cents"] == 700 and body["external_ref"] == "ch_123"


def test_unknown_ref():
    assert _api().handle("GET", "/payments/by-ref/nope")[0] == 404


def test_duplicate_ref_conflicts():
    api = _api()
    api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 700, "external_ref": "ch_1"})
    assert api.handle("POST", "/payments", {"account_id": "A-1", "amount_cents": 700, "external_ref": "ch_1"})[0] == 409


def test_stored_records_have_no_ref():
    assert load_record(V4).external_ref is None


def test_new_payment_next_to_stored_ones():
    api = _api(Ledger([V4]))
    assert api.handle("POST", "/payments", {"account_id": "A-9", "amount_cents": 1, "external_ref": "x"})[0] == 201


def test_upgraded_records_are_written_at_the_new_version():
    rec = Ledger([V4]).dump()[0]
    assert rec["v"] == 5 and rec["external_ref"] is None
'''

T9 = dict(
    n=9, family="ledger-schema", position=3, created_at="2026-04-21T15:50:00+00:00",
    problem=(
        "Look up payments by processor reference\n\n"
        "Reconciling against the card processor's report needs the processor's transaction id on our "
        "ledger entries. POST /payments gets an optional `external_ref` (string, default None) stored "
        "on the entry as `external_ref`; a second payment with the same `external_ref` returns 409. "
        "Add `GET /payments/by-ref/<ref>` returning 200 with the entry, or 404. Ledgers stored by the "
        "current release must keep loading."
    ),
    tests={"tests/test_external_ref.py": T9_TEST},
    gold=[_field("external_ref: str | None = None"), _BUMP, _migration("external_ref", "None")] + T9_API,
    decoys=[
        [_field("external_ref: str | None = None"), _tolerant_load("external_ref", "None")] + T9_API_BIG,
        [_field("external_ref: str | None = None"), _BUMP, _migration("external_ref", "None", key=5)] + T9_API_BIG,
        [_field("external_ref: str | None = None"), _BUMP,
         _migration("external_ref", "None", set_default=False)] + T9_API_BIG,
    ],
)

# =============================================================================================
# family usage-from-actual (linked)
# =============================================================================================
T10_TEST = '''from datetime import date

from meter_billing.billing.final_bill import final_usage
from meter_billing.reads.models import Meter, Read


def test_simple_final_read():
    reads = [Read("M-1", date(2026, 1, 1), 100), Read("M-1", date(2026, 2, 1), 400)]
    assert final_usage(Meter("M-1"), reads, 650) == 250


def test_after_an_estimate_and_a_wrap():
    meter = Meter("M-2", digits=4)
    reads = [Read("M-2", date(2026, 1, 1), 9000), Read("M-2", date(2026, 2, 1), 9700, kind="E")]
    assert final_usage(meter, reads, 300) == 1300


def test_five_digit_register_wraps():
    meter = Meter("M-3", digits=5)
    reads = [Read("M-3", date(2026, 1, 1), 99000)]
    assert final_usage(meter, reads, 500) == 1500
'''

T10 = dict(
    n=10, family="usage-from-actual", position=1, created_at="2026-04-09T14:25:00+00:00",
    problem=(
        "Move-out final bills\n\n"
        "When a customer moves out, the field tech takes a final register reading. Add "
        "`meter_billing/billing/final_bill.py` with `final_usage(meter, reads, final_value)` returning "
        "the usage (register units) to charge on the final bill, given the meter, its read history "
        "`reads` and the final register value."
    ),
    tests={"tests/test_final_bill.py": T10_TEST},
    gold=[("new", "meter_billing/billing/final_bill.py", '''"""Final bills when a customer moves out."""

from meter_billing.reads.history import last_actual
from meter_billing.reads.register import consumption


def final_usage(meter, reads, final_value):
    start = last_actual(reads)
    if start is None:
        raise ValueError("no actual read to bill from")
    return consumption(start.value, final_value, meter.digits)
''')],
    decoys=[
        [("new", "meter_billing/billing/final_bill.py", '''"""Final bills when a customer moves out."""

from meter_billing.reads.history import latest
from meter_billing.reads.register import consumption


def final_usage(meter, reads, final_value):
    return consumption(latest(reads).value, final_value, meter.digits)
''')],
        [("new", "meter_billing/billing/final_bill.py", '''"""Final bills when a customer moves out."""

from meter_billing.reads.history import last_actual
from meter_billing.reads.register import consumption


def final_usage(meter, reads, final_value):
    start = last_actual(reads)
    return consumption(start.value, final_value)
''')],
        [("new", "meter_billing/billing/final_bill.py", '''"""Final bills when a customer moves out."""

from meter_billing.reads.history import latest
from meter_billing.reads.register import consumption, max_register


def final_usage(meter, reads, final_value):
    if not reads:
        raise ValueError("no reads to bill from")
    if final_value < 0 or final_value > max_register(6):
        raise ValueError("final value out of range")
    start = latest(reads)
    return consumption(start.value, final_value)
''')],
    ],
)

T11_TEST = '''from datetime import date
from decimal import Decimal

from meter_billing.billing.proration import recent_daily_usage
from meter_billing.reads.models import Meter, Read


def test_two_actual_reads():
    reads = [Read("M-1", date(2026, 1, 1), 1000), Read("M-1", date(2026, 1, 31), 1300)]
    assert recent_daily_usage(Meter("M-1"), reads) == Decimal("10.00")


def test_interval_starts_at_the_last_actual_read():
    meter = Meter("M-2", digits=4)
    reads = [Read("M-2", date(2026, 1, 1), 9000), Read("M-2", date(2026, 2, 1), 9700, kind="E"),
             Read("M-2", date(2026, 3, 3), 200)]
    assert recent_daily_usage(meter, reads) == Decimal("19.67")


def test_wrap_on_meter_digits():
    meter = Meter("M-3", digits=5)
    reads = [Read("M-3", date(2026, 1, 1), 99900), Read("M-3", date(2026, 1, 11), 100)]
    assert recent_daily_usage(meter, reads) == Decimal("20.00")
'''

T11 = dict(
    n=11, family="usage-from-actual", position=2, created_at="2026-04-16T13:05:00+00:00",
    problem=(
        "Proration needs the recent daily usage\n\n"
        "When a tariff changes mid-cycle we prorate with the meter's recent daily usage. Add "
        "`meter_billing/billing/proration.py` with `recent_daily_usage(meter, reads) -> Decimal`: the "
        "usage per day (two decimal places, rounded half up) over the meter's most recent billing "
        "interval, ending at its latest read."
    ),
    tests={"tests/test_proration.py": T11_TEST},
    gold=[("new", "meter_billing/billing/proration.py", '''"""Proration helpers."""

from decimal import ROUND_HALF_UP, Decimal

from meter_billing.reads.history import last_actual, sort_reads
from meter_billing.reads.register import consumption


def recent_daily_usage(meter, reads):
    ordered = sort_reads(reads)
    if len(ordered) < 2:
        raise ValueError("need two reads")
    current = ordered[-1]
    start = last_actual(ordered[:-1])
    if start is None:
        raise ValueError("need an actual read to measure from")
    usage = consumption(start.value, current.value, meter.digits)
    days = (current.read_on - start.read_on).days
    return (Decimal(usage) / days).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
''')],
    decoys=[
        [("new", "meter_billing/billing/proration.py", '''"""Proration helpers."""

from decimal import ROUND_HALF_UP, Decimal

from meter_billing.reads.history import sort_reads
from meter_billing.reads.register import consumption


def recent_daily_usage(meter, reads):
    ordered = sort_reads(reads)
    start, current = ordered[-2], ordered[-1]
    usage = consumption(start.value, current.value, meter.digits)
    days = (current.read_on - start.read_on).days
    return (Decimal(usage) / days).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
''')],
        [("new", "meter_billing/billing/proration.py", '''"""Proration helpers."""

from decimal import ROUND_HALF_UP, Decimal

from meter_billing.reads.history import last_actual, sort_reads
from meter_billing.reads.register import consumption


def recent_daily_usage(meter, reads):
    ordered = sort_reads(reads)
    current = ordered[-1]
    start = last_actual(ordered[:-1])
    usage = consumption(start.value, current.value)
    days = (current.read_on - start.read_on).days
    return (Decimal(usage) / days).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
''')],
        [("new", "meter_billing/billing/proration.py", '''"""Proration helpers."""

from decimal import ROUND_HALF_UP, Decimal

from meter_billing.reads.estimate import average_daily_usage


def recent_daily_usage(meter, reads):
    return average_daily_usage(reads[-2:]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
''')],
    ],
)

T12_TEST = '''from datetime import date

import pytest

from meter_billing.billing.disputes import check_customer_read
from meter_billing.reads.models import Meter, Read


def test_plausible_self_read():
    reads = [Read("M-1", date(2026, 1, 1), 1000), Read("M-1", date(2026, 2, 1), 1400)]
    assert check_customer_read(Meter("M-1"), reads, 1600) == 200


def test_self_read_after_estimate_and_wrap():
    meter = Meter("M-2", digits=4)
    reads = [Read("M-2", date(2026, 1, 1), 9800), Read("M-2", date(2026, 2, 1), 9950, kind="E")]
    assert check_customer_read(meter, reads, 150) == 350


def test_implausible_self_read_rejected():
    reads = [Read("M-1", date(2026, 1, 1), 1000)]
    with pytest.raises(ValueError):
        check_customer_read(Meter("M-1"), reads, 90_000)


def test_five_digit_wrap_is_plausible():
    reads = [Read("M-3", date(2026, 1, 1), 99_950)]
    assert check_customer_read(Meter("M-3", digits=5), reads, 50) == 100
'''

T12 = dict(
    n=12, family="usage-from-actual", position=3, created_at="2026-04-23T10:30:00+00:00",
    problem=(
        "Check customer self-reads\n\n"
        "Customers disputing a bill can submit a photo of their register. Add "
        "`meter_billing/billing/disputes.py` with `check_customer_read(meter, reads, customer_value)` "
        "returning the usage implied by the customer's value relative to the meter's read history "
        "`reads`, and raising ValueError when that usage is implausible (more than 50,000)."
    ),
    tests={"tests/test_disputes.py": T12_TEST},
    gold=[("new", "meter_billing/billing/disputes.py", '''"""Bill disputes."""

from meter_billing.reads.history import last_actual
from meter_billing.reads.register import consumption


def check_customer_read(meter, reads, customer_value):
    usage = consumption(last_actual(reads).value, customer_value, meter.digits)
    if usage > 50_000:
        raise ValueError(f"implausible self-read: {usage} since the last actual read")
    return usage
''')],
    decoys=[
        [("new", "meter_billing/billing/disputes.py", '''"""Bill disputes."""

from meter_billing.reads.history import latest
from meter_billing.reads.register import consumption, max_register

MAX_PLAUSIBLE_USAGE = 50_000


def check_customer_read(meter, reads, customer_value):
    if not reads:
        raise ValueError("no reads on file")
    if not 0 <= customer_value <= max_register(meter.digits):
        raise ValueError("value does not fit the register")
    usage = consumption(latest(reads).value, customer_value, meter.digits)
    if usage > MAX_PLAUSIBLE_USAGE:
        raise ValueError(f"implausible self-read: {usage}")
    return usage
''')],
        [("new", "meter_billing/billing/disputes.py", '''"""Bill disputes."""

from meter_billing.reads.history import last_actual
from meter_billing.reads.register import consumption

MAX_PLAUSIBLE_USAGE = 50_000


def check_customer_read(meter, reads, customer_value):
    start = last_actual(reads)
    if start is None:
        raise ValueError("no actual read on file")
    usage = consumption(start.value, customer_value)
    if usage > MAX_PLAUSIBLE_USAGE:
        raise ValueError(f"implausible self-read: {usage}")
    return usage
''')],
        [("new", "meter_billing/billing/disputes.py", '''"""Bill disputes."""

from meter_billing.reads.history import sort_reads

MAX_PLAUSIBLE_USAGE = 50_000


def check_customer_read(meter, reads, customer_value):
    ordered = sort_reads(reads)
    if not ordered:
        raise ValueError("no reads on file")
    usage = customer_value - ordered[-1].value
    if usage < 0:
        usage += 10 ** meter.digits
    if usage > MAX_PLAUSIBLE_USAGE:
        raise ValueError(f"implausible self-read: {usage}")
    return usage
''')],
    ],
)

TASKS = [T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12]
