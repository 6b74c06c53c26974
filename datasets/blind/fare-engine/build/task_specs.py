"""The evaluation tasks: problem statements, candidate patches (as edits) and tests.

Every candidate and every test patch is written as a function that edits a
checkout of the base commit; make_tasks.py turns them into unified diffs with git.
"""
import subprocess
import sys
from pathlib import Path


def R(repo: Path, rel: str, old: str, new: str) -> None:
    p = repo / rel
    text = p.read_text()
    assert old in text, (rel, old)
    p.write_text(text.replace(old, new, 1))


def A(repo: Path, rel: str, text: str) -> None:
    p = repo / rel
    p.write_text(p.read_text() + text)


def W(repo: Path, rel: str, text: str) -> None:
    (repo / rel).write_text(text)


def regen(repo: Path) -> None:
    subprocess.run([sys.executable, "tools/gen_fare_table.py"], cwd=repo, check=True, capture_output=True)


TASKS = []

# =========================================================== service-day ===

def t1_tests(r):
    W(r, "tests/test_revenue_by_day.py", '''from fare_engine.reports.daily import revenue_by_day
from fare_engine.reports.ingest import load_rows

EXPORT = """ts,card_id,stop,kind,charged_cents
1712028600,card-2,HARB,ride,390
1712052000,card-1,CEN,ride,250
1712138400,card-3,UNI,ride,300
1712196000,card-4,HARB,ride,390
"""


def test_revenue_by_day_groups_night_rides():
    result = revenue_by_day(load_rows(EXPORT))
    assert result == {"2024-04-01": 390, "2024-04-02": 250, "2024-04-03": 690}


def test_revenue_by_day_sorted():
    result = revenue_by_day(load_rows(EXPORT))
    assert list(result) == sorted(result)


def test_revenue_by_day_empty():
    assert revenue_by_day([]) == {}
''')


def t1_gold(r):
    A(r, "fare_engine/reports/daily.py", '''

def revenue_by_day(rows: list[dict]) -> dict:
    totals: dict[str, int] = {}
    for row in rows:
        key = service_day(row["at"]).isoformat()
        totals[key] = totals.get(key, 0) + row["charged_cents"]
    return dict(sorted(totals.items()))
''')


def t1_calendar(r):
    A(r, "fare_engine/reports/daily.py", '''

def revenue_by_day(rows: list[dict]) -> dict:
    days = sorted({row["at"].date().isoformat() for row in rows})
    return {d: sum(r["charged_cents"] for r in rows if r["at"].date().isoformat() == d) for d in days}
''')


def t1_reuse_daily(r):
    A(r, "fare_engine/reports/daily.py", '''

def revenue_by_day(rows: list[dict]) -> dict:
    days = sorted({row["at"].date() for row in rows})
    return {day.isoformat(): daily_revenue(rows, day)["revenue_cents"] for day in days}
''')


def t1_night_cutoff(r):
    R(r, "fare_engine/reports/daily.py", "from datetime import date\n", "from datetime import date, datetime, timedelta\n")
    A(r, "fare_engine/reports/daily.py", '''

NIGHT_CUTOFF = timedelta(hours=3)


def _report_day(at: datetime) -> date:
    return (at - NIGHT_CUTOFF).date()


def revenue_by_day(rows: list[dict]) -> dict:
    totals: dict[str, int] = {}
    for row in rows:
        key = _report_day(row["at"]).isoformat()
        totals[key] = totals.get(key, 0) + row["charged_cents"]
    return dict(sorted(totals.items()))
''')


TASKS.append(dict(
    n=1, family="service-day", position=1, created_at="2024-04-02T09:00:00+00:00",
    problem_statement="""Revenue per day for a whole export
Finance wants the whole ledger export summarised in one call. Please add `revenue_by_day(rows)` to `fare_engine/reports/daily.py`: it takes the rows returned by `load_rows()` and returns a dict that maps each day (ISO date string, e.g. "2024-04-02") to the revenue in cents for that day, ordered by day. An empty export gives an empty dict.
""",
    tests=t1_tests,
    fail_to_pass=["tests/test_revenue_by_day.py::test_revenue_by_day_groups_night_rides",
                  "tests/test_revenue_by_day.py::test_revenue_by_day_sorted",
                  "tests/test_revenue_by_day.py::test_revenue_by_day_empty"],
    gold=t1_gold,
    decoys=[t1_calendar, t1_reuse_daily, t1_night_cutoff],
))


def t2_tests(r):
    R(r, "tests/test_validator_api.py",
      'assert response == {"ok": True, "seq": 1, "kind": "ride", "charged_cents": 300, "display": "$3.00"}',
      'assert response == {"ok": True, "seq": 1, "kind": "ride", "charged_cents": 300, "display": "$3.00",\n'
      '                        "cap_remaining_cents": 600}')
    A(r, "tests/test_validator_api.py", '''

def test_cap_remaining_counts_the_night():
    engine = FareEngine()
    handle_tap(engine, tap_request(stop="HARB", ts=1709582400000))
    response = handle_tap(engine, tap_request(seq=2, stop="HARB", ts=1709609400000))
    assert response["charged_cents"] == 390
    assert response["cap_remaining_cents"] == 120


def test_cap_remaining_when_capped():
    engine = FareEngine()
    for seq, hour in enumerate((6, 8, 10, 12), start=1):
        response = handle_tap(engine, tap_request(seq=seq, stop="HARB", ts=TS_0800 + (hour - 8) * 3600000))
    assert response["charged_cents"] == 0
    assert response["cap_remaining_cents"] == 0
''')


def t2_gold(r):
    R(r, "fare_engine/validator_api/handlers.py", "from ..money import format_cents\n",
      "from ..money import format_cents\nfrom ..service_day import service_day\n")
    R(r, "fare_engine/validator_api/handlers.py", '''    return {
        "ok": True,''', '''    spent = engine.caps.spent(request["card_id"], service_day(at))
    return {
        "ok": True,''')
    R(r, "fare_engine/validator_api/handlers.py", '''        "display": format_cents(entry.charged_cents),
    }''', '''        "display": format_cents(entry.charged_cents),
        "cap_remaining_cents": engine.caps.daily_cap_cents - spent,
    }''')


def t2_calendar(r):
    R(r, "fare_engine/validator_api/handlers.py", '''    return {
        "ok": True,''', '''    today = at.date()
    spent = engine.caps.spent(request["card_id"], today)
    remaining = max(0, engine.caps.daily_cap_cents - spent)
    return {
        "ok": True,''')
    R(r, "fare_engine/validator_api/handlers.py", '''        "display": format_cents(entry.charged_cents),
    }''', '''        "display": format_cents(entry.charged_cents),
        "cap_remaining_cents": remaining,
    }''')


def t2_ledger_sum(r):
    R(r, "fare_engine/validator_api/handlers.py", '''    return {
        "ok": True,''', '''    today = [e for e in engine.ledger.for_card(request["card_id"]) if e.at.date() == at.date()]
    paid_today = sum(e.charged_cents for e in today)
    remaining = max(0, engine.caps.daily_cap_cents - paid_today)
    return {
        "ok": True,''')
    R(r, "fare_engine/validator_api/handlers.py", '''        "display": format_cents(entry.charged_cents),
    }''', '''        "display": format_cents(entry.charged_cents),
        "cap_remaining_cents": remaining,
    }''')


def t2_night_hours(r):
    R(r, "fare_engine/validator_api/handlers.py", 'STALE_TAP_AFTER = timedelta(minutes=2)\n',
      'STALE_TAP_AFTER = timedelta(minutes=2)\nNIGHT_BUS_HOURS = 3\n')
    R(r, "fare_engine/validator_api/handlers.py", '''def error(code''', '''def _cap_day(at: datetime):
    if at.hour < NIGHT_BUS_HOURS:
        return (at - timedelta(days=1)).date()
    return at.date()


def error(code''')
    R(r, "fare_engine/validator_api/handlers.py", '''    return {
        "ok": True,''', '''    spent = engine.caps.spent(request["card_id"], _cap_day(at))
    remaining = max(0, engine.caps.daily_cap_cents - spent)
    return {
        "ok": True,''')
    R(r, "fare_engine/validator_api/handlers.py", '''        "display": format_cents(entry.charged_cents),
    }''', '''        "display": format_cents(entry.charged_cents),
        "cap_remaining_cents": remaining,
    }''')


TASKS.append(dict(
    n=2, family="service-day", position=2, created_at="2024-04-09T09:00:00+00:00",
    problem_statement="""Show the remaining daily cap on the validator
Riders keep asking drivers how much more they will pay today. Please add `cap_remaining_cents` to the successful response of `handle_tap` in `fare_engine/validator_api/handlers.py`: the daily cap minus what the card has been charged so far today, including this tap.
""",
    tests=t2_tests,
    fail_to_pass=["tests/test_validator_api.py::test_tap_ok",
                  "tests/test_validator_api.py::test_cap_remaining_counts_the_night",
                  "tests/test_validator_api.py::test_cap_remaining_when_capped"],
    gold=t2_gold,
    decoys=[t2_calendar, t2_ledger_sum, t2_night_hours],
))


def t3_tests(r):
    W(r, "tests/test_trips_on.py", '''from datetime import date

from fare_engine.engine import FareEngine
from fare_engine.refunds import RefundDesk

from .helpers import at


def test_trips_on_includes_night_trips():
    engine = FareEngine()
    engine.tap("card-5", "CEN", at(4, 18))
    engine.tap("card-5", "HARB", at(5, 3, 30))
    engine.tap("card-5", "UNI", at(5, 8))
    assert [e.stop for e in engine.ledger.trips_on("card-5", date(2024, 3, 4))] == ["CEN", "HARB"]
    assert [e.stop for e in engine.ledger.trips_on("card-5", date(2024, 3, 5))] == ["UNI"]


def test_trips_on_keeps_transfers_and_drops_refunds():
    engine = FareEngine()
    ride = engine.tap("card-6", "CEN", at(4, 9))
    engine.tap("card-6", "UNI", at(4, 9, 30))
    engine.tap("card-7", "UNI", at(4, 9, 40))
    RefundDesk(engine.ledger, engine.caps).refund(ride.entry_id, at(4, 11))
    assert [e.kind for e in engine.ledger.trips_on("card-6", date(2024, 3, 4))] == ["ride", "transfer"]


def test_trips_on_other_day_is_empty():
    engine = FareEngine()
    engine.tap("card-8", "CEN", at(4, 9))
    assert engine.ledger.trips_on("card-8", date(2024, 3, 6)) == []
''')


def t3_gold(r):
    R(r, "fare_engine/ledger.py", "from datetime import datetime\n", "from datetime import date, datetime\n")
    R(r, "fare_engine/ledger.py", "from typing import Iterator, Optional\n",
      "from typing import Iterator, Optional\n\nfrom .service_day import service_day\n")
    R(r, "fare_engine/ledger.py", "    def refunds_of(self", '''    def trips_on(self, card_id: str, day: date) -> list[Entry]:
        return [
            e for e in self._entries
            if e.card_id == card_id and e.kind in ("ride", "transfer") and service_day(e.at) == day
        ]

    def refunds_of(self''')


def t3_calendar(r):
    R(r, "fare_engine/ledger.py", "from datetime import datetime\n", "from datetime import date, datetime\n")
    R(r, "fare_engine/ledger.py", "    def refunds_of(self", '''    def trips_on(self, card_id: str, day: date) -> list[Entry]:
        return [e for e in self.for_card(card_id) if e.kind != "refund" and e.at.date() == day]

    def refunds_of(self''')


def t3_window(r):
    R(r, "fare_engine/ledger.py", "from datetime import datetime\n",
      "from datetime import date, datetime, time, timedelta, timezone\n")
    R(r, "fare_engine/ledger.py", "    def refunds_of(self", '''    def trips_on(self, card_id: str, day: date) -> list[Entry]:
        start = datetime.combine(day, time(3), tzinfo=timezone.utc)
        end = start + timedelta(days=1)
        return [e for e in self.for_card(card_id) if e.kind != "refund" and start <= e.at < end]

    def refunds_of(self''')


def t3_shift(r):
    R(r, "fare_engine/ledger.py", "from datetime import datetime\n", "from datetime import date, datetime, timedelta\n")
    R(r, "fare_engine/ledger.py", "    def refunds_of(self", '''    def trips_on(self, card_id: str, day: date) -> list[Entry]:
        return [
            e for e in self.for_card(card_id)
            if e.kind in ("ride", "transfer") and (e.at - timedelta(hours=3)).date() == day
        ]

    def refunds_of(self''')


TASKS.append(dict(
    n=3, family="service-day", position=3, created_at="2024-04-16T09:00:00+00:00",
    problem_statement="""List a card's trips for a day
Customer service needs the list of a card's trips on a given day when a rider calls about their charges. Please add `Ledger.trips_on(card_id, day)` to `fare_engine/ledger.py`: the card's ride and transfer entries for that day, in tap order. Refund entries are not trips.
""",
    tests=t3_tests,
    fail_to_pass=["tests/test_trips_on.py::test_trips_on_includes_night_trips",
                  "tests/test_trips_on.py::test_trips_on_keeps_transfers_and_drops_refunds",
                  "tests/test_trips_on.py::test_trips_on_other_day_is_empty"],
    gold=t3_gold,
    decoys=[t3_calendar, t3_window, t3_shift],
))

# ============================================================== ts-units ===

def t4_tests(r):
    W(r, "tests/test_heartbeat.py", '''from datetime import datetime, timezone

from fare_engine.validator_api.handlers import handle_heartbeat

TS_0800 = 1709539200000


def test_heartbeat_device_behind():
    now = datetime(2024, 3, 4, 8, 0, 30, tzinfo=timezone.utc)
    response = handle_heartbeat({"device_id": "val-17", "ts": TS_0800}, now)
    assert response == {"ok": True, "device_id": "val-17", "skew_seconds": 30}


def test_heartbeat_device_ahead():
    now = datetime(2024, 3, 4, 7, 59, 50, tzinfo=timezone.utc)
    assert handle_heartbeat({"device_id": "val-17", "ts": TS_0800}, now)["skew_seconds"] == -10


def test_heartbeat_missing_fields():
    now = datetime(2024, 3, 4, 8, 0, tzinfo=timezone.utc)
    response = handle_heartbeat({"ts": TS_0800}, now)
    assert response["ok"] is False
    assert response["error"] == "bad_request"
''')


T4_HEAD = '''

REQUIRED_HEARTBEAT_FIELDS = ("device_id", "ts")


def handle_heartbeat(request: dict, now: datetime) -> dict:
    missing = [f for f in REQUIRED_HEARTBEAT_FIELDS if f not in request]
    if missing:
        return error("bad_request", "missing fields: " + ", ".join(missing))
'''


def t4_gold(r):
    A(r, "fare_engine/validator_api/handlers.py", T4_HEAD + '''    skew = now - device_time(request["ts"], now.tzinfo)
    return {"ok": True, "device_id": request["device_id"], "skew_seconds": int(skew.total_seconds())}
''')


def t4_seconds(r):
    A(r, "fare_engine/validator_api/handlers.py", T4_HEAD + '''    return {"ok": True, "device_id": request["device_id"], "skew_seconds": int(now.timestamp() - request["ts"])}
''')


def t4_fromtimestamp(r):
    A(r, "fare_engine/validator_api/handlers.py", T4_HEAD + '''    device_clock = datetime.fromtimestamp(request["ts"], timezone.utc)
    return {"ok": True, "device_id": request["device_id"],
            "skew_seconds": int((now - device_clock).total_seconds())}
''')


def t4_guarded(r):
    A(r, "fare_engine/validator_api/handlers.py", T4_HEAD + '''    try:
        device_clock = datetime.fromtimestamp(int(request["ts"]), now.tzinfo)
    except (OverflowError, OSError, ValueError):
        return error("bad_timestamp", f"cannot read ts {request['ts']!r}")
    skew = now - device_clock
    return {"ok": True, "device_id": request["device_id"], "skew_seconds": int(skew.total_seconds())}
''')


TASKS.append(dict(
    n=4, family="ts-units", position=1, created_at="2024-04-03T09:00:00+00:00",
    problem_statement="""Validator heartbeat with clock skew
Validators now send a heartbeat every minute, `{"device_id": ..., "ts": ...}`, where `ts` is the device's clock reading. Please add `handle_heartbeat(request, now)` to `fare_engine/validator_api/handlers.py`. It replies `{"ok": True, "device_id": ..., "skew_seconds": N}`, where N is how many whole seconds the device clock is behind the server time `now` (negative when the device is ahead). A request with missing fields gets a `bad_request` error, like `handle_tap`.
""",
    tests=t4_tests,
    fail_to_pass=["tests/test_heartbeat.py::test_heartbeat_device_behind",
                  "tests/test_heartbeat.py::test_heartbeat_device_ahead",
                  "tests/test_heartbeat.py::test_heartbeat_missing_fields"],
    gold=t4_gold,
    decoys=[t4_seconds, t4_fromtimestamp, t4_guarded],
))


def t5_tests(r):
    W(r, "tests/test_export_refund_of.py", '''from datetime import datetime, timezone

from fare_engine.engine import FareEngine
from fare_engine.refunds import RefundDesk
from fare_engine.reports.ingest import load_rows

from .helpers import at

BACKEND = """ts,card_id,stop,kind,charged_cents,refund_of_ts
1712052000,card-1,CEN,ride,250,
1712055600,card-1,CEN,refund,-250,1712052000
"""


def _csv(rows):
    header = "ts,card_id,stop,kind,charged_cents,refund_of_ts\\n"
    return header + "".join(
        f"{r['ts']},{r['card_id']},{r['stop']},{r['kind']},{r['charged_cents']},{r['refund_of_ts']}\\n"
        for r in rows
    )


def test_export_has_refund_of_ts():
    engine = FareEngine()
    ride = engine.tap("card-1", "UNI", at(4, 9))
    RefundDesk(engine.ledger, engine.caps).refund(ride.entry_id, at(4, 10))
    rows = engine.ledger.export_rows()
    assert rows[0]["refund_of_ts"] == ""
    assert rows[1]["refund_of_ts"] == rows[0]["ts"]


def test_refund_of_round_trip():
    engine = FareEngine()
    ride = engine.tap("card-1", "UNI", at(4, 9))
    RefundDesk(engine.ledger, engine.caps).refund(ride.entry_id, at(4, 10))
    parsed = load_rows(_csv(engine.ledger.export_rows()))
    assert parsed[0]["refund_of_at"] is None
    assert parsed[1]["refund_of_at"] == at(4, 9)


def test_load_backend_export_with_refund_of():
    rows = load_rows(BACKEND)
    assert rows[1]["at"] == datetime(2024, 4, 2, 11, tzinfo=timezone.utc)
    assert rows[1]["refund_of_at"] == datetime(2024, 4, 2, 10, tzinfo=timezone.utc)
    assert rows[0]["refund_of_at"] is None


def test_load_old_export_without_column():
    rows = load_rows("ts,card_id,stop,kind,charged_cents\\n1712052000,card-1,CEN,ride,250\\n")
    assert rows[0]["refund_of_at"] is None
''')


def _t5_export(r, expr):
    R(r, "fare_engine/ledger.py", '''                "charged_cents": str(e.charged_cents),
            }''', '''                "charged_cents": str(e.charged_cents),
                "refund_of_ts": %s if e.refund_of else "",
            }''' % expr)


def t5_gold(r):
    _t5_export(r, "str(int(self.get(e.refund_of).at.timestamp()))")
    R(r, "fare_engine/reports/ingest.py", '''        row["charged_cents"] = int(raw["charged_cents"])''',
      '''        row["charged_cents"] = int(raw["charged_cents"])
        refund_of_ts = raw.get("refund_of_ts") or ""
        if refund_of_ts:
            row["refund_of_at"] = datetime.fromtimestamp(int(refund_of_ts), tz)
        else:
            row["refund_of_at"] = None''')


def t5_millis_both(r):
    _t5_export(r, "str(int(self.get(e.refund_of).at.timestamp() * 1000))")
    R(r, "fare_engine/reports/ingest.py", "DEFAULT_TZ = timezone.utc\n",
      "from ..validator_api.clock import device_time\n\nDEFAULT_TZ = timezone.utc\n")
    R(r, "fare_engine/reports/ingest.py", '''        row["charged_cents"] = int(raw["charged_cents"])''',
      '''        row["charged_cents"] = int(raw["charged_cents"])
        refund_of_ts = raw.get("refund_of_ts") or ""
        row["refund_of_at"] = device_time(int(refund_of_ts), tz) if refund_of_ts else None''')


def t5_device_time(r):
    _t5_export(r, "str(int(self.get(e.refund_of).at.timestamp()))")
    R(r, "fare_engine/reports/ingest.py", "DEFAULT_TZ = timezone.utc\n",
      "from ..validator_api.clock import device_time\n\nDEFAULT_TZ = timezone.utc\n")
    R(r, "fare_engine/reports/ingest.py", '''        row["charged_cents"] = int(raw["charged_cents"])''',
      '''        row["charged_cents"] = int(raw["charged_cents"])
        refund_of_ts = raw.get("refund_of_ts") or None
        row["refund_of_at"] = device_time(int(refund_of_ts), tz) if refund_of_ts else None''')


def t5_export_millis(r):
    _t5_export(r, "str(int(self.get(e.refund_of).at.timestamp() * 1000))")
    R(r, "fare_engine/reports/ingest.py", '''        row["charged_cents"] = int(raw["charged_cents"])''',
      '''        row["charged_cents"] = int(raw["charged_cents"])
        refund_of_ts = raw.get("refund_of_ts") or ""
        row["refund_of_at"] = datetime.fromtimestamp(int(refund_of_ts), tz) if refund_of_ts else None''')


TASKS.append(dict(
    n=5, family="ts-units", position=2, created_at="2024-04-10T09:00:00+00:00",
    problem_statement="""Link refunds to the ride they refund in the ledger export
Finance wants to match refund rows in the ledger export to the ride they refund. Please add a `refund_of_ts` column to `Ledger.export_rows()`: for a refund row it holds the `ts` of the refunded ride, for other rows it is empty. `load_rows()` in the reports package should parse it into `refund_of_at` (None when the column is empty or missing, so older exports still load).
""",
    tests=t5_tests,
    fail_to_pass=["tests/test_export_refund_of.py::test_export_has_refund_of_ts",
                  "tests/test_export_refund_of.py::test_refund_of_round_trip",
                  "tests/test_export_refund_of.py::test_load_backend_export_with_refund_of",
                  "tests/test_export_refund_of.py::test_load_old_export_without_column"],
    gold=t5_gold,
    decoys=[t5_millis_both, t5_device_time, t5_export_millis],
))


def t6_tests(r):
    A(r, "tests/test_validator_api.py", '''

def test_tap_from_the_future_rejected():
    engine = FareEngine()
    now = datetime(2024, 3, 4, 7, 59, tzinfo=timezone.utc)
    response = handle_tap(engine, tap_request(), now=now)
    assert response["ok"] is False
    assert response["error"] == "clock_ahead"
    assert list(engine.ledger) == []


def test_tap_slightly_ahead_accepted():
    now = datetime(2024, 3, 4, 7, 59, 45, tzinfo=timezone.utc)
    response = handle_tap(FareEngine(), tap_request(), now=now)
    assert response["ok"] is True
''')


def t6_gold(r):
    R(r, "fare_engine/validator_api/handlers.py", "STALE_TAP_AFTER = timedelta(minutes=2)\n",
      "STALE_TAP_AFTER = timedelta(minutes=2)\nCLOCK_AHEAD_LIMIT = timedelta(seconds=30)\n")
    R(r, "fare_engine/validator_api/handlers.py", '''        return error("stale_tap", "tap is older than the replay limit", request["seq"])
''', '''        return error("stale_tap", "tap is older than the replay limit", request["seq"])
    if now is not None and at - now > CLOCK_AHEAD_LIMIT:
        return error("clock_ahead", "device clock is ahead of the server", request["seq"])
''')


def t6_seconds(r):
    R(r, "fare_engine/validator_api/handlers.py", "STALE_TAP_AFTER = timedelta(minutes=2)\n",
      "STALE_TAP_AFTER = timedelta(minutes=2)\nCLOCK_AHEAD_LIMIT_SECONDS = 30\n")
    R(r, "fare_engine/validator_api/handlers.py", '''    missing = [f for f in REQUIRED_TAP_FIELDS if f not in request]
    if missing:
        return error("bad_request", "missing fields: " + ", ".join(missing), request.get("seq"))
''', '''    missing = [f for f in REQUIRED_TAP_FIELDS if f not in request]
    if missing:
        return error("bad_request", "missing fields: " + ", ".join(missing), request.get("seq"))
    if now is not None:
        ahead = request["ts"] - now.timestamp()
        if ahead > CLOCK_AHEAD_LIMIT_SECONDS:
            return error("clock_ahead", "device clock is ahead of the server", request["seq"])
''')


def t6_fromtimestamp(r):
    R(r, "fare_engine/validator_api/handlers.py", "STALE_TAP_AFTER = timedelta(minutes=2)\n",
      "STALE_TAP_AFTER = timedelta(minutes=2)\nCLOCK_AHEAD_LIMIT = timedelta(seconds=30)\n")
    R(r, "fare_engine/validator_api/handlers.py", '''    at = device_time(request["ts"], tz)
''', '''    if now is not None:
        device_clock = datetime.fromtimestamp(request["ts"], tz)
        if device_clock - now > CLOCK_AHEAD_LIMIT:
            return error("clock_ahead", "device clock is ahead of the server", request["seq"])
    at = device_time(request["ts"], tz)
''')


def t6_helper(r):
    R(r, "fare_engine/validator_api/handlers.py", "STALE_TAP_AFTER = timedelta(minutes=2)\n",
      "STALE_TAP_AFTER = timedelta(minutes=2)\nCLOCK_AHEAD_LIMIT = timedelta(seconds=30)\n")
    R(r, "fare_engine/validator_api/handlers.py", '''def error(code''', '''def _seconds_ahead(ts: int, now: datetime) -> float:
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return ts - now.timestamp()


def error(code''')
    R(r, "fare_engine/validator_api/handlers.py", '''        return error("stale_tap", "tap is older than the replay limit", request["seq"])
''', '''        return error("stale_tap", "tap is older than the replay limit", request["seq"])
    if now is not None and _seconds_ahead(request["ts"], now) > CLOCK_AHEAD_LIMIT.total_seconds():
        return error("clock_ahead", "device clock is ahead of the server", request["seq"])
''')


TASKS.append(dict(
    n=6, family="ts-units", position=3, created_at="2024-04-17T09:00:00+00:00",
    problem_statement="""Reject taps from validators whose clock runs fast
Some validators have clocks running fast, so their taps are recorded in the future. When `now` is given, `handle_tap` should also reject a tap whose `ts` is more than 30 seconds ahead of `now`, with error code `clock_ahead`, and not charge the card.
""",
    tests=t6_tests,
    fail_to_pass=["tests/test_validator_api.py::test_tap_from_the_future_rejected"],
    gold=t6_gold,
    decoys=[t6_seconds, t6_fromtimestamp, t6_helper],
))

# ============================================================ fare-table ===

def t7_tests(r):
    A(r, "tests/test_fares.py", '''

def test_zone_5_fares():
    assert single_fare("QHL") == 490
    assert single_fare("KILN") == 490
''')


def _t7_zones(r):
    R(r, "fare_engine/zones.py", '    "QUAR": 4,\n', '    "QUAR": 4,\n    "QHL": 5,\n    "KILN": 5,\n')


def t7_gold(r):
    _t7_zones(r)
    A(r, "data/fares.csv", "5,490\n")
    regen(r)


def t7_table_only(r):
    _t7_zones(r)
    R(r, "fare_engine/fare_table.py", "    4: 440,\n", "    4: 440,\n    5: 490,\n")


def t7_csv_only(r):
    _t7_zones(r)
    A(r, "data/fares.csv", "5,490\n")


def t7_both_by_hand(r):
    _t7_zones(r)
    A(r, "data/fares.csv", "5,490\n")
    R(r, "fare_engine/fare_table.py", "    4: 440,\n", "    4: 440,\n    5: 490,\n")


TASKS.append(dict(
    n=7, family="fare-table", position=1, created_at="2024-04-04T09:00:00+00:00",
    problem_statement="""Add zone 5 for the Quarry Hills extension
The Quarry Hills extension opens on 15 April. The new stops `QHL` and `KILN` are in zone 5, and the adult single fare for zone 5 is $4.90.
""",
    tests=t7_tests,
    fail_to_pass=["tests/test_fares.py::test_zone_5_fares"],
    gold=t7_gold,
    decoys=[t7_table_only, t7_csv_only, t7_both_by_hand],
))


def t8_tests(r):
    R(r, "tests/test_fares.py", 'assert single_fare("CEN") == 250', 'assert single_fare("CEN") == 260')
    R(r, "tests/test_reports.py", 'assert report["revenue_cents"] == 550\n\n\ndef test_night',
      'assert report["revenue_cents"] == 560\n\n\ndef test_night')


def t8_gold(r):
    R(r, "data/fares.csv", "1,250\n", "1,260\n")
    regen(r)


def t8_table_only(r):
    R(r, "fare_engine/fare_table.py", "    1: 250,\n", "    1: 260,\n")


def t8_csv_only(r):
    R(r, "data/fares.csv", "1,250\n", "1,260\n")


def t8_runtime_csv(r):
    R(r, "data/fares.csv", "1,250\n", "1,260\n")
    W(r, "fare_engine/products.py", '''import csv
import pathlib

from .zones import zone_of

FARES_CSV = pathlib.Path(__file__).resolve().parent.parent / "data" / "fares.csv"


def _load_fares() -> dict[int, int]:
    with open(FARES_CSV, newline="", encoding="utf-8") as fh:
        return {int(row["zone"]): int(row["fare_cents"]) for row in csv.DictReader(fh)}


FARES = _load_fares()


def single_fare(stop: str) -> int:
    """List price in cents of a single ride boarding at `stop`."""
    return FARES[zone_of(stop)]
''')


TASKS.append(dict(
    n=8, family="fare-table", position=2, created_at="2024-04-11T09:00:00+00:00",
    problem_statement="""Zone 1 fare goes up to $2.60
From 1 May the zone 1 adult single fare is $2.60 (it is $2.50 today). Concession fares follow from the concession rates as usual.
""",
    tests=t8_tests,
    fail_to_pass=["tests/test_fares.py::test_zone_fares",
                  "tests/test_reports.py::test_report_from_ledger_export"],
    gold=t8_gold,
    decoys=[t8_table_only, t8_csv_only, t8_runtime_csv],
))


def t9_tests(r):
    R(r, "tests/test_fares.py", 'assert single_fare("UNI") == 300', 'assert single_fare("UNI") == 310')
    R(r, "tests/test_fares.py", 'assert concession_fare(300, "adult") == 300',
      'assert concession_fare(310, "child") == 155\n    assert concession_fare(300, "adult") == 300')
    R(r, "tests/test_engine.py", '''    entry = engine.tap("card-1", "UNI", at(4, 8))
    assert entry.kind == "ride"
    assert entry.charged_cents == 300''', '''    entry = engine.tap("card-1", "UNI", at(4, 8))
    assert entry.kind == "ride"
    assert entry.charged_cents == 310''')
    R(r, "tests/test_validator_api.py", '"charged_cents": 300, "display": "$3.00"}',
      '"charged_cents": 310, "display": "$3.10"}')
    R(r, "tests/test_refunds.py", "assert refund.charged_cents == -300", "assert refund.charged_cents == -310")
    R(r, "tests/test_reports.py", 'assert report["revenue_cents"] == 550\n\n\ndef test_night',
      'assert report["revenue_cents"] == 560\n\n\ndef test_night')


def t9_gold(r):
    R(r, "data/fares.csv", "2,300\n", "2,310\n")
    regen(r)


def t9_runtime_csv(r):
    t8_runtime_csv(r)
    R(r, "data/fares.csv", "1,260\n", "1,250\n")
    R(r, "data/fares.csv", "2,300\n", "2,310\n")


def t9_table_loads_csv(r):
    R(r, "data/fares.csv", "2,300\n", "2,310\n")
    W(r, "fare_engine/fare_table.py", '''import csv
import hashlib
import io
import pathlib

_CSV_TEXT = (pathlib.Path(__file__).resolve().parent.parent / "data" / "fares.csv").read_text(encoding="utf-8")

SOURCE_SHA256 = hashlib.sha256(_CSV_TEXT.encode("utf-8")).hexdigest()

FARES = {
    int(row["zone"]): int(row["fare_cents"])
    for row in csv.DictReader(io.StringIO(_CSV_TEXT))
}
''')


def t9_table_and_guard(r):
    R(r, "data/fares.csv", "2,300\n", "2,310\n")
    R(r, "fare_engine/fare_table.py", "    2: 300,\n", "    2: 310,\n")
    R(r, "fare_engine/products.py", '''    return FARES[zone_of(stop)]''', '''    zone = zone_of(stop)
    if zone not in FARES:
        raise KeyError(f"no fare defined for zone {zone}")
    return FARES[zone]''')


TASKS.append(dict(
    n=9, family="fare-table", position=3, created_at="2024-04-18T09:00:00+00:00",
    problem_statement="""Zone 2 fare goes up to $3.10
The board approved a new zone 2 adult single fare of $3.10 (it is $3.00 today). Please make the engine charge the new fare.
""",
    tests=t9_tests,
    fail_to_pass=["tests/test_fares.py::test_zone_fares",
                  "tests/test_engine.py::test_single_ride_charges_zone_fare",
                  "tests/test_validator_api.py::test_tap_ok",
                  "tests/test_refunds.py::test_refund_ride",
                  "tests/test_reports.py::test_report_from_ledger_export"],
    gold=t9_gold,
    decoys=[t9_runtime_csv, t9_table_loads_csv, t9_table_and_guard],
))

# ========================================================= refund-linked ===

def t10_tests(r):
    W(r, "tests/test_disruption_refunds.py", '''from datetime import date

from fare_engine.engine import FareEngine
from fare_engine.refunds import RefundDesk

from .helpers import at


def _setup():
    engine = FareEngine()
    return engine, RefundDesk(engine.ledger, engine.caps)


def _rides(engine):
    child = engine.tap("card-c", "HARB", at(4, 8, 10), concession="child")
    engine.tap("card-a", "CEN", at(4, 4, 30))
    engine.tap("card-a", "UNI", at(4, 6, 10))
    capped = engine.tap("card-a", "HARB", at(4, 8, 5))
    engine.tap("card-b", "HARB", at(4, 7, 30))
    return child, capped


def test_disruption_refunds_what_was_paid():
    engine, desk = _setup()
    child, capped = _rides(engine)
    assert (child.charged_cents, capped.charged_cents) == (195, 350)
    refunds = desk.refund_disruption("HARB", at(4, 8), at(4, 9), at(4, 9, 30))
    assert sorted((r.card_id, r.charged_cents) for r in refunds) == [("card-a", -350), ("card-c", -195)]
    assert all(r.kind == "refund" for r in refunds)


def test_disruption_refund_frees_the_cap():
    engine, desk = _setup()
    _rides(engine)
    desk.refund_disruption("HARB", at(4, 8), at(4, 9), at(4, 9, 30))
    assert engine.tap("card-a", "HARB", at(4, 10)).charged_cents == 350


def test_disruption_refund_ignores_refund_window():
    engine, desk = _setup()
    _rides(engine)
    refunds = desk.refund_disruption("HARB", at(4, 8), at(4, 9), at(7, 12))
    assert len(refunds) == 2


def test_disruption_refund_skips_already_refunded():
    engine, desk = _setup()
    child, _ = _rides(engine)
    desk.refund(child.entry_id, at(4, 9))
    refunds = desk.refund_disruption("HARB", at(4, 8), at(4, 9), at(4, 9, 30))
    assert [r.card_id for r in refunds] == ["card-a"]


def test_night_disruption_refund_releases_the_rides_day():
    engine, desk = _setup()
    engine.tap("card-n", "HARB", at(5, 3, 40))
    desk.refund_disruption("HARB", at(5, 3), at(5, 4), at(5, 10))
    assert engine.caps.spent("card-n", date(2024, 3, 4)) == 0
''')


T10_HEAD = '''

    def refund_disruption(self, stop: str, start: datetime, end: datetime, now: datetime) -> list[Entry]:
        refunds = []
        for entry in list(self.ledger):
            if entry.kind != "ride" or entry.stop != stop or not (start <= entry.at < end):
                continue
            if self.ledger.refunds_of(entry.entry_id):
                continue
'''
T10_ADD = '''            refunds.append(self.ledger.add(card_id=entry.card_id, at=now, stop=entry.stop, kind="refund",
                                           fare_cents=entry.fare_cents, charged_cents=-amount,
                                           concession=entry.concession, refund_of=entry.entry_id))
        return refunds
'''


def t10_gold(r):
    A(r, "fare_engine/refunds.py", T10_HEAD + '''            amount = entry.charged_cents
            self.caps.release(entry.card_id, entry.at, amount)
''' + T10_ADD)


def t10_no_release(r):
    A(r, "fare_engine/refunds.py", T10_HEAD + '''            amount = entry.charged_cents
''' + T10_ADD)


def t10_concession_price(r):
    R(r, "fare_engine/refunds.py", "from .caps import CapTracker\n",
      "from .caps import CapTracker\nfrom .concessions import concession_fare\n")
    A(r, "fare_engine/refunds.py", T10_HEAD + '''            amount = concession_fare(entry.fare_cents, entry.concession)
            self.caps.release(entry.card_id, entry.at, amount)
''' + T10_ADD)


def t10_reuse_refund(r):
    A(r, "fare_engine/refunds.py", '''

    def refund_disruption(self, stop: str, start: datetime, end: datetime, now: datetime) -> list[Entry]:
        refunds = []
        for entry in list(self.ledger):
            if entry.kind == "ride" and entry.stop == stop and start <= entry.at < end:
                try:
                    refunds.append(self.refund(entry.entry_id, now))
                except RefundError:
                    continue
        return refunds
''')


TASKS.append(dict(
    n=10, family="refund-linked", position=1, created_at="2024-04-05T09:00:00+00:00",
    problem_statement="""Refund every ride affected by a disruption
When a line is disrupted, operations refunds every ride that boarded at the affected stop during the disruption. Please add `RefundDesk.refund_disruption(stop, start, end, now)` to `fare_engine/refunds.py`: it refunds all rides that boarded at `stop` with `start <= at < end`, skips rides that were already refunded, and returns the new refund entries. Disruption refunds are not limited by the normal refund window.
""",
    tests=t10_tests,
    fail_to_pass=["tests/test_disruption_refunds.py::test_disruption_refunds_what_was_paid",
                  "tests/test_disruption_refunds.py::test_disruption_refund_frees_the_cap",
                  "tests/test_disruption_refunds.py::test_disruption_refund_ignores_refund_window",
                  "tests/test_disruption_refunds.py::test_disruption_refund_skips_already_refunded",
                  "tests/test_disruption_refunds.py::test_night_disruption_refund_releases_the_rides_day"],
    gold=t10_gold,
    decoys=[t10_no_release, t10_concession_price, t10_reuse_refund],
))


def t11_tests(r):
    W(r, "tests/test_partial_refunds.py", '''from datetime import date

import pytest

from fare_engine.engine import FareEngine
from fare_engine.refunds import RefundDesk, RefundError

from .helpers import at


def _setup():
    engine = FareEngine()
    return engine, RefundDesk(engine.ledger, engine.caps)


def test_partial_refunds_never_exceed_what_was_paid():
    engine, desk = _setup()
    ride = engine.tap("card-c", "HARB", at(4, 8), concession="child")
    assert desk.refund_partial(ride.entry_id, 100, at(4, 9)).charged_cents == -100
    assert desk.refund_partial(ride.entry_id, 200, at(4, 9, 5)).charged_cents == -95
    with pytest.raises(RefundError):
        desk.refund_partial(ride.entry_id, 10, at(4, 9, 10))


def test_partial_refund_of_capped_ride():
    engine, desk = _setup()
    rides = [engine.tap("card-a", "HARB", at(4, h)) for h in (6, 8, 10)]
    assert rides[2].charged_cents == 120
    assert desk.refund_partial(rides[2].entry_id, 200, at(4, 11)).charged_cents == -120


def test_partial_refund_frees_the_cap():
    engine, desk = _setup()
    rides = [engine.tap("card-b", "HARB", at(4, h)) for h in (6, 8, 10)]
    desk.refund_partial(rides[1].entry_id, 100, at(4, 11))
    assert engine.tap("card-b", "HARB", at(4, 13)).charged_cents == 100


def test_partial_refund_next_morning_releases_the_rides_day():
    engine, desk = _setup()
    ride = engine.tap("card-n", "HARB", at(5, 3, 30))
    desk.refund_partial(ride.entry_id, 150, at(5, 9))
    assert engine.caps.spent("card-n", date(2024, 3, 4)) == 240


def test_partial_refund_respects_window():
    engine, desk = _setup()
    ride = engine.tap("card-w", "UNI", at(4, 8))
    with pytest.raises(RefundError):
        desk.refund_partial(ride.entry_id, 100, at(7, 8))
''')


T11_HEAD = '''

    def refund_partial(self, entry_id: int, cents: int, now: datetime) -> Entry:
        entry = self.ledger.get(entry_id)
        if entry.kind != "ride":
            raise RefundError(f"entry {entry_id} is a {entry.kind}, only rides can be refunded")
        if now - entry.at > REFUND_WINDOW:
            raise RefundError(f"entry {entry_id} is outside the refund window")
        already = -sum(r.charged_cents for r in self.ledger.refunds_of(entry_id))
'''
T11_TAIL = '''        return self.ledger.add(card_id=entry.card_id, at=now, stop=entry.stop, kind="refund",
                               fare_cents=entry.fare_cents, charged_cents=-amount,
                               concession=entry.concession, refund_of=entry_id)
'''


def t11_gold(r):
    A(r, "fare_engine/refunds.py", T11_HEAD + '''        refundable = entry.charged_cents - already
        amount = min(cents, refundable)
        if amount <= 0:
            raise RefundError(f"entry {entry_id} has nothing left to refund")
        self.caps.release(entry.card_id, entry.at, amount)
''' + T11_TAIL)


def t11_fare_cents(r):
    A(r, "fare_engine/refunds.py", T11_HEAD + '''        amount = min(cents, entry.fare_cents - already)
        if amount <= 0:
            raise RefundError(f"entry {entry_id} has nothing left to refund")
        self.caps.release(entry.card_id, entry.at, amount)
''' + T11_TAIL)


def t11_no_release(r):
    A(r, "fare_engine/refunds.py", T11_HEAD + '''        amount = min(cents, entry.charged_cents - already)
        if amount <= 0:
            raise RefundError(f"entry {entry_id} has nothing left to refund")
''' + T11_TAIL)


def t11_release_now(r):
    A(r, "fare_engine/refunds.py", T11_HEAD + '''        amount = min(cents, entry.charged_cents - already)
        if amount <= 0:
            raise RefundError(f"entry {entry_id} has nothing left to refund")
        self.caps.release(entry.card_id, now, amount)
''' + T11_TAIL)


TASKS.append(dict(
    n=11, family="refund-linked", position=2, created_at="2024-04-12T09:00:00+00:00",
    problem_statement="""Partial refunds for short-turned trips
When a trip is short-turned, customer service refunds part of the fare. Please add `RefundDesk.refund_partial(entry_id, cents, now)` to `fare_engine/refunds.py`. The same eligibility rules as `refund()` apply (only rides, within the refund window), a ride may get several partial refunds, and the total refunded for a ride can never go above what can still be refunded for it: a request for more is reduced to what is left, and a request when nothing is left raises `RefundError`.
""",
    tests=t11_tests,
    fail_to_pass=["tests/test_partial_refunds.py::test_partial_refunds_never_exceed_what_was_paid",
                  "tests/test_partial_refunds.py::test_partial_refund_of_capped_ride",
                  "tests/test_partial_refunds.py::test_partial_refund_frees_the_cap",
                  "tests/test_partial_refunds.py::test_partial_refund_next_morning_releases_the_rides_day",
                  "tests/test_partial_refunds.py::test_partial_refund_respects_window"],
    gold=t11_gold,
    decoys=[t11_fare_cents, t11_no_release, t11_release_now],
))


def t12_tests(r):
    W(r, "tests/test_validator_refund.py", '''from datetime import date, datetime, timezone

from fare_engine.engine import FareEngine
from fare_engine.validator_api.handlers import handle_refund

from .helpers import at


def _tap(engine, card, stop, when, device="val-17", **kw):
    return engine.tap(card, stop, when, device_id=device, seq=1, **kw)


def test_refund_last_tap_refunds_what_was_paid():
    engine = FareEngine()
    _tap(engine, "card-c", "HARB", at(4, 8), concession="child")
    response = handle_refund(engine, {"device_id": "val-17", "seq": 9, "card_id": "card-c"}, at(4, 8, 5))
    assert response == {"ok": True, "seq": 9, "refunded_cents": 195}


def test_refund_capped_tap():
    engine = FareEngine()
    for h in (6, 8):
        _tap(engine, "card-a", "HARB", at(4, h), device="val-2")
    _tap(engine, "card-a", "HARB", at(4, 10))
    response = handle_refund(engine, {"device_id": "val-17", "seq": 3, "card_id": "card-a"}, at(4, 10, 2))
    assert response["refunded_cents"] == 120


def test_refund_frees_the_cap():
    engine = FareEngine()
    _tap(engine, "card-b", "HARB", at(4, 6), device="val-2")
    _tap(engine, "card-b", "HARB", at(4, 8))
    handle_refund(engine, {"device_id": "val-17", "seq": 4, "card_id": "card-b"}, at(4, 8, 1))
    charged = [_tap(engine, "card-b", "HARB", at(4, h), device="val-2").charged_cents for h in (10, 12)]
    assert charged == [390, 120]


def test_refund_across_the_service_day_boundary():
    engine = FareEngine()
    _tap(engine, "card-n", "HARB", at(5, 3, 55))
    handle_refund(engine, {"device_id": "val-17", "seq": 5, "card_id": "card-n"}, at(5, 4, 2))
    assert engine.caps.spent("card-n", date(2024, 3, 4)) == 0


def test_nothing_to_refund():
    engine = FareEngine()
    _tap(engine, "card-d", "UNI", at(4, 8))
    late = handle_refund(engine, {"device_id": "val-17", "seq": 6, "card_id": "card-d"}, at(4, 8, 11))
    assert late["ok"] is False and late["error"] == "nothing_to_refund"
    other = handle_refund(engine, {"device_id": "val-99", "seq": 7, "card_id": "card-d"}, at(4, 8, 1))
    assert other["error"] == "nothing_to_refund"
    now = datetime(2024, 3, 4, 8, 2, tzinfo=timezone.utc)
    assert handle_refund(engine, {"device_id": "val-17", "seq": 8, "card_id": "card-d"}, now)["ok"] is True
    again = handle_refund(engine, {"device_id": "val-17", "seq": 9, "card_id": "card-d"}, now)
    assert again["error"] == "nothing_to_refund"
''')


T12_HEAD = '''

DRIVER_REFUND_WINDOW = timedelta(minutes=10)


def _last_refundable_ride(engine: FareEngine, device_id: str, card_id: str, now: datetime):
    for entry in reversed(engine.ledger.for_card(card_id)):
        if entry.kind == "ride" and entry.device_id == device_id:
            if now - entry.at <= DRIVER_REFUND_WINDOW and not engine.ledger.refunds_of(entry.entry_id):
                return entry
            return None
    return None


def handle_refund(engine: FareEngine, request: dict, now: datetime) -> dict:
    entry = _last_refundable_ride(engine, request["device_id"], request["card_id"], now)
    if entry is None:
        return error("nothing_to_refund", "no recent ride to refund", request["seq"])
'''


def t12_gold(r):
    R(r, "fare_engine/validator_api/handlers.py", "from ..money import format_cents\n",
      "from ..money import format_cents\nfrom ..refunds import RefundDesk\n")
    A(r, "fare_engine/validator_api/handlers.py", T12_HEAD + '''    refund = RefundDesk(engine.ledger, engine.caps).refund(entry.entry_id, now)
    return {"ok": True, "seq": request["seq"], "refunded_cents": -refund.charged_cents}
''')


def _t12_manual(r, amount_line, release_line):
    A(r, "fare_engine/validator_api/handlers.py", T12_HEAD + amount_line + release_line + '''    engine.ledger.add(card_id=entry.card_id, at=now, stop=entry.stop, kind="refund",
                      fare_cents=entry.fare_cents, charged_cents=-amount,
                      concession=entry.concession, device_id=request["device_id"],
                      seq=request["seq"], refund_of=entry.entry_id)
    return {"ok": True, "seq": request["seq"], "refunded_cents": amount}
''')


def t12_fare_cents(r):
    _t12_manual(r, "    amount = entry.fare_cents\n", "    engine.caps.release(entry.card_id, entry.at, amount)\n")


def t12_no_release(r):
    _t12_manual(r, "    amount = entry.charged_cents\n", "")


def t12_release_now(r):
    _t12_manual(r, "    amount = entry.charged_cents\n", "    engine.caps.release(entry.card_id, now, amount)\n")


TASKS.append(dict(
    n=12, family="refund-linked", position=3, created_at="2024-04-19T09:00:00+00:00",
    problem_statement="""Driver refund of the last tap from the validator
Drivers can now press "refund last tap" on a validator when a rider was charged by mistake. Please add `handle_refund(engine, request, now)` to `fare_engine/validator_api/handlers.py`. The request has `device_id`, `seq` and `card_id`. It refunds the card's most recent ride recorded by that device, if that ride is at most 10 minutes old and not refunded yet, and replies `{"ok": True, "seq": ..., "refunded_cents": N}`. Otherwise it replies with error code `nothing_to_refund`.
""",
    tests=t12_tests,
    fail_to_pass=["tests/test_validator_refund.py::test_refund_last_tap_refunds_what_was_paid",
                  "tests/test_validator_refund.py::test_refund_capped_tap",
                  "tests/test_validator_refund.py::test_refund_frees_the_cap",
                  "tests/test_validator_refund.py::test_refund_across_the_service_day_boundary",
                  "tests/test_validator_refund.py::test_nothing_to_refund"],
    gold=t12_gold,
    decoys=[t12_fare_cents, t12_no_release, t12_release_now],
))
