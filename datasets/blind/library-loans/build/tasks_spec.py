"""Evaluation tasks, facts and oracle memories of the library-loans corpus.

Each task's base is a side branch off `main` holding a feature written the naive way. A candidate
is a list of (path, old, new) replacements applied to the base's files; build.py turns each into a
unified diff with git. Test outcomes are measured, not declared: FAIL_TO_PASS are the listed tests
that fail at the base (with the test patch) and pass with the gold; PASS_TO_PASS pass in both.
"""
import json
import re
import subprocess
from pathlib import Path

OWNER, NAME = "acme-lib", "library-loans"
REPO_ID = f"{OWNER}/{NAME}"

# --------------------------------------------------------------------------------------------
# fine-grace (rule_change): three tasks
# --------------------------------------------------------------------------------------------
T1_BASE_OLD = "    plural = \"s\" if days != 1 else \"\"\n    return (\n        f\"Dear {loan.patron.name},\\n\"\n        f\"'{loan.item.title}' is {days} day{plural} overdue.\\n\"\n    )\n"
T1_BASE_NEW = (
    "    plural = \"s\" if days != 1 else \"\"\n"
    "    estimate = max(0, days - 3) * 25\n"
    "    return (\n"
    "        f\"Dear {loan.patron.name},\\n\"\n"
    "        f\"'{loan.item.title}' is {days} day{plural} overdue.\\n\"\n"
    "        f\"Fine so far: ${estimate / 100:.2f}\\n\"\n"
    "    )\n"
)
T1_LINE = "    estimate = max(0, days - 3) * 25\n"

ACCOUNTS = (
    '"""Patron account page."""\n'
    "from . import fines\n\n\n"
    "def projected_balance(ledger, card, open_loans, today) -> int:\n"
    '    """What the patron would owe if they returned every open loan today."""\n'
    "    total = ledger.balance(card)\n"
    "    for loan in open_loans:\n"
    "        if loan.patron.card != card:\n"
    "            continue\n"
    "        total += fines.days_late(loan, today) * fines.DAILY_FINE_CENTS\n"
    "    return total\n"
)
T2_LINE = "        total += fines.days_late(loan, today) * fines.DAILY_FINE_CENTS\n"

LOST = (
    '"""Items declared lost by the patron."""\n'
    "from . import fines\n\n\n"
    "def declare_lost(ledger, loan, today) -> int:\n"
    '    """Charge the replacement cost and the overdue fine so far; closes the loan."""\n'
    "    ledger.record(loan.patron.card, \"LOST\", loan.item.replacement_cents, loan.item.title)\n"
    "    days = (today - loan.due).days\n"
    "    ledger.record(loan.patron.card, \"OVERDUE\", days * fines.DAILY_FINE_CENTS, loan.item.title)\n"
    "    loan.returned = today\n"
    "    return ledger.balance(loan.patron.card)\n"
)
T3_LINES = (
    "    days = (today - loan.due).days\n"
    "    ledger.record(loan.patron.card, \"OVERDUE\", days * fines.DAILY_FINE_CENTS, loan.item.title)\n"
)

# --------------------------------------------------------------------------------------------
# fee-codes (procedure): three tasks
# --------------------------------------------------------------------------------------------
HOLDS_FEE = (
    "\n\nNO_PICKUP_FEE_CENTS = 100\n\n\n"
    "def charge_unclaimed(ledger, hold: Hold):\n"
    '    """A patron who never collected a hold pays a small fee."""\n'
    "    return ledger.record(hold.card, \"NOPICKUP\", NO_PICKUP_FEE_CENTS, hold.barcode)\n"
)
PRINTING = (
    '"""Public printers."""\n\n'
    "PAGE_CENTS = 10\n\n\n"
    "def charge_print_job(ledger, patron, pages: int):\n"
    "    if pages <= 0:\n"
    '        raise ValueError("a print job has at least one page")\n'
    "    return ledger.record(patron.card, \"PRINT\", pages * PAGE_CENTS, f\"{pages} pages\")\n"
)
ROOMS = (
    '"""Meeting room bookings."""\n\n'
    "HOURLY_CENTS = 500\n\n\n"
    "def book_room(ledger, patron, room: str, hours: int):\n"
    "    if not 1 <= hours <= 4:\n"
    '        raise ValueError("rooms are booked for one to four hours")\n'
    "    return ledger.record(patron.card, \"ROOM\", hours * HOURLY_CENTS, f\"{room}, {hours}h\")\n"
)
CODES_TAIL = '    "CARD": "Replacement library card",\n'
VERSION_LINE = "FEE_CODES_VERSION = 4\n"
REGISTER_HELPER = (
    "\n\ndef register_fee_code(code: str, description: str) -> None:\n"
    "    if code in FEE_CODES and FEE_CODES[code] != description:\n"
    '        raise ValueError(f"fee code {code} already means {FEE_CODES[code]!r}")\n'
    "    FEE_CODES[code] = description\n"
)
REGISTER_ANCHOR = "class UnknownFeeCode(ValueError):\n    pass\n"


def tsv_sorted(codes_v4: str, code: str, desc: str, version: int) -> str:
    lines = codes_v4.splitlines()
    body = sorted(lines[1:] + [f"{code}\t{desc}"])
    return "\n".join([f"# fee codes v{version}"] + body) + "\n"


# --------------------------------------------------------------------------------------------
# letter-dates (module_only): three tasks
# --------------------------------------------------------------------------------------------
HOLD_READY = (
    "\n\ndef hold_ready(patron, title, pickup_by) -> str:\n"
    "    return (\n"
    '        f"Dear {patron.name},\\n"\n'
    "        f\"'{title}' is waiting for you at the front desk.\\n\"\n"
    "    )\n"
)
HOLD_READY_LAST = "        f\"'{title}' is waiting for you at the front desk.\\n\"\n"
RENEWAL_LETTER = (
    "\n\ndef renewal_confirmation(loan) -> str:\n"
    "    return (\n"
    '        f"Dear {loan.patron.name},\\n"\n'
    "        f\"You renewed '{loan.item.title}'. Your new due date is {loan.due}.\\n\"\n"
    "    )\n"
)
HOLDS_EXPORT = (
    "\n\nHOLD_COLUMNS = [\"barcode\", \"card\", \"placed\", \"ready_on\"]\n\n\n"
    "def holds_csv(holds) -> str:\n"
    "    out = io.StringIO()\n"
    '    writer = csv.writer(out, lineterminator="\\n")\n'
    "    writer.writerow(HOLD_COLUMNS)\n"
    "    for hold in holds:\n"
    '        writer.writerow([hold.barcode, hold.card, "", ""])\n'
    "    return out.getvalue()\n"
)
HOLDS_ROW = '        writer.writerow([hold.barcode, hold.card, "", ""])\n'

# --------------------------------------------------------------------------------------------
# renewal-dates (linked): three tasks
# --------------------------------------------------------------------------------------------
JOBS = (
    '"""Nightly jobs."""\n'
    "from datetime import timedelta\n\n"
    "from .config import LOAN_DAYS, MAX_RENEWALS\n\n\n"
    "def auto_renew(loans, today, holds):\n"
    '    """Renew loans due by tomorrow that nobody is waiting for."""\n'
    "    renewed = []\n"
    "    for loan in loans:\n"
    "        if loan.returned is not None or loan.renewals >= MAX_RENEWALS:\n"
    "            continue\n"
    "        if loan.due > today + timedelta(days=1) or holds.waiting(loan.item.barcode):\n"
    "            continue\n"
    "        loan.due = today + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
    "        loan.renewals += 1\n"
    "        renewed.append(loan)\n"
    "    return renewed\n"
)
JOBS_DUE = "        loan.due = today + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
KIOSK = (
    '"""Self-service kiosk."""\n'
    "from datetime import timedelta\n\n"
    "from .config import LOAN_DAYS, MAX_RENEWALS\n\n\n"
    "class KioskError(Exception):\n"
    "    pass\n\n\n"
    "def renew_by_barcode(loans, barcode, today):\n"
    "    for loan in loans:\n"
    "        if loan.item.barcode == barcode and loan.returned is None:\n"
    "            if loan.renewals >= MAX_RENEWALS:\n"
    '                raise KioskError("Please see the desk: renewal limit reached")\n'
    "            loan.due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
    "            loan.renewals += 1\n"
    "            return loan.due\n"
    '    raise KioskError("Item not on your account")\n'
)
KIOSK_DUE = "            loan.due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
ACCOUNT = (
    '"""Patron self-service on the website."""\n'
    "from datetime import timedelta\n\n"
    "from .config import LOAN_DAYS, MAX_RENEWALS\n\n\n"
    "def renew_all(loans, today):\n"
    '    """Renew every open loan that can still be renewed; returns the barcodes renewed."""\n'
    "    done = []\n"
    "    for loan in loans:\n"
    "        if loan.returned is not None or loan.renewals >= MAX_RENEWALS:\n"
    "            continue\n"
    "        loan.due = today + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
    "        loan.renewals += 1\n"
    "        done.append(loan.item.barcode)\n"
    "    return done\n"
)
ACCOUNT_DUE = "        loan.due = today + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
CFG_IMPORT = "from .config import LOAN_DAYS, MAX_RENEWALS\n"


def test_file(body: str) -> str:
    return body.lstrip("\n")


TASKS = [
    # ---------------- fine-grace ----------------
    {
        "n": 1, "family": "fine-grace", "branch": "feature/overdue-fine-estimate",
        "created_at": "2024-04-02T09:00:00+00:00", "who": "sam",
        "base_msg": "Overdue reminder shows the fine so far",
        "base": [("loans/notices/__init__.py", T1_BASE_OLD, T1_BASE_NEW)],
        "problem": (
            "Overdue reminder: \"Fine so far\" disagrees with the desk\n\nThe \"Fine so far\" line we added to "
            "overdue reminders often shows a different amount from what the desk charges when the patron "
            "returns the item on the day the reminder was generated. Patrons bring the letter to the desk and "
            "dispute the difference. The reminder should show what they would actually be charged."
        ),
        "tests": ("tests/test_overdue_estimate.py", test_file('''
from datetime import date

from loans.circulation import checkout
from loans.notices import overdue_reminder


def test_estimate_a_few_days_past_grace(book, ada):
    loan = checkout(book, ada, date(2024, 1, 3))
    assert "Fine so far: $1.25" in overdue_reminder(loan, date(2024, 1, 29))


def test_estimate_within_grace(book, ada):
    loan = checkout(book, ada, date(2024, 1, 3))
    assert "Fine so far: $0.00" in overdue_reminder(loan, date(2024, 1, 27))


def test_estimate_long_overdue(book, ada):
    loan = checkout(book, ada, date(2024, 1, 3))
    assert "Fine so far: $10.00" in overdue_reminder(loan, date(2024, 3, 24))
''')),
        "extra_tests": ["tests/test_notices.py::test_overdue_reminder_mentions_days_late",
                        "tests/test_fines.py::test_checkin_charges_days_late"],
        "gold": [("loans/notices/__init__.py", T1_LINE, "    estimate = fines.overdue_fine(days)\n")],
        "decoys": [
            [("loans/notices/__init__.py", T1_LINE,
              "    chargeable = max(0, days - fines.GRACE_DAYS)\n"
              "    estimate = min(chargeable * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS)\n")],
            [("loans/notices/__init__.py", T1_LINE,
              "    estimate = days * fines.DAILY_FINE_CENTS\n"
              "    if estimate > fines.FINE_CAP_CENTS:\n"
              "        estimate = fines.FINE_CAP_CENTS\n")],
            [("loans/notices/__init__.py", T1_LINE,
              "    if days < fines.GRACE_DAYS:\n"
              "        estimate = 0\n"
              "    else:\n"
              "        estimate = min(days * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS)\n")],
        ],
    },
    {
        "n": 2, "family": "fine-grace", "branch": "feature/projected-balance",
        "created_at": "2024-04-05T10:30:00+00:00", "who": "sam",
        "base_msg": "Account page: projected balance",
        "base": [("loans/accounts.py", None, ACCOUNTS)],
        "problem": (
            "Projected balance is higher than what patrons pay\n\nThe \"if you returned everything today\" "
            "figure on the account page (projected_balance) is often more than what the desk then charges when "
            "the patron does return the items that day. It should match what they would be charged."
        ),
        "tests": ("tests/test_accounts.py", test_file('''
from datetime import date

from loans.accounts import projected_balance
from loans.circulation import checkout
from loans.ledger import Ledger


def _balance(book, ada, today):
    ledger = Ledger()
    ledger.record("P100", "DAMAGE", 300)
    loan = checkout(book, ada, date(2024, 1, 3))
    return projected_balance(ledger, "P100", [loan], today)


def test_projection_a_few_days_past_grace(book, ada):
    assert _balance(book, ada, date(2024, 1, 29)) == 300 + 125


def test_projection_within_grace(book, ada):
    assert _balance(book, ada, date(2024, 1, 26)) == 300


def test_projection_long_overdue(book, ada):
    assert _balance(book, ada, date(2024, 3, 24)) == 300 + 1000
''')),
        "extra_tests": ["tests/test_ledger.py::test_balance_sums_entries"],
        "gold": [("loans/accounts.py", T2_LINE,
                  "        days = fines.days_late(loan, today)\n"
                  "        total += fines.overdue_fine(days)\n")],
        "decoys": [
            [("loans/accounts.py", T2_LINE,
              "        total += min(fines.days_late(loan, today) * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS)\n")],
            [("loans/accounts.py", T2_LINE,
              "        days = fines.days_late(loan, today)\n"
              "        chargeable = max(0, days - fines.GRACE_DAYS)\n"
              "        total += min(chargeable * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS)\n")],
            [("loans/accounts.py", T2_LINE,
              "        days = fines.days_late(loan, today)\n"
              "        if days <= fines.GRACE_DAYS:\n"
              "            continue\n"
              "        total += days * fines.DAILY_FINE_CENTS\n")],
        ],
    },
    {
        "n": 3, "family": "fine-grace", "branch": "feature/declare-lost",
        "created_at": "2024-04-09T14:00:00+00:00", "who": "sam",
        "base_msg": "Declare an item lost",
        "base": [("loans/lost.py", None, LOST)],
        "problem": (
            "Declaring an item lost records a wrong overdue charge\n\nWhen a patron declares an item lost, "
            "the overdue charge recorded next to the replacement cost is often one the patron would never "
            "have paid at the desk, and when the item is declared lost before its due date the charge is "
            "even negative."
        ),
        "tests": ("tests/test_lost.py", test_file('''
from datetime import date

from loans.circulation import checkout
from loans.ledger import Ledger
from loans.lost import declare_lost


def _declare(book, ada, today):
    ledger = Ledger()
    loan = checkout(book, ada, date(2024, 1, 3))
    return declare_lost(ledger, loan, today), loan


def test_lost_a_few_days_past_grace(book, ada):
    balance, loan = _declare(book, ada, date(2024, 1, 29))
    assert balance == 2500 + 125
    assert loan.returned == date(2024, 1, 29)


def test_lost_within_grace(book, ada):
    balance, _ = _declare(book, ada, date(2024, 1, 26))
    assert balance == 2500


def test_lost_before_due_date(book, ada):
    balance, _ = _declare(book, ada, date(2024, 1, 10))
    assert balance == 2500


def test_lost_long_overdue(book, ada):
    balance, _ = _declare(book, ada, date(2024, 3, 24))
    assert balance == 2500 + 1000
''')),
        "extra_tests": ["tests/test_fines.py::test_checkin_charges_days_late"],
        "gold": [("loans/lost.py", T3_LINES,
                  "    fine = fines.assess(loan, today)\n"
                  "    if fine:\n"
                  "        ledger.record(loan.patron.card, \"OVERDUE\", fine, loan.item.title)\n")],
        "decoys": [
            [("loans/lost.py", "    days = (today - loan.due).days\n", "    days = max(0, (today - loan.due).days)\n")],
            [("loans/lost.py", T3_LINES,
              "    days = fines.days_late(loan, today)\n"
              "    ledger.record(loan.patron.card, \"OVERDUE\", min(days * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS), loan.item.title)\n")],
            [("loans/lost.py", T3_LINES,
              "    days = max(0, fines.days_late(loan, today) - fines.GRACE_DAYS)\n"
              "    ledger.record(loan.patron.card, \"OVERDUE\", min(days * fines.DAILY_FINE_CENTS, fines.FINE_CAP_CENTS), loan.item.title)\n")],
        ],
    },
    # ---------------- fee-codes ----------------
    {
        "n": 4, "family": "fee-codes", "branch": "feature/unclaimed-hold-fee",
        "created_at": "2024-04-03T11:00:00+00:00", "who": "sam",
        "base_msg": "Holds: fee for holds never collected",
        "base": [("loans/holds.py", "", HOLDS_FEE)],
        "problem": (
            "Charging the no-show fee for an uncollected hold fails\n\nWhen staff charge the fee for a hold "
            "that was never picked up (charge_unclaimed in loans/holds.py), it fails with "
            "`loans.ledger.UnknownFeeCode: NOPICKUP`. Finance also needs to be able to import the new charge."
        ),
        "tests": ("tests/test_unclaimed_fee.py", test_file('''
from datetime import date

from loans import ledger
from loans.holds import HoldQueue, charge_unclaimed


def test_unclaimed_hold_is_charged():
    q = HoldQueue()
    q.place("B0001", "P100", date(2024, 4, 1))
    hold = q.set_aside("B0001", date(2024, 4, 2))
    book = ledger.Ledger()
    entry = charge_unclaimed(book, hold)
    assert entry.code == "NOPICKUP" and book.balance("P100") == 100


def test_fee_codes_published():
    text = ledger.CODES_FILE.read_text()
    assert ledger.FEE_CODES_VERSION == 5
    assert text.splitlines()[0] == "# fee codes v5"
    assert "\\nNOPICKUP\\t" in text
''')),
        "extra_tests": ["tests/test_ledger.py::test_codes_file_in_sync", "tests/test_ledger.py::test_unknown_code_refused",
                        "tests/test_holds.py::test_first_in_line_gets_item"],
        "code": ("NOPICKUP", "Hold not collected"),
        "gold": "PROCEDURE",
        "decoys": [
            [("loans/ledger.py", CODES_TAIL, CODES_TAIL + '    "NOPICKUP": "Hold not collected",\n')],
            [("loans/ledger.py", CODES_TAIL, CODES_TAIL + '    "NOPICKUP": "Hold not collected",\n'),
             ("loans/ledger.py", VERSION_LINE, "FEE_CODES_VERSION = 5\n")],
            "REGEN_NO_BUMP",
        ],
    },
    {
        "n": 5, "family": "fee-codes", "branch": "feature/print-jobs",
        "created_at": "2024-04-08T09:30:00+00:00", "who": "sam",
        "base_msg": "Charge for print jobs",
        "base": [("loans/printing.py", None, PRINTING)],
        "problem": (
            "Print jobs cannot be charged\n\nThe new public printers call charge_print_job "
            "(loans/printing.py), and every job fails with `loans.ledger.UnknownFeeCode: PRINT`. Finance "
            "must be able to import the printing charges too."
        ),
        "tests": ("tests/test_printing.py", test_file('''
from loans import ledger
from loans.printing import charge_print_job


def test_print_job_is_charged(ada):
    book = ledger.Ledger()
    charge_print_job(book, ada, 12)
    assert book.balance("P100") == 120


def test_fee_codes_published():
    text = ledger.CODES_FILE.read_text()
    assert ledger.FEE_CODES_VERSION == 5
    assert text.splitlines()[0] == "# fee codes v5"
    assert "\\nPRINT\\t" in text
''')),
        "extra_tests": ["tests/test_ledger.py::test_codes_file_in_sync", "tests/test_ledger.py::test_unknown_code_refused"],
        "code": ("PRINT", "Printing"),
        "gold": "PROCEDURE",
        "decoys": [
            [("loans/ledger.py", REGISTER_ANCHOR, REGISTER_ANCHOR + REGISTER_HELPER),
             ("loans/printing.py", '"""Public printers."""\n\n',
              '"""Public printers."""\nfrom .ledger import register_fee_code\n\n'
              'PRINT_CODE = "PRINT"\nregister_fee_code(PRINT_CODE, "Printing")\n'),
             ("loans/printing.py", 'ledger.record(patron.card, "PRINT",', 'ledger.record(patron.card, PRINT_CODE,')],
            "MANUAL_APPEND:PRINT_CODE",
            [("loans/ledger.py", VERSION_LINE, "FEE_CODES_VERSION = 5\n"),
             ("loans/printing.py", '"""Public printers."""\n\n',
              '"""Public printers."""\nfrom .ledger import FEE_CODES\n\n'
              'PRINT_CODE = "PRINT"\nFEE_CODES.setdefault(PRINT_CODE, "Printing")\n'),
             ("loans/printing.py", 'ledger.record(patron.card, "PRINT",', 'ledger.record(patron.card, PRINT_CODE,')],
        ],
    },
    {
        "n": 6, "family": "fee-codes", "branch": "feature/room-bookings",
        "created_at": "2024-04-12T15:00:00+00:00", "who": "sam",
        "base_msg": "Meeting room bookings are charged",
        "base": [("loans/rooms.py", None, ROOMS)],
        "problem": (
            "Room bookings cannot be charged\n\nBooking a meeting room (book_room in loans/rooms.py) fails with "
            "`loans.ledger.UnknownFeeCode: ROOM`. The charge must also reach finance's import."
        ),
        "tests": ("tests/test_rooms.py", test_file('''
import pytest

from loans import ledger
from loans.rooms import book_room


def test_room_booking_is_charged(ada):
    book = ledger.Ledger()
    book_room(book, ada, "Room B", 2)
    assert book.balance("P100") == 1000


def test_room_booking_length_checked(ada):
    with pytest.raises(ValueError):
        book_room(ledger.Ledger(), ada, "Room B", 6)


def test_fee_codes_published():
    text = ledger.CODES_FILE.read_text()
    assert ledger.FEE_CODES_VERSION == 5
    assert text.splitlines()[0] == "# fee codes v5"
    assert "\\nROOM\\t" in text
''')),
        "extra_tests": ["tests/test_ledger.py::test_codes_file_in_sync", "tests/test_ledger.py::test_balance_sums_entries"],
        "code": ("ROOM", "Meeting room booking"),
        "gold": "PROCEDURE",
        "decoys": [
            [("loans/ledger.py", CODES_TAIL, CODES_TAIL + '    "ROOM": "Meeting room booking",\n')],
            "MANUAL_APPEND:ROOM_CODE",
            [("loans/ledger.py", REGISTER_ANCHOR, REGISTER_ANCHOR + REGISTER_HELPER),
             ("loans/rooms.py", '"""Meeting room bookings."""\n\n',
              '"""Meeting room bookings."""\nfrom .ledger import register_fee_code\n\n'
              'ROOM_CODE = "ROOM"\nregister_fee_code(ROOM_CODE, "Meeting room booking")\n'),
             ("loans/rooms.py", 'ledger.record(patron.card, "ROOM",', 'ledger.record(patron.card, ROOM_CODE,')],
        ],
    },
    # ---------------- letter-dates ----------------
    {
        "n": 7, "family": "letter-dates", "branch": "feature/hold-ready-letter",
        "created_at": "2024-04-04T10:00:00+00:00", "who": "sam",
        "base_msg": "Letter: hold ready for pickup",
        "base": [("loans/notices/__init__.py", "", HOLD_READY)],
        "problem": (
            "Hold-ready letter doesn't say until when the item is kept\n\nThe letter from hold_ready() tells "
            "the patron the item is waiting but not until when. It should end with the line "
            "\"Please collect it by <date>.\" using the pickup_by date the caller passes in."
        ),
        "tests": ("tests/test_hold_ready.py", test_file('''
from datetime import date

from loans.notices import hold_ready


def test_hold_ready_gives_pickup_date(ada):
    text = hold_ready(ada, "Dune", date(2024, 3, 8))
    assert text.endswith("Please collect it by Friday 8 March 2024.\\n")
    assert text.startswith("Dear Ada Lovelace,")
''')),
        "extra_tests": ["tests/test_notices.py::test_due_reminder_uses_slip_date",
                        "tests/test_notices.py::test_overdue_reminder_mentions_days_late"],
        "gold": [("loans/notices/__init__.py", HOLD_READY_LAST,
                  HOLD_READY_LAST + "        f\"Please collect it by {fmt_date(pickup_by)}.\\n\"\n")],
        "decoys": [
            [("loans/notices/__init__.py", "    return (\n        f\"Dear {patron.name},\\n\"",
              "    deadline = pickup_by.strftime(\"%d %B %Y\")\n    return (\n        f\"Dear {patron.name},\\n\""),
             ("loans/notices/__init__.py", HOLD_READY_LAST,
              HOLD_READY_LAST + "        f\"Please collect it by {deadline}.\\n\"\n")],
            [("loans/notices/__init__.py", "    return (\n        f\"Dear {patron.name},\\n\"",
              "    deadline = pickup_by.strftime(\"%A, %B %d, %Y\")\n    return (\n        f\"Dear {patron.name},\\n\""),
             ("loans/notices/__init__.py", HOLD_READY_LAST,
              HOLD_READY_LAST + "        f\"Please collect it by {deadline}.\\n\"\n")],
            [("loans/notices/__init__.py", "    return (\n        f\"Dear {patron.name},\\n\"",
              "    deadline = pickup_by.isoformat()\n    return (\n        f\"Dear {patron.name},\\n\""),
             ("loans/notices/__init__.py", HOLD_READY_LAST,
              HOLD_READY_LAST + "        f\"Please collect it by {deadline}.\\n\"\n")],
        ],
    },
    {
        "n": 8, "family": "letter-dates", "branch": "feature/renewal-letter",
        "created_at": "2024-04-10T13:15:00+00:00", "who": "sam",
        "base_msg": "Letter: renewal confirmation",
        "base": [("loans/notices/__init__.py", "", RENEWAL_LETTER)],
        "problem": (
            "Renewal confirmation shows a confusing date\n\nThe renewal confirmation letter says e.g. "
            "\"Your new due date is 2024-04-03.\" Several patrons called because they could not read that "
            "date. Please fix the date in the letter."
        ),
        "tests": ("tests/test_renewal_letter.py", test_file('''
from datetime import date

from loans.circulation import checkout, renew
from loans.notices import renewal_confirmation


def test_renewal_letter_date(book, ada):
    loan = checkout(book, ada, date(2024, 3, 1))
    renew(loan, date(2024, 3, 20))
    assert "Your new due date is Friday 12 April 2024." in renewal_confirmation(loan)
''')),
        "extra_tests": ["tests/test_notices.py::test_due_reminder_uses_slip_date",
                        "tests/test_circulation.py::test_renewal_extends_from_due_date"],
        "gold": [("loans/notices/__init__.py",
                  "def renewal_confirmation(loan) -> str:\n    return (\n",
                  "def renewal_confirmation(loan) -> str:\n    new_due = fmt_date(loan.due)\n    return (\n"),
                 ("loans/notices/__init__.py", "Your new due date is {loan.due}.", "Your new due date is {new_due}.")],
        "decoys": [
            [("loans/notices/__init__.py", "Your new due date is {loan.due}.", "Your new due date is {loan.due:%d/%m/%Y}.")],
            [("loans/notices/__init__.py", "Your new due date is {loan.due}.", "Your new due date is {loan.due:%B %d, %Y}.")],
            [("loans/notices/__init__.py", "Your new due date is {loan.due}.", "Your new due date is {loan.due:%a %d %b %Y}.")],
        ],
    },
    {
        "n": 9, "family": "letter-dates", "branch": "feature/holds-export",
        "created_at": "2024-04-15T09:45:00+00:00", "who": "sam",
        "base_msg": "Export: holds CSV",
        "base": [("loans/export.py", "", HOLDS_EXPORT)],
        "problem": (
            "Holds export has empty date columns\n\nThe holds CSV (holds_csv in loans/export.py) has empty "
            "`placed` and `ready_on` columns on every row. They should carry the hold's dates (ready_on stays "
            "empty while the hold is still waiting)."
        ),
        "tests": ("tests/test_holds_export.py", test_file('''
from datetime import date

from loans.export import holds_csv
from loans.holds import HoldQueue


def test_holds_csv_dates():
    q = HoldQueue()
    q.place("B0001", "P100", date(2024, 3, 1))
    q.place("B0002", "P101", date(2024, 3, 2))
    ready = q.set_aside("B0001", date(2024, 3, 5))
    waiting = list(q._queues["B0002"])
    rows = holds_csv([ready] + waiting).splitlines()
    assert rows[0] == "barcode,card,placed,ready_on"
    assert rows[1] == "B0001,P100,2024-03-01,2024-03-05"
    assert rows[2] == "B0002,P101,2024-03-02,"
''')),
        "extra_tests": ["tests/test_export.py::test_returned_column_is_iso",
                        "tests/test_export.py::test_overdue_csv_lists_only_late_loans"],
        "gold": [("loans/export.py", HOLDS_ROW,
                  "        ready = hold.ready_on.isoformat() if hold.ready_on else \"\"\n"
                  "        writer.writerow([hold.barcode, hold.card, hold.placed.isoformat(), ready])\n")],
        "decoys": [
            [("loans/export.py", "from . import fines\n", "from . import fines\nfrom .notices.format import fmt_date\n"),
             ("loans/export.py", HOLDS_ROW,
              "        ready = fmt_date(hold.ready_on) if hold.ready_on else \"\"\n"
              "        writer.writerow([hold.barcode, hold.card, fmt_date(hold.placed), ready])\n")],
            [("loans/export.py", HOLDS_ROW,
              "        writer.writerow([hold.barcode, hold.card, hold.placed.strftime(\"%d/%m/%Y\"), "
              "hold.ready_on.strftime(\"%d/%m/%Y\") if hold.ready_on else \"\"])\n")],
            [("loans/export.py", "\n\ndef holds_csv(holds) -> str:\n",
              "\n\ndef _day(value) -> str:\n    return value.strftime(\"%d %b %Y\") if value else \"\"\n\n\n"
              "def holds_csv(holds) -> str:\n"),
             ("loans/export.py", HOLDS_ROW,
              "        writer.writerow([hold.barcode, hold.card, _day(hold.placed), _day(hold.ready_on)])\n")],
        ],
    },
    # ---------------- renewal-dates ----------------
    {
        "n": 10, "family": "renewal-dates", "branch": "feature/auto-renew",
        "created_at": "2024-04-03T16:00:00+00:00", "who": "sam",
        "base_msg": "Nightly auto-renewal job",
        "base": [("loans/jobs.py", None, JOBS)],
        "problem": (
            "Auto-renewal sets due dates on closed days\n\nPatrons complain about the due dates the nightly "
            "auto-renewal (auto_renew in loans/jobs.py) gives them: some land on days the library is closed "
            "- one patron got Christmas Day."
        ),
        "tests": ("tests/test_jobs.py", test_file('''
from datetime import date

from loans.circulation import checkout
from loans.holds import HoldQueue
from loans.jobs import auto_renew


def test_auto_renew_skips_closure(book, ada):
    loan = checkout(book, ada, date(2024, 11, 13))
    assert loan.due == date(2024, 12, 4)
    assert auto_renew([loan], date(2024, 12, 4), HoldQueue()) == [loan]
    assert loan.due == date(2024, 12, 26)


def test_auto_renew_evening_before(book, ada):
    loan = checkout(book, ada, date(2024, 2, 21))
    assert loan.due == date(2024, 3, 13)
    auto_renew([loan], date(2024, 3, 12), HoldQueue())
    assert loan.due == date(2024, 4, 3) and loan.renewals == 1


def test_auto_renew_leaves_held_items(book, ada):
    loan = checkout(book, ada, date(2024, 2, 21))
    holds = HoldQueue()
    holds.place("B0001", "P200", date(2024, 3, 1))
    assert auto_renew([loan], date(2024, 3, 12), holds) == []
    assert loan.due == date(2024, 3, 13)
''')),
        "extra_tests": ["tests/test_circulation.py::test_renewal_extends_from_due_date",
                        "tests/test_circulation.py::test_due_date_skips_closures"],
        "gold": [("loans/jobs.py", CFG_IMPORT, CFG_IMPORT + "from .circulation import renew\n"),
                 ("loans/jobs.py", JOBS_DUE + "        loan.renewals += 1\n", "        renew(loan, today)\n")],
        "decoys": [
            [("loans/jobs.py", CFG_IMPORT, CFG_IMPORT + "from .circulation import due_date\n"),
             ("loans/jobs.py", JOBS_DUE, "        loan.due = due_date(loan.item.kind, today)\n")],
            [("loans/jobs.py", JOBS_DUE, "        loan.due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n")],
            [("loans/jobs.py", CFG_IMPORT, CFG_IMPORT + "from .hours import next_open_day\n"),
             ("loans/jobs.py", JOBS_DUE,
              "        loan.due = next_open_day(today + timedelta(days=LOAN_DAYS[loan.item.kind]))\n")],
        ],
    },
    {
        "n": 11, "family": "renewal-dates", "branch": "feature/kiosk-renew",
        "created_at": "2024-04-11T10:20:00+00:00", "who": "sam",
        "base_msg": "Self-service kiosk renewals",
        "base": [("loans/kiosk.py", None, KIOSK)],
        "problem": (
            "Kiosk renewals give due dates when we are closed\n\nRenewing at the self-service kiosk "
            "(renew_by_barcode in loans/kiosk.py) sometimes gives a due date on a Sunday or a holiday, when "
            "the library is closed."
        ),
        "tests": ("tests/test_kiosk.py", test_file('''
from datetime import date

import pytest

from loans.circulation import checkout
from loans.kiosk import KioskError, renew_by_barcode


def test_kiosk_renewal_skips_closure(book, ada):
    loan = checkout(book, ada, date(2024, 11, 13))
    assert renew_by_barcode([loan], "B0001", date(2024, 12, 1)) == date(2024, 12, 26)


def test_kiosk_renewal_early(book, ada):
    loan = checkout(book, ada, date(2024, 2, 21))
    assert renew_by_barcode([loan], "B0001", date(2024, 3, 10)) == date(2024, 4, 3)


def test_kiosk_renewal_limit(book, ada):
    loan = checkout(book, ada, date(2024, 2, 21))
    loan.renewals = 2
    with pytest.raises(KioskError):
        renew_by_barcode([loan], "B0001", date(2024, 3, 10))
''')),
        "extra_tests": ["tests/test_circulation.py::test_renewal_extends_from_due_date"],
        "gold": [("loans/kiosk.py", CFG_IMPORT, CFG_IMPORT + "from .hours import next_open_day\n"),
                 ("loans/kiosk.py", KIOSK_DUE,
                  "            loan.due = next_open_day(loan.due + timedelta(days=LOAN_DAYS[loan.item.kind]))\n")],
        "decoys": [
            [("loans/kiosk.py", CFG_IMPORT, CFG_IMPORT + "from .hours import next_open_day\n"),
             ("loans/kiosk.py", KIOSK_DUE,
              "            period = timedelta(days=LOAN_DAYS[loan.item.kind])\n"
              "            loan.due = next_open_day(today + period)\n")],
            [("loans/kiosk.py", KIOSK_DUE,
              "            new_due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
              "            while new_due.weekday() == 6:\n"
              "                new_due += timedelta(days=1)\n"
              "            loan.due = new_due\n")],
            [("loans/kiosk.py", CFG_IMPORT, "from .config import CLOSED_WEEKDAYS, LOAN_DAYS, MAX_RENEWALS\n"),
             ("loans/kiosk.py", KIOSK_DUE,
              "            new_due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
              "            while new_due.weekday() in CLOSED_WEEKDAYS:\n"
              "                new_due += timedelta(days=1)\n"
              "            loan.due = new_due\n")],
        ],
    },
    {
        "n": 12, "family": "renewal-dates", "branch": "feature/renew-all",
        "created_at": "2024-04-16T11:40:00+00:00", "who": "sam",
        "base_msg": "Website: renew all",
        "base": [("loans/account.py", None, ACCOUNT)],
        "problem": (
            "\"Renew all\" gives wrong due dates\n\nPatrons using \"Renew all\" on the website (renew_all in "
            "loans/account.py) get due dates that are earlier than they expect, and sometimes on days the "
            "library is closed."
        ),
        "tests": ("tests/test_account.py", test_file('''
from datetime import date

from loans.account import renew_all
from loans.circulation import checkout
from loans.models import Item


def test_renew_all_dates(book, ada):
    early = checkout(book, ada, date(2024, 2, 21))
    holiday = checkout(Item("B0002", "Emma"), ada, date(2024, 11, 13))
    assert renew_all([early], date(2024, 3, 10)) == ["B0001"]
    assert early.due == date(2024, 4, 3)
    renew_all([holiday], date(2024, 12, 2))
    assert holiday.due == date(2024, 12, 26)


def test_renew_all_respects_limit(book, ada):
    loan = checkout(book, ada, date(2024, 2, 21))
    loan.renewals = 2
    assert renew_all([loan], date(2024, 3, 10)) == []
    assert loan.due == date(2024, 3, 13)
''')),
        "extra_tests": ["tests/test_circulation.py::test_renewal_extends_from_due_date",
                        "tests/test_circulation.py::test_due_date_skips_closures"],
        "gold": [("loans/account.py", CFG_IMPORT, CFG_IMPORT + "from .hours import next_open_day\n"),
                 ("loans/account.py", ACCOUNT_DUE,
                  "        loan.due = next_open_day(loan.due + timedelta(days=LOAN_DAYS[loan.item.kind]))\n")],
        "decoys": [
            [("loans/account.py", ACCOUNT_DUE, "        loan.due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n")],
            [("loans/account.py", ACCOUNT_DUE,
              "        new_due = loan.due + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
              "        if new_due.weekday() == 6:\n"
              "            new_due += timedelta(days=1)\n"
              "        loan.due = new_due\n")],
            [("loans/account.py", CFG_IMPORT, CFG_IMPORT + "from .hours import is_open\n"),
             ("loans/account.py", ACCOUNT_DUE,
              "        new_due = today + timedelta(days=LOAN_DAYS[loan.item.kind])\n"
              "        while not is_open(new_due):\n"
              "            new_due += timedelta(days=1)\n"
              "        loan.due = new_due\n")],
        ],
    },
]


# --------------------------------------------------------------------------------------------
# facts and oracle memories
# --------------------------------------------------------------------------------------------
def facts_and_memories(marks, rows):
    ended = {r["instance_id"]: r["ended_at"] for r in rows}
    facts = [
        {
            "family": "fine-grace",
            "fact": (
                "Overdue fines go through overdue_fine()/assess() in loans/fines.py. Since the board decision "
                "of March 2024 the grace period is all-or-nothing: no fine when an item is at most GRACE_DAYS "
                "(3) days late; past that, every day from the due date is charged (DAILY_FINE_CENTS = 25 per "
                "day), capped at FINE_CAP_CENTS (1000). Before that change the first GRACE_DAYS days were "
                "subtracted from every late return. Any other place that shows or charges a fine must use "
                "overdue_fine/assess rather than its own arithmetic."
            ),
            "identifiers": ["overdue_fine", "assess", "GRACE_DAYS", "DAILY_FINE_CENTS", "FINE_CAP_CENTS",
                            "loans/fines.py"],
            "kind": "rule_change",
            "sessions": ["s02_grace_period", "s09_grace_policy_change"],
            "superseded": {
                "old": "fine = max(0, days_late - GRACE_DAYS) * DAILY_FINE_CENTS, capped: the grace days are "
                       "subtracted from every late return",
                "new": "no fine while days_late <= GRACE_DAYS; past it fine = days_late * DAILY_FINE_CENTS "
                       "(counted from the due date), capped at FINE_CAP_CENTS",
                "commit": marks["rule_change"],
            },
        },
        {
            "family": "letter-dates",
            "fact": (
                "Dates shown to patrons in letters under loans/notices/ are formatted with fmt_date() from "
                "loans/notices/format.py (weekday, day without leading zero, month name, year: 'Friday 8 March "
                "2024'), as QA required for the printed-slip style. This does not hold for the finance CSV "
                "exports in loans/export.py: the finance import parses ISO 8601, so every date column there "
                "uses date.isoformat() and must not use fmt_date."
            ),
            "identifiers": ["fmt_date", "loans/notices/format.py", "loans/export.py", "isoformat"],
            "kind": "module_only",
            "sessions": ["s05_letter_dates", "s08_export_iso"],
            "module": "loans/notices/",
        },
        {
            "family": "fee-codes",
            "fact": (
                "Adding a fee code takes three steps: add it to FEE_CODES in loans/ledger.py, bump "
                "FEE_CODES_VERSION by one (finance's import skips a version it has already seen), and "
                "regenerate data/fee_codes.tsv with `python -m loans.ledger --dump-codes` (sorted, with the "
                "version header); test_codes_file_in_sync fails when the file is stale."
            ),
            "identifiers": ["FEE_CODES", "FEE_CODES_VERSION", "data/fee_codes.tsv",
                            "python -m loans.ledger --dump-codes", "loans/ledger.py"],
            "kind": "procedure",
            "sessions": ["s04_damage_fee", "s07_ill_fee", "s10_card_fee"],
        },
        {
            "family": "renewal-dates",
            "fact": (
                "A renewal extends from the loan's current due date (loan.due + LOAN_DAYS[kind]), never from "
                "today, as circulation.renew() does after review on PR #14; and every computed due date must "
                "go through next_open_day() (loans/hours.py, formerly loans/calendar.py), which skips Sundays "
                "and the holiday dates in CLOSURES. Both pieces are needed for any new renewal path."
            ),
            "identifiers": ["next_open_day", "loans/hours.py", "CLOSURES", "loan.due", "renew",
                            "LOAN_DAYS"],
            "kind": "linked",
            "sessions": ["s03_closure_due_dates", "s06_renew_from_due"],
        },
    ]
    R = {"repo": REPO_ID}
    mems = {
        "fine-grace": [{
            "type": "domain", "scope": dict(R),
            "summary": (
                "Fines in acme-lib/library-loans: compute them with overdue_fine(days) or assess(loan, day) in "
                "loans/fines.py. Current rule (commit %s, board decision 2024-03): zero while days late <= "
                "GRACE_DAYS (3); beyond that every day since the due date counts at DAILY_FINE_CENTS (25), "
                "capped at FINE_CAP_CENTS (1000). The older rule that subtracted GRACE_DAYS from every late "
                "return is superseded." % marks["rule_change"][:7]
            ),
            "conditions": "showing, projecting or charging an overdue fine anywhere in the code",
            "citations": [{"kind": "session", "ref": "s02_grace_period"},
                          {"kind": "session", "ref": "s09_grace_policy_change"},
                          {"kind": "file", "ref": "loans/fines.py", "path": "loans/fines.py"}],
            "created_at": ended["s09_grace_policy_change"],
        }],
        "letter-dates": [
            {
                "type": "domain", "scope": dict(R, module="loans/notices/"),
                "summary": (
                    "Patron letters in loans/notices/ format every date with fmt_date() from "
                    "loans/notices/format.py ('Friday 8 March 2024': weekday, day without leading zero, month "
                    "name, year), per QA defect LL-31; never isoformat() or another strftime pattern there."
                ),
                "conditions": "adding or changing a date in a patron-facing letter or e-mail",
                "citations": [{"kind": "session", "ref": "s05_letter_dates"},
                              {"kind": "file", "ref": "loans/notices/format.py", "path": "loans/notices/format.py"}],
                "created_at": ended["s05_letter_dates"],
            },
            {
                "type": "domain", "scope": dict(R, module="loans/export.py"),
                "summary": (
                    "Finance CSV exports in loans/export.py keep dates in ISO 8601 via date.isoformat(); the "
                    "finance import parses them. fmt_date (the letters' format) must not be used there (review "
                    "on PR #23)."
                ),
                "conditions": "adding or changing a date column in a CSV export",
                "citations": [{"kind": "session", "ref": "s08_export_iso"},
                              {"kind": "file", "ref": "loans/export.py", "path": "loans/export.py"}],
                "created_at": ended["s08_export_iso"],
            },
        ],
        "fee-codes": [{
            "type": "procedural", "scope": dict(R),
            "summary": (
                "To add a fee code: add it to FEE_CODES in loans/ledger.py, increase FEE_CODES_VERSION by one "
                "(finance's import ignores a version it has seen), then run `python -m loans.ledger "
                "--dump-codes` to regenerate data/fee_codes.tsv; test_codes_file_in_sync checks the file."
            ),
            "conditions": "any new charge type recorded in the ledger (a ledger.record call with a new code)",
            "citations": [{"kind": "session", "ref": "s04_damage_fee"},
                          {"kind": "session", "ref": "s07_ill_fee"},
                          {"kind": "session", "ref": "s10_card_fee"},
                          {"kind": "file", "ref": "loans/ledger.py", "path": "loans/ledger.py"},
                          {"kind": "file", "ref": "data/fee_codes.tsv", "path": "data/fee_codes.tsv"}],
            "created_at": ended["s10_card_fee"],
        }],
        "renewal-dates": [
            {
                "type": "domain", "scope": dict(R),
                "summary": (
                    "Every due date must land on an open day: pass it through next_open_day() in "
                    "loans/hours.py (named loans/calendar.py until March 2024), which skips Sundays and the "
                    "holidays in CLOSURES; a plain weekday check misses the holidays."
                ),
                "conditions": "computing any due date (checkout, renewal, batch or self-service renewal)",
                "citations": [{"kind": "session", "ref": "s03_closure_due_dates"},
                              {"kind": "file", "ref": "loans/hours.py", "path": "loans/hours.py"}],
                "created_at": ended["s03_closure_due_dates"],
                "links": ["renewals extend from loan.due"],
            },
            {
                "type": "domain", "scope": dict(R),
                "summary": (
                    "A renewal extends from the loan's current due date, loan.due + LOAN_DAYS[kind], never from "
                    "today (review on PR #14); circulation.renew() is the reference implementation."
                ),
                "conditions": "renewing a loan from any entry point",
                "citations": [{"kind": "session", "ref": "s06_renew_from_due"},
                              {"kind": "file", "ref": "loans/circulation.py", "path": "loans/circulation.py"}],
                "created_at": ended["s06_renew_from_due"],
                "links": ["due dates go through next_open_day"],
            },
        ],
    }
    return facts, mems


# --------------------------------------------------------------------------------------------
# building
# --------------------------------------------------------------------------------------------
def apply_edits(repo: Path, edits):
    for path, old, new in edits:
        p = repo / path
        if old is None:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(new)
            continue
        text = p.read_text() if p.exists() else ""
        if old == "":
            p.write_text(text + new)
            continue
        assert text.count(old) == 1, (path, old)
        p.write_text(text.replace(old, new))


def expand(task, spec, repo, run):
    """Turn a symbolic candidate into edits, given the checkout at the base."""
    code, desc = task.get("code", (None, None))
    ledger_file = "loans/ledger.py"
    tsv = (repo / "data/fee_codes.tsv").read_text()
    if spec == "PROCEDURE":
        return [(ledger_file, CODES_TAIL, CODES_TAIL + f'    "{code}": "{desc}",\n'),
                (ledger_file, VERSION_LINE, "FEE_CODES_VERSION = 5\n"),
                ("data/fee_codes.tsv", tsv, tsv_sorted(tsv, code, desc, 5))]
    if spec == "REGEN_NO_BUMP":
        return [(ledger_file, CODES_TAIL, CODES_TAIL + f'    "{code}": "{desc}",\n'),
                ("data/fee_codes.tsv", tsv, tsv_sorted(tsv, code, desc, 4))]
    if isinstance(spec, str) and spec.startswith("MANUAL_APPEND:"):
        const = spec.split(":")[1]
        module = {"PRINT": "loans/printing.py", "ROOM": "loans/rooms.py"}[code]
        first = (repo / module).read_text().split("\n\n")[0] + "\n\n"
        return [(ledger_file, CODES_TAIL, CODES_TAIL + f'    "{code}": "{desc}",\n'),
                (ledger_file, VERSION_LINE, "FEE_CODES_VERSION = 5\n"),
                ("data/fee_codes.tsv", tsv, tsv + f"{code}\t{desc}\n"),
                (module, first, first + f'{const} = "{code}"\n'),
                (module, f'ledger.record(patron.card, "{code}",', f"ledger.record(patron.card, {const},")]
    return spec


def diff_of(repo: Path, run, edits) -> str:
    apply_edits(repo, edits)
    run(["git", "add", "-A"], cwd=repo)
    out = run(["git", "diff", "--cached"], cwd=repo).stdout
    run(["git", "reset", "-q", "--hard"], cwd=repo)
    run(["git", "clean", "-qfdx"], cwd=repo)
    return out


def changed_code_lines(patch: str) -> int:
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")) or not line[:1] in "+-" or not line:
            continue
        body = line[1:].strip()
        if not body or body.startswith("#"):
            continue
        n += 1
    return n


DESCRIBE = {}


def describe(patch: str) -> str:
    files = re.findall(r"^diff --git a/(\S+) ", patch, re.M)
    n = changed_code_lines(patch)
    return f"Changes {', '.join(files)} ({n} changed code line{'s' if n != 1 else ''})."


def run_tests(repo: Path, ids, py_bin: str, run):
    import os
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PATH=py_bin + os.pathsep + os.environ["PATH"])
    out = run(["python", "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *ids], cwd=repo, env=env, check=False)
    status = {}
    for line in out.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m:
            status[m.group(2)] = m.group(1) == "PASSED"
    return {i: status.get(i, False) for i in ids}


def build_tasks(repo: Path, marks, rows, corpus: Path, git_env, run):
    import os
    py_bin = os.environ.get("LL_PY_BIN", "/tmp/blind-b/venv/bin")
    facts, mems = facts_and_memories(marks, rows)
    (corpus / "facts.jsonl").write_text("".join(json.dumps(f) + "\n" for f in facts))
    (corpus / "memories" / "oracle.jsonl").write_text(
        "".join(json.dumps(m) + "\n" for f in facts for m in mems[f["family"]]))
    ended = {r["instance_id"]: r["ended_at"] for r in rows}
    fam_sessions = {f["family"]: f["sessions"] for f in facts}
    positions = {}
    out_rows = []
    for task in sorted(TASKS, key=lambda t: t["created_at"]):
        fam = task["family"]
        assert all(task["created_at"] > ended[s] for s in fam_sessions[fam])
        positions[fam] = positions.get(fam, 0) + 1
        run(["git", "checkout", "-q", "-B", task["branch"], marks["main_tip"]], cwd=repo)
        apply_edits(repo, task["base"])
        run(["git", "add", "-A"], cwd=repo)
        from datetime import datetime, timedelta
        base_at = (datetime.fromisoformat(task["created_at"]) - timedelta(hours=2)).isoformat()
        run(["git", "commit", "-q", "-m", task["base_msg"]], cwd=repo, env=git_env(base_at, task["who"]))
        base = run(["git", "rev-parse", "HEAD"], cwd=repo).stdout.strip()
        tpath, tbody = task["tests"]
        test_patch = diff_of(repo, run, [(tpath, None, tbody)])
        gold = diff_of(repo, run, expand(task, task["gold"], repo, run))
        decoys = [diff_of(repo, run, expand(task, d, repo, run)) for d in task["decoys"]]
        new_ids = re.findall(r"^def (test_\w+)", tbody, re.M)
        ids = [f"{tpath}::{t}" for t in new_ids] + task["extra_tests"]
        # measure: base + tests, gold + tests
        apply_edits(repo, [(tpath, None, tbody)])
        at_base = run_tests(repo, ids, py_bin, run)
        run(["git", "clean", "-qfdx"], cwd=repo)
        run(["git", "apply", "-"], cwd=repo, input_text=gold)
        apply_edits(repo, [(tpath, None, tbody)])
        with_gold = run_tests(repo, ids, py_bin, run)
        run(["git", "reset", "-q", "--hard"], cwd=repo)
        run(["git", "clean", "-qfdx"], cwd=repo)
        f2p = [i for i in ids if not at_base[i] and with_gold[i]]
        p2p = [i for i in ids if at_base[i] and with_gold[i]]
        bad = [i for i in ids if not with_gold[i]]
        assert not bad, (task["n"], bad)
        assert f2p, task["n"]
        iid = f"{OWNER}__{NAME}-{task['n']}"
        cands = [{"id": f"c{task['n']}-g", "patch": gold}] + [
            {"id": f"c{task['n']}-{k}", "patch": d} for k, d in enumerate(decoys, 1)]
        # candidate ids are arbitrary; order them by a stable hash so the gold is not always first
        cands.sort(key=lambda c: hash_str(c["patch"]))
        for c in cands:
            c["description"] = describe(c["patch"])
        out_rows.append({
            "instance_id": iid, "repo": REPO_ID, "base_commit": base, "created_at": task["created_at"],
            "problem_statement": task["problem"], "patch": gold, "test_patch": test_patch,
            "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": f"repos/{OWNER}__{NAME}.bundle"},
            "family": fam, "position": positions[fam],
            "candidates": [{"id": c["id"], "patch": c["patch"], "description": c["description"]} for c in cands],
            "test_command": "{python} -m pytest -q -p no:cacheprovider {tests}",
            "oracle_memories": mems[fam],
        })
    out_rows.sort(key=lambda r: int(r["instance_id"].rsplit("-", 1)[1]))
    (corpus / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in out_rows))


def hash_str(s: str) -> str:
    import hashlib
    return hashlib.sha256(s.encode()).hexdigest()
