"""Facts, oracle memories and evaluation tasks (gold and decoys), and how they are built."""
import json
from pathlib import Path

from common import apply, checkout, cleanup, code_lines, run_tests, sh

REPO = "acme-hr/payroll-service"
BUNDLE = "repos/acme-hr__payroll-service.bundle"

# --------------------------------------------------------------------------------- facts

FACTS = [
    dict(family="money-rounding", kind="rule_change",
         fact="Every amount of money is rounded to cents through payroll.money.to_cents (Decimal, never "
              "float round()), and to_cents rounds a half cent UP (ROUND_HALF_UP) to match the bank "
              "statement. Until FIN-212 it rounded half to even (ROUND_HALF_EVEN).",
         identifiers=["to_cents", "ROUND_HALF_UP", "payroll/money.py"],
         sessions=["oh-2026-03-03-overtime-pay", "oh-2026-03-16-fin-212-rounding"],
         superseded_old="to_cents rounds half a cent to even (ROUND_HALF_EVEN)",
         superseded_new="to_cents rounds half a cent up (ROUND_HALF_UP)",
         superseded_session="oh-2026-03-16-fin-212-rounding"),
    dict(family="duration-units", kind="module_only", module="payroll/timesheet/",
         fact="In payroll/timesheet, TimeEntry.duration is whole minutes as exported by the clock-in "
              "terminals (480 = 8 hours), so hours are duration / 60. In payroll/reports, "
              "ReportRow.duration from the warehouse extract is already decimal hours and must not be "
              "divided.",
         identifiers=["TimeEntry.duration", "ReportRow.duration", "payroll/timesheet/entries.py",
                      "payroll/reports/hours.py"],
         sessions=["oh-2026-03-05-daily-hours", "oh-2026-03-18-report-employee-totals"]),
    dict(family="new-pay-type", kind="procedure",
         fact="Adding a pay type takes three registrations: PAY_TYPES in payroll/paytypes.py, its GL "
              "account in GL_ACCOUNTS in payroll/export/ledger.py (formerly payroll/export/gl.py), and its "
              "taxability in TAXABLE in payroll/tax.py; a missing one raises KeyError in the journal or in "
              "taxable_gross.",
         identifiers=["PAY_TYPES", "GL_ACCOUNTS", "TAXABLE", "payroll/paytypes.py",
                      "payroll/export/ledger.py", "payroll/tax.py"],
         sessions=["oh-2026-03-09-bonus-pay-type", "oh-2026-03-20-tips-pay-type",
                   "oh-2026-03-27-commission-pay-type"]),
    dict(family="bank-batch", kind="linked",
         fact="Any file sent to the bank must (a) list its detail lines in payroll.export.bank.sort_key "
              "order, routing number then employee id (PAY-311: the bank rejects other orders), and (b) "
              "write every amount with payroll.export.bank.format_amount, integer cents zero-padded to 10 "
              "digits (bank fixed-width spec, from review). Both are needed for a new bank file.",
         identifiers=["sort_key", "format_amount", "payroll/export/bank.py"],
         sessions=["oh-2026-03-11-bank-batch-order", "oh-2026-03-25-bank-amount-format"]),
]


def memories(sessions_by_id):
    """memories/oracle.jsonl rows per family, in facts order."""
    def ended(*ids):
        return max(sessions_by_id[i]["ended_at"] for i in ids)

    def cites(ids, files):
        return ([{"kind": "session", "ref": i} for i in ids] +
                [{"kind": "file", "ref": f, "path": f} for f in files])

    R = {"repo": REPO}
    return {
        "money-rounding": [dict(
            type="domain", scope=R,
            summary="Round money to cents only through payroll.money.to_cents (payroll/money.py), on Decimal "
                    "values, never float round() or a bare quantize: since FIN-212 to_cents rounds a half cent "
                    "up (ROUND_HALF_UP), as the bank statement does; before, it rounded half to even.",
            conditions=["computing any pay, deduction or amount that ends up on a register, stub or bank file"],
            citations=cites(FACTS[0]["sessions"], ["payroll/money.py"]),
            created_at=ended(*FACTS[0]["sessions"]))],
        "duration-units": [
            dict(type="domain", scope=dict(R, module="payroll/timesheet/"),
                 summary="In payroll/timesheet, TimeEntry.duration (payroll/timesheet/entries.py) is whole minutes "
                         "from the clock-in terminals (480 = 8 hours): convert with duration / 60 before comparing "
                         "or summing hours.",
                 conditions=["code in payroll/timesheet/ that works with hours"],
                 citations=cites(["oh-2026-03-05-daily-hours"], ["payroll/timesheet/entries.py"]),
                 created_at=ended("oh-2026-03-05-daily-hours")),
            dict(type="domain", scope=dict(R, module="payroll/reports/"),
                 summary="In payroll/reports, ReportRow.duration (payroll/reports/hours.py) from the warehouse "
                         "extract is already decimal hours (7.5, 8, 6.25); do not divide it by 60 as the timesheet "
                         "code does.",
                 conditions=["code in payroll/reports/ that works with hours"],
                 citations=cites(["oh-2026-03-18-report-employee-totals"], ["payroll/reports/hours.py"]),
                 created_at=ended("oh-2026-03-18-report-employee-totals")),
        ],
        "new-pay-type": [dict(
            type="procedural", scope=R,
            summary="To add a pay type, register it in three places: PAY_TYPES in payroll/paytypes.py, "
                    "GL_ACCOUNTS in payroll/export/ledger.py (the file was payroll/export/gl.py before the "
                    "rename) and TAXABLE in payroll/tax.py. Missing GL_ACCOUNTS or TAXABLE raises KeyError in "
                    "journal() or taxable_gross().",
            conditions=["adding or enabling a new pay type / earning code"],
            citations=cites(FACTS[2]["sessions"], ["payroll/paytypes.py", "payroll/export/ledger.py", "payroll/tax.py"]),
            created_at=ended(*FACTS[2]["sessions"]))],
        "bank-batch": [
            dict(type="failure", scope=R,
                 summary="The bank rejects batch files whose detail lines are not in payroll.export.bank.sort_key "
                         "order (routing number, then employee id) with BATCH OUT OF SEQUENCE (PAY-311); every "
                         "file sent to the bank must sort its lines with sort_key.",
                 conditions=["writing or changing any file sent to the bank"],
                 citations=cites(["oh-2026-03-11-bank-batch-order"], ["payroll/export/bank.py"]),
                 created_at=ended("oh-2026-03-11-bank-batch-order"),
                 links=["amounts in bank files: payroll.export.bank.format_amount"]),
            dict(type="domain", scope=R,
                 summary="Amounts sent to the bank are integer cents zero-padded to 10 digits, no decimal point "
                         "(10.50 -> 0000001050): write them with payroll.export.bank.format_amount.",
                 conditions=["writing or changing any file sent to the bank"],
                 citations=cites(["oh-2026-03-25-bank-amount-format"], ["payroll/export/bank.py"]),
                 created_at=ended("oh-2026-03-25-bank-amount-format"),
                 links=["order of bank detail lines: payroll.export.bank.sort_key"]),
        ],
    }


# --------------------------------------------------------------------------------- tasks
# A change is ("replace", path, old, new) or ("create", path, text).

EARN_TAIL = "    return to_cents(Decimal(str(hours)) * Decimal(str(rate)) * OVERTIME_MULTIPLIER)\n"

T = []

# ---- money-rounding ------------------------------------------------------------------------
T.append(dict(
    family="money-rounding", created_at="2026-04-06T10:14:00+00:00",
    branch=("feature/night-differential", "Add night shift differential",
            [("replace", "payroll/earnings.py", EARN_TAIL, EARN_TAIL +
              "\n\nNIGHT_PREMIUM = Decimal(\"1.25\")\n\n\ndef night_differential(hours):\n"
              "    \"\"\"Premium paid on top of the base rate for night hours.\"\"\"\n"
              "    return Decimal(str(hours)) * NIGHT_PREMIUM\n")]),
    problem="Pay stubs show the night-shift differential with three decimals for some employees (2.5 night "
            "hours come out as 3.125), and finance says those lines don't reconcile with the bank statement. "
            "`night_differential()` in payroll/earnings.py should return an amount in whole cents.",
    tests=("tests/test_night_differential.py",
           "from decimal import Decimal\n\nfrom payroll.earnings import night_differential\n\n\n"
           "def test_whole_hours():\n    assert night_differential(8) == Decimal(\"10.00\")\n\n\n"
           "def test_half_cent_amount():\n    assert night_differential(\"2.5\") == Decimal(\"3.13\")\n\n\n"
           "def test_two_decimal_places():\n    assert str(night_differential(\"7.5\")) == \"9.38\"\n"),
    gold=[("replace", "payroll/earnings.py", "    return Decimal(str(hours)) * NIGHT_PREMIUM\n",
           "    return to_cents(Decimal(str(hours)) * NIGHT_PREMIUM)\n")],
    decoys=[
        [("replace", "payroll/earnings.py", "    return Decimal(str(hours)) * NIGHT_PREMIUM\n",
          "    premium = Decimal(str(hours)) * NIGHT_PREMIUM\n    return round(premium, 2)\n")],
        [("replace", "payroll/earnings.py", "from decimal import Decimal\n", "from decimal import ROUND_HALF_EVEN, Decimal\n"),
         ("replace", "payroll/earnings.py", "    return Decimal(str(hours)) * NIGHT_PREMIUM\n",
          "    premium = Decimal(str(hours)) * NIGHT_PREMIUM\n"
          "    return premium.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)\n")],
        [("replace", "payroll/earnings.py", "    return Decimal(str(hours)) * NIGHT_PREMIUM\n",
          "    cents = int(float(hours) * float(NIGHT_PREMIUM) * 100)\n    return Decimal(cents) / 100\n")],
    ]))

DED_BASE = ("\"\"\"Employee deductions taken from gross pay.\"\"\"\nfrom decimal import Decimal\n\n\n"
            "def pension_deduction(gross, percent):\n"
            "    \"\"\"Employee pension contribution, a percentage of gross pay.\"\"\"\n"
            "    return Decimal(str(gross)) * Decimal(str(percent)) / 100\n")
DED_RET = "    return Decimal(str(gross)) * Decimal(str(percent)) / 100\n"
T.append(dict(
    family="money-rounding", created_at="2026-04-13T09:41:00+00:00",
    branch=("feature/pension-deduction", "Add pension deduction", [("create", "payroll/deductions.py", DED_BASE)]),
    problem="Pension deductions on the payroll register show four decimal places (41.2250 on an 824.50 gross "
            "at 5%), and the totals are a cent off the bank statement for some employees. "
            "`pension_deduction()` in payroll/deductions.py should give whole cents.",
    tests=("tests/test_deductions.py",
           "from decimal import Decimal\n\nfrom payroll.deductions import pension_deduction\n\n\n"
           "def test_round_percentage():\n    assert pension_deduction(\"1000\", \"4\") == Decimal(\"40.00\")\n\n\n"
           "def test_half_cent_deduction():\n    assert pension_deduction(\"824.50\", \"5\") == Decimal(\"41.23\")\n\n\n"
           "def test_two_decimal_places():\n    assert str(pension_deduction(\"333.33\", \"3\")) == \"10.00\"\n"),
    gold=[("replace", "payroll/deductions.py", "from decimal import Decimal\n",
           "from decimal import Decimal\n\nfrom payroll.money import to_cents\n"),
          ("replace", "payroll/deductions.py", DED_RET,
           "    return to_cents(Decimal(str(gross)) * Decimal(str(percent)) / 100)\n")],
    decoys=[
        [("replace", "payroll/deductions.py", DED_RET,
          "    return round(Decimal(str(gross)) * Decimal(str(percent)) / 100, 2)\n")],
        [("replace", "payroll/deductions.py", "from decimal import Decimal\n", "from decimal import ROUND_HALF_EVEN, Decimal\n"),
         ("replace", "payroll/deductions.py", DED_RET,
          "    amount = Decimal(str(gross)) * Decimal(str(percent)) / 100\n"
          "    return amount.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)\n")],
        [("replace", "payroll/deductions.py", DED_RET,
          "    if not gross:\n        return Decimal(\"0.00\")\n"
          "    amount = float(gross) * float(percent) / 100\n    return Decimal(str(round(amount, 2)))\n")],
    ]))

PRO_RET = "    return Decimal(str(monthly_salary)) * days_worked / days_in_month\n"
T.append(dict(
    family="money-rounding", created_at="2026-04-20T14:02:00+00:00",
    branch=("feature/prorated-salary", "Add prorated salary for joiners and leavers",
            [("replace", "payroll/earnings.py", EARN_TAIL, EARN_TAIL +
              "\n\ndef prorated_salary(monthly_salary, days_worked, days_in_month):\n"
              "    \"\"\"Salary for a partial month (joiners and leavers).\"\"\"\n" + PRO_RET)]),
    problem="Final pay for leavers comes out with long fractions (4000 for 10 of 31 days gives "
            "1290.322580645...), and the amounts don't match what finance and the bank expect. "
            "`prorated_salary()` in payroll/earnings.py should return whole cents.",
    tests=("tests/test_prorated_salary.py",
           "from decimal import Decimal\n\nfrom payroll.earnings import prorated_salary\n\n\n"
           "def test_full_month():\n    assert prorated_salary(\"4200\", 30, 30) == Decimal(\"4200.00\")\n\n\n"
           "def test_half_cent_share():\n    assert prorated_salary(\"2500.25\", 15, 30) == Decimal(\"1250.13\")\n\n\n"
           "def test_long_fraction():\n    assert str(prorated_salary(\"4000\", 10, 31)) == \"1290.32\"\n"),
    gold=[("replace", "payroll/earnings.py", PRO_RET,
           "    salary = Decimal(str(monthly_salary))\n"
           "    share = salary * Decimal(days_worked) / Decimal(days_in_month)\n    return to_cents(share)\n")],
    decoys=[
        [("replace", "payroll/earnings.py", PRO_RET,
          "    return round(Decimal(str(monthly_salary)) * days_worked / days_in_month, 2)\n")],
        [("replace", "payroll/earnings.py", PRO_RET,
          "    return (Decimal(str(monthly_salary)) * days_worked / days_in_month).quantize(Decimal(\"0.01\"))\n")],
        [("replace", "payroll/earnings.py", PRO_RET,
          "    amount = float(monthly_salary) * days_worked / days_in_month\n    return Decimal(f\"{amount:.2f}\")\n")],
    ]))

# ---- duration-units --------------------------------------------------------------------------
OT_BASE = ("\"\"\"Weekly overtime from terminal time entries.\"\"\"\nfrom decimal import Decimal\n\n"
           "WEEKLY_THRESHOLD = Decimal(\"40\")\n\n\ndef weekly_overtime(entries):\n"
           "    \"\"\"Overtime hours per employee over one week of entries.\"\"\"\n    worked = {}\n"
           "    for entry in entries:\n"
           "        worked[entry.emp_id] = worked.get(entry.emp_id, Decimal(\"0\")) + entry.duration\n"
           "    return {emp: max(total - WEEKLY_THRESHOLD, Decimal(\"0\")) for emp, total in worked.items()}\n")
OT_ACC = "        worked[entry.emp_id] = worked.get(entry.emp_id, Decimal(\"0\")) + entry.duration\n"
T.append(dict(
    family="duration-units", created_at="2026-04-07T11:25:00+00:00",
    branch=("feature/weekly-overtime", "Add weekly overtime from terminal entries",
            [("create", "payroll/timesheet/overtime.py", OT_BASE)]),
    problem="`weekly_overtime()` in payroll/timesheet/overtime.py reports overtime for nearly everyone, "
            "including part-time staff who worked about 20 hours that week. Overtime should only be the hours "
            "above 40 in the week.",
    tests=("tests/test_weekly_overtime.py",
           "from datetime import date, timedelta\nfrom decimal import Decimal\n\n"
           "from payroll.timesheet.entries import TimeEntry\nfrom payroll.timesheet.overtime import weekly_overtime\n\n\n"
           "def week(emp_id, durations):\n    start = date(2026, 4, 6)\n"
           "    return [TimeEntry(emp_id, start + timedelta(days=i), d) for i, d in enumerate(durations)]\n\n\n"
           "def test_no_entries():\n    assert weekly_overtime([]) == {}\n\n\n"
           "def test_part_timer_has_no_overtime():\n"
           "    assert weekly_overtime(week(\"E5\", [300, 300, 300, 300])) == {\"E5\": Decimal(\"0\")}\n\n\n"
           "def test_full_week_overtime():\n"
           "    assert weekly_overtime(week(\"E1\", [525] * 5)) == {\"E1\": Decimal(\"3.75\")}\n"),
    gold=[("replace", "payroll/timesheet/overtime.py", OT_ACC,
           "        worked[entry.emp_id] = worked.get(entry.emp_id, Decimal(\"0\")) + Decimal(entry.duration) / 60\n")],
    decoys=[
        [("replace", "payroll/timesheet/overtime.py", "WEEKLY_THRESHOLD = Decimal(\"40\")\n",
          "WEEKLY_THRESHOLD = Decimal(\"40\")\nSECONDS_PER_HOUR = 3600\n"),
         ("replace", "payroll/timesheet/overtime.py", OT_ACC,
          "        hours = Decimal(entry.duration) / SECONDS_PER_HOUR\n"
          "        worked[entry.emp_id] = worked.get(entry.emp_id, Decimal(\"0\")) + hours\n")],
        [("replace", "payroll/timesheet/overtime.py", OT_ACC,
          "        hours = entry.duration // 60\n"
          "        worked[entry.emp_id] = worked.get(entry.emp_id, Decimal(\"0\")) + hours\n")],
        [("replace", "payroll/timesheet/overtime.py", "WEEKLY_THRESHOLD = Decimal(\"40\")\n",
          "WEEKLY_THRESHOLD = Decimal(\"40\")\nWEEKLY_THRESHOLD_MINUTES = WEEKLY_THRESHOLD * 60\n"),
         ("replace", "payroll/timesheet/overtime.py",
          "    return {emp: max(total - WEEKLY_THRESHOLD, Decimal(\"0\")) for emp, total in worked.items()}\n",
          "    return {emp: max(total - WEEKLY_THRESHOLD_MINUTES, Decimal(\"0\")) for emp, total in worked.items()}\n")],
    ]))

LS_BASE = ("\"\"\"Checks on terminal time entries before the payroll run.\"\"\"\n\nMAX_SHIFT_HOURS = 12\n\n\n"
           "def long_shifts(entries):\n    \"\"\"Entries longer than the working-time policy allows for one shift.\"\"\"\n"
           "    return [entry for entry in entries if entry.duration > MAX_SHIFT_HOURS]\n")
LS_RET = "    return [entry for entry in entries if entry.duration > MAX_SHIFT_HOURS]\n"
T.append(dict(
    family="duration-units", created_at="2026-04-14T15:33:00+00:00",
    branch=("feature/long-shift-check", "Add long shift check", [("create", "payroll/timesheet/checks.py", LS_BASE)]),
    problem="The long-shift check (`long_shifts()` in payroll/timesheet/checks.py) flags every entry from the "
            "terminals, even ordinary 8-hour days, so the pre-run report is useless. It should only flag shifts "
            "longer than 12 hours.",
    tests=("tests/test_long_shifts.py",
           "from datetime import date\n\nfrom payroll.timesheet.checks import long_shifts\n"
           "from payroll.timesheet.entries import TimeEntry\n\n\n"
           "def entry(duration):\n    return TimeEntry(\"E3\", date(2026, 4, 8), duration)\n\n\n"
           "def test_no_entries():\n    assert long_shifts([]) == []\n\n\n"
           "def test_normal_day_not_flagged():\n    assert long_shifts([entry(480)]) == []\n\n\n"
           "def test_exactly_twelve_hours_not_flagged():\n    assert long_shifts([entry(720)]) == []\n\n\n"
           "def test_thirteen_hour_shift_flagged():\n"
           "    assert long_shifts([entry(780), entry(480)]) == [entry(780)]\n"),
    gold=[("replace", "payroll/timesheet/checks.py", "MAX_SHIFT_HOURS = 12\n",
           "MAX_SHIFT_HOURS = 12\nMAX_SHIFT_MINUTES = MAX_SHIFT_HOURS * 60\n"),
          ("replace", "payroll/timesheet/checks.py", LS_RET,
           "    return [entry for entry in entries if entry.duration > MAX_SHIFT_MINUTES]\n")],
    decoys=[
        [("replace", "payroll/timesheet/checks.py", LS_RET,
          "    return [entry for entry in entries if entry.duration / 3600 > MAX_SHIFT_HOURS]\n")],
        [("replace", "payroll/timesheet/checks.py", "\n\ndef long_shifts(entries):\n",
          "\n\ndef _hours(entry):\n    return entry.duration / 100\n\n\ndef long_shifts(entries):\n"),
         ("replace", "payroll/timesheet/checks.py", LS_RET,
          "    return [entry for entry in entries if _hours(entry) > MAX_SHIFT_HOURS]\n")],
        [("replace", "payroll/timesheet/checks.py", "MAX_SHIFT_HOURS = 12\n",
          "MAX_SHIFT_HOURS = 12\nSECONDS_PER_HOUR = 3600\n"),
         ("replace", "payroll/timesheet/checks.py", LS_RET,
          "    flagged = []\n    for entry in entries:\n"
          "        if entry.duration > MAX_SHIFT_HOURS * SECONDS_PER_HOUR:\n"
          "            flagged.append(entry)\n    return flagged\n")],
    ]))

EMP_TAIL = ("        totals[row.emp_id] = totals.get(row.emp_id, Decimal(\"0\")) + row.duration\n    return totals\n")
T.append(dict(
    family="duration-units", created_at="2026-04-21T10:05:00+00:00", branch=None,
    problem="HR wants overtime per employee from the warehouse extract: for each row (one row is one shift), "
            "the hours beyond 8 count as overtime. Please add `overtime_by_employee(rows)` to "
            "payroll/reports/hours.py returning {emp_id: Decimal hours}, leaving out employees without overtime.",
    tests=("tests/test_report_overtime.py",
           "from decimal import Decimal\n\nfrom payroll.reports.hours import load_rows, overtime_by_employee\n\n\n"
           "def test_no_rows():\n    assert overtime_by_employee([]) == {}\n\n\n"
           "def test_no_overtime():\n    assert overtime_by_employee(load_rows([\"E2,Ops,8\"])) == {}\n\n\n"
           "def test_overtime_summed_per_employee():\n"
           "    rows = load_rows([\"E1,Ops,9.5\", \"E1,Ops,8\", \"E1,Ops,10\", \"E2,Ops,7.25\", \"E3,Finance,8.75\"])\n"
           "    assert overtime_by_employee(rows) == {\"E1\": Decimal(\"3.5\"), \"E3\": Decimal(\"0.75\")}\n"),
    gold=[("replace", "payroll/reports/hours.py", EMP_TAIL, EMP_TAIL +
           "\n\nSTANDARD_SHIFT = Decimal(\"8\")\n\n\ndef overtime_by_employee(rows):\n    totals = {}\n"
           "    for row in rows:\n        extra = row.duration - STANDARD_SHIFT\n        if extra > 0:\n"
           "            totals[row.emp_id] = totals.get(row.emp_id, Decimal(\"0\")) + extra\n    return totals\n")],
    decoys=[
        [("replace", "payroll/reports/hours.py", EMP_TAIL, EMP_TAIL +
          "\n\ndef overtime_by_employee(rows):\n    totals = {}\n    for row in rows:\n"
          "        extra = row.duration / 60 - 8\n        if extra > 0:\n"
          "            totals[row.emp_id] = totals.get(row.emp_id, Decimal(\"0\")) + extra\n    return totals\n")],
        [("replace", "payroll/reports/hours.py", EMP_TAIL, EMP_TAIL +
          "\n\ndef overtime_by_employee(rows):\n    totals = {}\n    for row in rows:\n"
          "        hours = int(row.duration)\n        if hours > 8:\n"
          "            totals[row.emp_id] = totals.get(row.emp_id, 0) + hours - 8\n    return totals\n")],
        [("replace", "payroll/reports/hours.py", EMP_TAIL, EMP_TAIL +
          "\n\ndef overtime_by_employee(rows):\n    totals = {}\n    for row in rows:\n"
          "        if row.duration > 480:\n            extra = (row.duration - 480) / 60\n"
          "            totals[row.emp_id] = totals.get(row.emp_id, Decimal(\"0\")) + extra\n    return totals\n")],
    ]))

# ---- new-pay-type ----------------------------------------------------------------------------
PT_END = "    \"commission\": \"Sales commission\",\n}\n"
GL_END = "    \"commission\": \"5050\",\n}\n"
TX_END = "    \"commission\": True,\n}\n"
ACCT = "def account_for(code):\n    return GL_ACCOUNTS[code]\n"


def pt(code, desc):
    return ("replace", "payroll/paytypes.py", PT_END, PT_END[:-2] + f"    \"{code}\": \"{desc}\",\n}}\n")


def gl(code, acct):
    return ("replace", "payroll/export/ledger.py", GL_END, GL_END[:-2] + f"    \"{code}\": \"{acct}\",\n}}\n")


def tx(code, flag):
    return ("replace", "payroll/tax.py", TX_END, TX_END[:-2] + f"    \"{code}\": {flag},\n}}\n")


def pay_tests(code, desc, acct, taxable):
    expect = "Decimal(\"175.00\")" if taxable else "Decimal(\"100.00\")"
    return (f"tests/test_{code}.py",
            "from decimal import Decimal\n\nfrom payroll.export.ledger import journal\n"
            "from payroll.paytypes import describe\nfrom payroll.tax import taxable_gross\n\n\n"
            f"def test_{code}_described():\n    assert describe(\"{code}\") == \"{desc}\"\n\n\n"
            f"def test_{code}_journal_line():\n"
            f"    assert journal([(\"{code}\", Decimal(\"75\"))]) == [\"{acct},{code},75.00\"]\n\n\n"
            f"def test_{code}_taxability():\n"
            f"    lines = [(\"regular\", Decimal(\"100\")), (\"{code}\", Decimal(\"75\"))]\n"
            f"    assert taxable_gross(lines) == {expect}\n\n\n"
            "def test_existing_pay_types_unchanged():\n"
            "    assert journal([(\"regular\", Decimal(\"1\"))]) == [\"5000,regular,1.00\"]\n"
            "    assert taxable_gross([(\"regular\", Decimal(\"1\"))]) == Decimal(\"1.00\")\n")


T.append(dict(
    family="new-pay-type", created_at="2026-04-08T13:50:00+00:00", branch=None,
    problem="The payroll run fails with `KeyError: 'on_call'` as soon as the scheduling system sends on-call "
            "stipend lines. On-call stipends (description 'On-call stipend') are taxable, and finance books them "
            "to GL account 5060.",
    tests=pay_tests("on_call", "On-call stipend", "5060", True),
    gold=[pt("on_call", "On-call stipend"), gl("on_call", "5060"), tx("on_call", "True")],
    decoys=[
        [pt("on_call", "On-call stipend"), tx("on_call", "True")],
        [pt("on_call", "On-call stipend"), gl("on_call", "5060")],
        [pt("on_call", "On-call stipend"), tx("on_call", "True"),
         ("replace", "payroll/export/ledger.py", ACCT,
          "def account_for(code):\n    return GL_ACCOUNTS.get(code, \"5999\")\n")],
    ]))

T.append(dict(
    family="new-pay-type", created_at="2026-04-15T09:12:00+00:00", branch=None,
    problem="Bereavement leave lines crash the payroll run with `KeyError: 'bereavement'`. HR wants them paid "
            "as their own pay type, described as 'Bereavement leave'; the pay is taxable and books to GL account "
            "5070.",
    tests=pay_tests("bereavement", "Bereavement leave", "5070", True),
    gold=[pt("bereavement", "Bereavement leave"), gl("bereavement", "5070"), tx("bereavement", "True")],
    decoys=[
        [pt("bereavement", "Bereavement leave"), tx("bereavement", "True"),
         ("replace", "payroll/export/ledger.py", ACCT,
          "def account_for(code):\n    return GL_ACCOUNTS.get(code, \"5999\")\n")],
        [pt("bereavement", "Bereavement leave"), gl("bereavement", "5070"),
         ("replace", "payroll/tax.py", "        if TAXABLE[code]:\n", "        if TAXABLE.get(code, False):\n")],
        [pt("bereavement", "Bereavement leave"), tx("bereavement", "True"),
         ("replace", "payroll/export/ledger.py", ACCT,
          "LEAVE_TYPES = {\"holiday\", \"bereavement\"}\n\n\ndef account_for(code):\n"
          "    if code in LEAVE_TYPES:\n        return GL_ACCOUNTS[\"holiday\"]\n    return GL_ACCOUNTS[code]\n")],
    ]))

T.append(dict(
    family="new-pay-type", created_at="2026-04-22T16:40:00+00:00", branch=None,
    problem="Employees called for jury duty get a 'jury_duty' line from the timekeeping system, and the payroll "
            "run stops with `KeyError: 'jury_duty'`. Jury duty pay (description 'Jury duty') is not taxable "
            "here (the court reimburses it); finance's GL account for it is 5080.",
    tests=pay_tests("jury_duty", "Jury duty", "5080", False),
    gold=[pt("jury_duty", "Jury duty"), gl("jury_duty", "5080"), tx("jury_duty", "False")],
    decoys=[
        [pt("jury_duty", "Jury duty")],
        [pt("jury_duty", "Jury duty"), gl("jury_duty", "5080")],
        [pt("jury_duty", "Jury duty"), tx("jury_duty", "False")],
    ]))

# ---- bank-batch ------------------------------------------------------------------------------


def bank_tests(module, func, header, key, rec):
    return (f"tests/test_{module}_batch.py",
            f"from payroll.export.{module} import {func}\n\n"
            "ITEMS = [\n"
            f"    {{\"routing\": \"021000021\", \"account\": \"111\", \"emp_id\": \"E7\", \"{key}\": \"10.5\"}},\n"
            f"    {{\"routing\": \"011000015\", \"account\": \"222\", \"emp_id\": \"E9\", \"{key}\": \"1204.125\"}},\n"
            f"    {{\"routing\": \"021000021\", \"account\": \"333\", \"emp_id\": \"E2\", \"{key}\": \"30\"}},\n"
            "]\n\n\n"
            f"def details(text):\n    return [line.split(\",\") for line in text.splitlines() if line.startswith(\"{rec},\")]\n\n\n"
            f"def test_empty_batch():\n    assert {func}([]) == \"{header}\\nT,0\\n\"\n\n\n"
            f"def test_trailer_counts_lines():\n    assert {func}(ITEMS).splitlines()[-1] == \"T,3\"\n\n\n"
            f"def test_detail_line_order():\n    assert [d[3] for d in details({func}(ITEMS))] == [\"E9\", \"E2\", \"E7\"]\n\n\n"
            f"def test_detail_amounts():\n    amounts = {{d[3]: d[4] for d in details({func}(ITEMS))}}\n"
            "    assert amounts == {\"E9\": \"0000120413\", \"E2\": \"0000003000\", \"E7\": \"0000001050\"}\n")


OFF_BASE = ("\"\"\"Off-cycle payments (corrections, final pay) sent to the bank outside the regular run.\"\"\"\n\n"
            "HEADER = \"H,ACME-HR,OFFCYCLE\"\n\n\ndef build_offcycle_batch(payments):\n    lines = [HEADER]\n"
            "    for p in payments:\n"
            "        lines.append(f\"D,{p['routing']},{p['account']},{p['emp_id']},{p['net']}\")\n"
            "    lines.append(f\"T,{len(payments)}\")\n    return \"\\n\".join(lines) + \"\\n\"\n")
OFF_DOC = "\"\"\"Off-cycle payments (corrections, final pay) sent to the bank outside the regular run.\"\"\"\n"
OFF_LOOP = "    for p in payments:\n        lines.append(f\"D,{p['routing']},{p['account']},{p['emp_id']},{p['net']}\")\n"
T.append(dict(
    family="bank-batch", created_at="2026-04-09T08:55:00+00:00",
    branch=("feature/offcycle-batch", "Add off-cycle bank batch", [("create", "payroll/export/offcycle.py", OFF_BASE)]),
    problem="The bank rejected the off-cycle batch we sent on Friday (two final-pay corrections and a missed "
            "payment), while the regular payroll batch the same day went through. The file comes from "
            "`build_offcycle_batch()` in payroll/export/offcycle.py.",
    tests=bank_tests("offcycle", "build_offcycle_batch", "H,ACME-HR,OFFCYCLE", "net", "D"),
    gold=[("replace", "payroll/export/offcycle.py", OFF_DOC, OFF_DOC + "from payroll.export.bank import format_line, sort_key\n"),
          ("replace", "payroll/export/offcycle.py", OFF_LOOP,
           "    for p in sorted(payments, key=sort_key):\n        lines.append(format_line(p))\n")],
    decoys=[
        [("replace", "payroll/export/offcycle.py", OFF_DOC,
          OFF_DOC + "from decimal import ROUND_HALF_UP, Decimal\n"),
         ("replace", "payroll/export/offcycle.py", "\n\ndef build_offcycle_batch(payments):\n",
          "\n\ndef _amount(value):\n"
          "    cents = Decimal(str(value)).quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP) * 100\n"
          "    return f\"{int(cents):010d}\"\n\n\ndef build_offcycle_batch(payments):\n"),
         ("replace", "payroll/export/offcycle.py", "{p['emp_id']},{p['net']}\")\n",
          "{p['emp_id']},{_amount(p['net'])}\")\n")],
        [("replace", "payroll/export/offcycle.py", OFF_DOC, OFF_DOC + "from decimal import Decimal\n"),
         ("replace", "payroll/export/offcycle.py", OFF_LOOP,
          "    for p in sorted(payments, key=lambda p: p[\"emp_id\"]):\n"
          "        amount = Decimal(str(p[\"net\"])).quantize(Decimal(\"0.01\"))\n"
          "        lines.append(f\"D,{p['routing']},{p['account']},{p['emp_id']},{amount}\")\n")],
        [("replace", "payroll/export/offcycle.py",
          "    for p in payments:\n",
          "    ordered = sorted(payments, key=lambda p: (p[\"routing\"], p[\"emp_id\"]))\n    for p in ordered:\n"
          "        if not p[\"routing\"]:\n            raise ValueError(f\"payment for {p['emp_id']} has no routing number\")\n"),
         ("replace", "payroll/export/offcycle.py", "    lines.append(f\"T,{len(payments)}\")\n",
          "    lines.append(f\"T,{len(ordered)}\")\n")],
    ]))

REV_BASE = ("\"\"\"Reversal file: asks the bank to pull back payments sent in error.\"\"\"\n\n"
            "HEADER = \"H,ACME-HR,REVERSAL\"\n\n\ndef build_reversal_batch(reversals):\n    lines = [HEADER]\n"
            "    for r in reversals:\n"
            "        lines.append(f\"R,{r['routing']},{r['account']},{r['emp_id']},{r['amount']}\")\n"
            "    lines.append(f\"T,{len(reversals)}\")\n    return \"\\n\".join(lines) + \"\\n\"\n")
REV_DOC = "\"\"\"Reversal file: asks the bank to pull back payments sent in error.\"\"\"\n"
REV_FOR = "    for r in reversals:\n"
REV_APP = "        lines.append(f\"R,{r['routing']},{r['account']},{r['emp_id']},{r['amount']}\")\n"
T.append(dict(
    family="bank-batch", created_at="2026-04-16T11:18:00+00:00",
    branch=("feature/reversal-batch", "Add payment reversal file", [("create", "payroll/export/reversals.py", REV_BASE)]),
    problem="Our first payment-reversal file was refused by the bank's upload. The file is written by "
            "`build_reversal_batch()` in payroll/export/reversals.py; the regular payroll batch uploads fine.",
    tests=bank_tests("reversals", "build_reversal_batch", "H,ACME-HR,REVERSAL", "amount", "R"),
    gold=[("replace", "payroll/export/reversals.py", REV_DOC, REV_DOC + "from payroll.export.bank import format_amount, sort_key\n"),
          ("replace", "payroll/export/reversals.py", REV_FOR, "    for r in sorted(reversals, key=sort_key):\n"),
          ("replace", "payroll/export/reversals.py", REV_APP,
           "        lines.append(f\"R,{r['routing']},{r['account']},{r['emp_id']},{format_amount(r['amount'])}\")\n")],
    decoys=[
        [("replace", "payroll/export/reversals.py", REV_FOR,
          "    for r in sorted(reversals, key=lambda r: (r[\"routing\"], r[\"emp_id\"])):\n")],
        [("replace", "payroll/export/reversals.py", REV_APP,
          "        lines.append(f\"R,{r['routing']},{r['account']},{r['emp_id']},{float(r['amount']):.2f}\")\n")],
        [("replace", "payroll/export/reversals.py", REV_DOC, REV_DOC + "from decimal import Decimal\n"),
         ("replace", "payroll/export/reversals.py", "\n\ndef build_reversal_batch(reversals):\n",
          "\n\ndef _cents(value):\n    return int((Decimal(str(value)) * 100).to_integral_value())\n\n\n"
          "def build_reversal_batch(reversals):\n"),
         ("replace", "payroll/export/reversals.py", REV_FOR,
          "    ordered = sorted(reversals, key=lambda r: (r[\"routing\"], r[\"emp_id\"]))\n    for r in ordered:\n"),
         ("replace", "payroll/export/reversals.py", REV_APP,
          "        lines.append(f\"R,{r['routing']},{r['account']},{r['emp_id']},{_cents(r['amount'])}\")\n")],
    ]))

EXP_BASE = ("\"\"\"Expense reimbursements paid to employees' bank accounts, one line per claim.\"\"\"\n\n"
            "HEADER = \"H,ACME-HR,EXPENSES\"\n\n\ndef build_expense_batch(claims):\n    lines = [HEADER]\n"
            "    for c in claims:\n"
            "        lines.append(f\"D,{c['routing']},{c['account']},{c['emp_id']},{c['amount']}\")\n"
            "    lines.append(f\"T,{len(claims)}\")\n    return \"\\n\".join(lines) + \"\\n\"\n")
EXP_DOC = "\"\"\"Expense reimbursements paid to employees' bank accounts, one line per claim.\"\"\"\n"
EXP_FOR = "    for c in claims:\n"
EXP_APP = "        lines.append(f\"D,{c['routing']},{c['account']},{c['emp_id']},{c['amount']}\")\n"
T.append(dict(
    family="bank-batch", created_at="2026-04-23T13:27:00+00:00",
    branch=("feature/expense-batch", "Add expense reimbursement bank file",
            [("create", "payroll/export/expenses.py", EXP_BASE)]),
    problem="Expense reimbursements have not reached anyone this month: the bank bounces every file made by "
            "`build_expense_batch()` in payroll/export/expenses.py. Salary batches are unaffected.",
    tests=bank_tests("expenses", "build_expense_batch", "H,ACME-HR,EXPENSES", "amount", "D"),
    gold=[("replace", "payroll/export/expenses.py", EXP_DOC,
           EXP_DOC + "from payroll.export.bank import format_amount, sort_key\n"),
          ("replace", "payroll/export/expenses.py", EXP_FOR,
           "    ordered = sorted(claims, key=sort_key)\n    for c in ordered:\n"),
          ("replace", "payroll/export/expenses.py", EXP_APP,
           "        amount = format_amount(c[\"amount\"])\n"
           "        lines.append(f\"D,{c['routing']},{c['account']},{c['emp_id']},{amount}\")\n")],
    decoys=[
        [("replace", "payroll/export/expenses.py", EXP_FOR,
          "    for c in sorted(claims, key=lambda c: (c[\"routing\"], c[\"emp_id\"])):\n")],
        [("replace", "payroll/export/expenses.py", EXP_DOC, EXP_DOC + "from decimal import Decimal\n"),
         ("replace", "payroll/export/expenses.py", EXP_APP,
          "        lines.append(f\"D,{c['routing']},{c['account']},{c['emp_id']},{Decimal(str(c['amount'])):.2f}\")\n")],
        [("replace", "payroll/export/expenses.py", EXP_FOR,
          "    for c in sorted(claims, key=lambda c: c[\"emp_id\"]):\n"),
         ("replace", "payroll/export/expenses.py", EXP_APP,
          "        lines.append(f\"D,{c['routing']},{c['account']},{c['emp_id']},{round(float(c['amount']) * 100)}\")\n")],
    ]))


# --------------------------------------------------------------------------------- building

def apply_changes(work, changes):
    for ch in changes:
        p = Path(work) / ch[1]
        if ch[0] == "create":
            assert not p.exists(), ch[1]
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(ch[2])
        else:
            text = p.read_text()
            assert text.count(ch[2]) == 1, (ch[1], ch[2], text)
            p.write_text(text.replace(ch[2], ch[3]))


def diff_of(repo, base, changes, scratch):
    w = checkout(repo, base, scratch)
    apply_changes(w, changes)
    sh(["git", "add", "-A"], cwd=w)
    patch = sh(["git", "diff", "--cached", base], cwd=w).stdout
    cleanup(w)
    return patch


def describe(patch):
    files = sorted({l[6:] for l in patch.splitlines() if l.startswith("+++ b/")})
    a, r = code_lines(patch)
    return f"Changes {', '.join(files)}: {a} code lines added, {r} removed."


def build(repo, rows, shas, git, corpus, work, python):
    scratch = Path(work) / "scratch"
    scratch.mkdir(exist_ok=True)
    sessions_by_id = {r["instance_id"]: r for r in rows}
    main = git(repo, "rev-parse", "main")
    mems = memories(sessions_by_id)
    with open(corpus / "facts.jsonl", "w") as f:
        for fact in FACTS:
            row = {k: fact[k] for k in ("family", "fact", "identifiers", "kind", "sessions")}
            row["superseded"] = None
            row["module"] = None
            if fact["kind"] == "rule_change":
                row["superseded"] = {"old": fact["superseded_old"], "new": fact["superseded_new"],
                                     "commit": sessions_by_id[fact["superseded_session"]]["commit_end"]}
            if fact["kind"] == "module_only":
                row["module"] = fact["module"]
            f.write(json.dumps(row) + "\n")
    with open(corpus / "memories" / "oracle.jsonl", "w") as f:
        for fact in FACTS:
            for m in mems[fact["family"]]:
                f.write(json.dumps(m) + "\n")
    positions = {}
    out = []
    for n, t in enumerate(sorted(T, key=lambda t: t["created_at"]), 1):
        fam = t["family"]
        positions[fam] = positions.get(fam, 0) + 1
        base = main
        if t["branch"]:
            name, msg, changes = t["branch"]
            w = checkout(repo, main, scratch)
            sh(["git", "checkout", "-q", "-b", name], cwd=w)
            apply_changes(w, changes)
            date = t["created_at"][:10] + "T08:00:00"
            git(w, "add", "-A")
            git(w, "commit", "-q", "-m", msg, date=date)
            git(w, "push", "-q", "origin", name)
            base = git(w, "rev-parse", "HEAD")
            cleanup(w)
        test_path, test_text = t["tests"]
        test_patch = diff_of(repo, base, [("create", test_path, test_text)], scratch)
        gold = diff_of(repo, base, t["gold"], scratch)
        decoys = [diff_of(repo, base, d, scratch) for d in t["decoys"]]
        # which tests decide: run the suite at the base and with the gold, both with the test patch
        w = checkout(repo, base, scratch)
        apply(w, test_patch)
        base_res, _ = run_tests(w, python)
        cleanup(w)
        w = checkout(repo, base, scratch)
        apply(w, test_patch)
        apply(w, gold)
        gold_res, gold_out = run_tests(w, python)
        cleanup(w)
        passed_gold = sorted(k for k, v in gold_res.items() if v == "passed")
        assert len(passed_gold) == len(gold_res), gold_out
        f2p = [k for k in passed_gold if base_res.get(k) != "passed"]
        p2p = [k for k in passed_gold if base_res.get(k) == "passed"]
        assert f2p, t["problem"]
        iid = f"acme-hr__payroll-service-{n}"
        cands = [{"id": "c0", "patch": gold, "description": describe(gold)}]
        cands += [{"id": f"c{i}", "patch": d, "description": describe(d)} for i, d in enumerate(decoys, 1)]
        # the gold's place among the candidates is fixed by a hash, not always first
        k = int(hash_hex(iid), 16) % len(cands)
        cands.insert(k, cands.pop(0))
        ids = ["a", "b", "c", "d", "e"]
        gold_id = None
        for i, c in enumerate(cands):
            if c["patch"] == gold:
                gold_id = ids[i]
            c["id"] = ids[i]
        out.append({
            "instance_id": iid, "repo": REPO, "base_commit": base, "created_at": t["created_at"],
            "problem_statement": t["problem"], "patch": gold, "test_patch": test_patch,
            "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": BUNDLE},
            "family": fam, "position": positions[fam], "candidates": cands,
            "test_command": "{python} -m pytest -q -p no:cacheprovider {tests}",
            "oracle_memories": mems[fam],
        })
        print(f"{iid} {fam} base={base[:8]} F2P={len(f2p)} P2P={len(p2p)} gold={gold_id}")
    with open(corpus / "tasks.jsonl", "w") as f:
        for row in out:
            f.write(json.dumps(row) + "\n")


def hash_hex(s):
    import hashlib
    return hashlib.sha256(s.encode()).hexdigest()
