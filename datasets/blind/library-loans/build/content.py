"""Repository contents of acme-lib/library-loans: the initial tree and later maintainer commits."""

INITIAL = {
    ".gitignore": "__pycache__/\n*.pyc\n.pytest_cache/\n",
    ".env": (
        "# local settings for the notice mailer (do not share)\n"
        "NOTIFY_SMTP_HOST=smtp.acme-lib.example\n"
        "NOTIFY_SMTP_USER=notices\n"
        "NOTIFY_API_TOKEN=lln_live_9f3b2c7e4d1a8b6f0e2d5c9a7b3f1e08\n"
    ),
    "README.md": (
        "# library-loans\n\n"
        "Lending service of the Acme public library: checkouts, renewals, holds, fines and the\n"
        "letters we send to patrons. Pure standard library; tests use pytest.\n\n"
        "```\npython -m pytest -q\n```\n"
    ),
    "CONTRIBUTING.md": (
        "# Contributing\n\n"
        "- Run `python -m pytest -q` before opening a pull request.\n"
        "- Amounts of money are integer cents everywhere.\n"
        "- Policy numbers (loan periods, renewals, closures) live in `loans/config.py`.\n"
    ),
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "loans/__init__.py": '"""Library loans service."""\n\n__version__ = "0.1.0"\n',
    "loans/config.py": (
        '"""Lending policy settings."""\n'
        "import datetime as _dt\n\n"
        'LOAN_DAYS = {"book": 21, "dvd": 7, "magazine": 7}\n'
        "MAX_RENEWALS = 2\n"
        "CLOSED_WEEKDAYS = {6}  # Sunday\n"
        "CLOSURES = {\n"
        "    _dt.date(2024, 1, 1),\n"
        "    _dt.date(2024, 5, 27),\n"
        "    _dt.date(2024, 7, 4),\n"
        "    _dt.date(2024, 9, 2),\n"
        "    _dt.date(2024, 11, 28),\n"
        "    _dt.date(2024, 12, 25),\n"
        "}\n"
        "HOLD_PICKUP_DAYS = 5\n"
    ),
    "loans/calendar.py": (
        '"""Opening days of the library."""\n'
        "from datetime import date, timedelta\n\n"
        "from .config import CLOSED_WEEKDAYS\n\n\n"
        "def is_open(day: date) -> bool:\n"
        "    return day.weekday() not in CLOSED_WEEKDAYS\n\n\n"
        "def next_open_day(day: date) -> date:\n"
        '    """The first day on or after `day` when the library is open."""\n'
        "    while not is_open(day):\n"
        "        day += timedelta(days=1)\n"
        "    return day\n"
    ),
    "loans/models.py": (
        "from dataclasses import dataclass\n"
        "from datetime import date\n"
        "from typing import Optional\n\n\n"
        "@dataclass\n"
        "class Item:\n"
        "    barcode: str\n"
        "    title: str\n"
        '    kind: str = "book"\n'
        "    replacement_cents: int = 2500\n\n\n"
        "@dataclass\n"
        "class Patron:\n"
        "    card: str\n"
        "    name: str\n"
        '    email: str = ""\n\n\n'
        "@dataclass\n"
        "class Loan:\n"
        "    item: Item\n"
        "    patron: Patron\n"
        "    start: date\n"
        "    due: date\n"
        "    renewals: int = 0\n"
        "    returned: Optional[date] = None\n"
    ),
    "loans/circulation.py": (
        '"""Checkout, renewal and check-in."""\n'
        "from datetime import date, timedelta\n\n"
        "from . import fines\n"
        "from .calendar import next_open_day\n"
        "from .config import LOAN_DAYS, MAX_RENEWALS\n"
        "from .models import Item, Loan, Patron\n\n\n"
        "class RenewalRefused(Exception):\n"
        "    pass\n\n\n"
        "def due_date(kind: str, start: date) -> date:\n"
        "    return next_open_day(start + timedelta(days=LOAN_DAYS[kind]))\n\n\n"
        "def checkout(item: Item, patron: Patron, today: date) -> Loan:\n"
        "    return Loan(item=item, patron=patron, start=today, due=due_date(item.kind, today))\n\n\n"
        "def renew(loan: Loan, today: date) -> Loan:\n"
        "    if loan.returned is not None:\n"
        '        raise RenewalRefused("loan already returned")\n'
        "    if loan.renewals >= MAX_RENEWALS:\n"
        '        raise RenewalRefused("renewal limit reached")\n'
        "    loan.due = due_date(loan.item.kind, today)\n"
        "    loan.renewals += 1\n"
        "    return loan\n\n\n"
        "def checkin(loan: Loan, today: date) -> int:\n"
        '    """Close the loan; returns the fine owed in cents."""\n'
        "    loan.returned = today\n"
        "    return fines.assess(loan, today)\n"
    ),
    "loans/fines.py": (
        '"""Overdue fines. Amounts are integer cents."""\n'
        "from datetime import date\n\n"
        "DAILY_FINE_CENTS = 25\n"
        "FINE_CAP_CENTS = 1000\n\n\n"
        "def days_late(loan, returned: date) -> int:\n"
        "    return max(0, (returned - loan.due).days)\n\n\n"
        "def overdue_fine(days: int) -> int:\n"
        "    return min(days * DAILY_FINE_CENTS, FINE_CAP_CENTS)\n\n\n"
        "def assess(loan, returned: date) -> int:\n"
        "    return overdue_fine(days_late(loan, returned))\n"
    ),
    "loans/ledger.py": (
        '"""Patron account ledger and fee codes.\n\n'
        "data/fee_codes.tsv is read by the finance office's import; it is generated from FEE_CODES.\n"
        '"""\n'
        "import argparse\n"
        "from dataclasses import dataclass\n"
        "from pathlib import Path\n\n"
        "FEE_CODES_VERSION = 1\n"
        "FEE_CODES = {\n"
        '    "OVERDUE": "Overdue fine",\n'
        '    "LOST": "Lost item replacement",\n'
        '    "PAY": "Payment received",\n'
        "}\n"
        'CODES_FILE = Path(__file__).resolve().parent.parent / "data" / "fee_codes.tsv"\n\n\n'
        "class UnknownFeeCode(ValueError):\n"
        "    pass\n\n\n"
        "@dataclass\n"
        "class Entry:\n"
        "    card: str\n"
        "    code: str\n"
        "    cents: int\n"
        '    note: str = ""\n\n\n'
        "class Ledger:\n"
        "    def __init__(self):\n"
        "        self.entries = []\n\n"
        '    def record(self, card: str, code: str, cents: int, note: str = "") -> Entry:\n'
        "        if code not in FEE_CODES:\n"
        "            raise UnknownFeeCode(code)\n"
        "        entry = Entry(card, code, cents, note)\n"
        "        self.entries.append(entry)\n"
        "        return entry\n\n"
        "    def balance(self, card: str) -> int:\n"
        "        return sum(e.cents for e in self.entries if e.card == card)\n\n\n"
        "def render_codes() -> str:\n"
        '    lines = [f"# fee codes v{FEE_CODES_VERSION}"]\n'
        '    lines += [f"{code}\\t{FEE_CODES[code]}" for code in sorted(FEE_CODES)]\n'
        '    return "\\n".join(lines) + "\\n"\n\n\n'
        "def main(argv=None) -> int:\n"
        '    parser = argparse.ArgumentParser(prog="python -m loans.ledger")\n'
        '    parser.add_argument("--dump-codes", action="store_true", help="rewrite data/fee_codes.tsv from FEE_CODES")\n'
        "    args = parser.parse_args(argv)\n"
        "    if args.dump_codes:\n"
        "        CODES_FILE.write_text(render_codes())\n"
        '        print(f"wrote {len(FEE_CODES)} codes to data/fee_codes.tsv (v{FEE_CODES_VERSION})")\n'
        "        return 0\n"
        "    parser.print_help()\n"
        "    return 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    raise SystemExit(main())\n"
    ),
    "data/fee_codes.tsv": "# fee codes v1\nLOST\tLost item replacement\nOVERDUE\tOverdue fine\nPAY\tPayment received\n",
    "loans/notices/__init__.py": (
        '"""Letters and e-mails sent to patrons."""\n'
        "from .. import fines\n\n\n"
        "def due_reminder(loan) -> str:\n"
        "    return (\n"
        '        f"Dear {loan.patron.name},\\n"\n'
        "        f\"'{loan.item.title}' is due back on {loan.due.isoformat()}.\\n\"\n"
        "    )\n\n\n"
        "def overdue_reminder(loan, today) -> str:\n"
        "    days = fines.days_late(loan, today)\n"
        '    plural = "s" if days != 1 else ""\n'
        "    return (\n"
        '        f"Dear {loan.patron.name},\\n"\n'
        "        f\"'{loan.item.title}' is {days} day{plural} overdue.\\n\"\n"
        "    )\n"
    ),
    "tests/conftest.py": (
        "import pytest\n\n"
        "from loans.models import Item, Patron\n\n\n"
        "@pytest.fixture\n"
        "def book():\n"
        '    return Item("B0001", "Dune", "book", 2500)\n\n\n'
        "@pytest.fixture\n"
        "def dvd():\n"
        '    return Item("D0001", "Alien", "dvd", 2000)\n\n\n'
        "@pytest.fixture\n"
        "def ada():\n"
        '    return Patron("P100", "Ada Lovelace", "ada@example.org")\n'
    ),
    "tests/test_circulation.py": (
        "from datetime import date\n\n"
        "import pytest\n\n"
        "from loans.circulation import RenewalRefused, checkout, due_date, renew\n\n\n"
        "def test_book_due_in_21_days(book, ada):\n"
        "    loan = checkout(book, ada, date(2024, 1, 3))\n"
        "    assert loan.due == date(2024, 1, 24)\n\n\n"
        "def test_due_date_skips_sunday():\n"
        "    assert due_date(\"dvd\", date(2024, 1, 7)) == date(2024, 1, 15)\n\n\n"
        "def test_renewal_limit(book, ada):\n"
        "    loan = checkout(book, ada, date(2024, 1, 3))\n"
        "    renew(loan, date(2024, 1, 20))\n"
        "    renew(loan, date(2024, 2, 10))\n"
        "    with pytest.raises(RenewalRefused):\n"
        "        renew(loan, date(2024, 3, 1))\n"
    ),
    "tests/test_fines.py": (
        "from datetime import date\n\n"
        "from loans.circulation import checkin, checkout\n"
        "from loans.fines import FINE_CAP_CENTS, overdue_fine\n\n\n"
        "def test_fine_per_day():\n"
        "    assert overdue_fine(10) == 250\n\n\n"
        "def test_fine_is_capped():\n"
        "    assert overdue_fine(100) == FINE_CAP_CENTS\n\n\n"
        "def test_checkin_charges_days_late(book, ada):\n"
        "    loan = checkout(book, ada, date(2024, 1, 3))\n"
        "    assert checkin(loan, date(2024, 1, 29)) == 125\n\n\n"
        "def test_checkin_on_time_is_free(book, ada):\n"
        "    loan = checkout(book, ada, date(2024, 1, 3))\n"
        "    assert checkin(loan, date(2024, 1, 24)) == 0\n"
    ),
    "tests/test_ledger.py": (
        "import pytest\n\n"
        "from loans.ledger import CODES_FILE, Ledger, UnknownFeeCode, render_codes\n\n\n"
        "def test_codes_file_in_sync():\n"
        "    assert CODES_FILE.read_text() == render_codes()\n\n\n"
        "def test_balance_sums_entries():\n"
        "    ledger = Ledger()\n"
        '    ledger.record("P1", "OVERDUE", 125)\n'
        '    ledger.record("P1", "PAY", -100)\n'
        '    ledger.record("P2", "LOST", 2500)\n'
        '    assert ledger.balance("P1") == 25\n\n\n'
        "def test_unknown_code_refused():\n"
        "    with pytest.raises(UnknownFeeCode):\n"
        '        Ledger().record("P1", "BOGUS", 1)\n'
    ),
    "tests/test_notices.py": (
        "from datetime import date\n\n"
        "from loans.circulation import checkout\n"
        "from loans.notices import overdue_reminder\n\n\n"
        "def test_overdue_reminder_mentions_days_late(book, ada):\n"
        "    loan = checkout(book, ada, date(2024, 1, 3))\n"
        "    assert \"is 5 days overdue\" in overdue_reminder(loan, date(2024, 1, 29))\n"
    ),
}

HOLDS = {
    "loans/holds.py": (
        '"""Hold queue: patrons waiting for an item."""\n'
        "from collections import defaultdict, deque\n"
        "from dataclasses import dataclass\n"
        "from datetime import date\n"
        "from typing import Optional\n\n\n"
        "@dataclass\n"
        "class Hold:\n"
        "    barcode: str\n"
        "    card: str\n"
        "    placed: date\n"
        "    ready_on: Optional[date] = None\n\n\n"
        "class HoldQueue:\n"
        "    def __init__(self):\n"
        "        self._queues = defaultdict(deque)\n\n"
        "    def place(self, barcode: str, card: str, today: date) -> Hold:\n"
        "        hold = Hold(barcode, card, today)\n"
        "        self._queues[barcode].append(hold)\n"
        "        return hold\n\n"
        "    def waiting(self, barcode: str) -> int:\n"
        "        return len(self._queues[barcode])\n\n"
        "    def set_aside(self, barcode: str, today: date) -> Optional[Hold]:\n"
        '        """The item came back: the first patron in line gets it."""\n'
        "        if not self._queues[barcode]:\n"
        "            return None\n"
        "        hold = self._queues[barcode].popleft()\n"
        "        hold.ready_on = today\n"
        "        return hold\n"
    ),
    "tests/test_holds.py": (
        "from datetime import date\n\n"
        "from loans.holds import HoldQueue\n\n\n"
        "def test_first_in_line_gets_item():\n"
        "    q = HoldQueue()\n"
        '    q.place("B0001", "P1", date(2024, 1, 5))\n'
        '    q.place("B0001", "P2", date(2024, 1, 6))\n'
        '    hold = q.set_aside("B0001", date(2024, 1, 10))\n'
        '    assert hold.card == "P1" and hold.ready_on == date(2024, 1, 10)\n'
        '    assert q.waiting("B0001") == 1\n'
    ),
}

EXPORT_PR = {
    "loans/export.py": (
        '"""CSV exports for the finance office."""\n'
        "import csv\n"
        "import io\n\n"
        "from . import fines\n"
        "from .notices.format import fmt_date\n\n"
        'COLUMNS = ["barcode", "title", "card", "due", "returned", "days_late"]\n\n\n'
        "def overdue_csv(loans, today) -> str:\n"
        "    out = io.StringIO()\n"
        '    writer = csv.writer(out, lineterminator="\\n")\n'
        "    writer.writerow(COLUMNS)\n"
        "    for loan in loans:\n"
        "        end = loan.returned or today\n"
        "        days = fines.days_late(loan, end)\n"
        "        if days == 0:\n"
        "            continue\n"
        '        returned = fmt_date(loan.returned) if loan.returned else ""\n'
        "        writer.writerow([loan.item.barcode, loan.item.title, loan.patron.card,\n"
        "                         loan.due.isoformat(), returned, days])\n"
        "    return out.getvalue()\n"
    ),
    "tests/test_export.py": (
        "from datetime import date\n\n"
        "from loans.circulation import checkout\n"
        "from loans.export import overdue_csv\n\n\n"
        "def test_overdue_csv_lists_only_late_loans(book, dvd, ada):\n"
        "    late = checkout(book, ada, date(2024, 1, 3))\n"
        "    fresh = checkout(dvd, ada, date(2024, 1, 25))\n"
        "    rows = overdue_csv([late, fresh], date(2024, 1, 29)).splitlines()\n"
        '    assert rows[0] == "barcode,title,card,due,returned,days_late"\n'
        '    assert rows[1] == "B0001,Dune,P100,2024-01-24,,5"\n'
        "    assert len(rows) == 2\n"
    ),
}
