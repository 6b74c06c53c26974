"""The four facts and their oracle memories (facts.jsonl, memories/oracle.jsonl)."""
from __future__ import annotations

import json
from pathlib import Path

REPO = "acme-transit/fare-engine"
S = "acme-transit__fare-engine-"


def _ended(corpus: Path) -> dict[str, str]:
    out = {}
    for line in (corpus / "sessions.jsonl").read_text().splitlines():
        row = json.loads(line)
        out[row["instance_id"]] = row["ended_at"]
    return out


def _commits() -> dict:
    return json.loads((Path(__file__).resolve().parent / "commits.json").read_text())


def facts(commits: dict) -> list[dict]:
    rule_commit = commits["service-day-0400"]
    return [
        {
            "family": "service-day",
            "fact": "Anything bucketed by day (the daily cap, the daily revenue report, per-day look-ups "
                    "of taps or refunds) must use service_day() from fare_engine/service_day.py, never the "
                    "calendar date of the timestamp or a local cut-off constant. The service day starts at "
                    "SERVICE_DAY_START_HOUR: 03:00 when the sessions ran, 04:00 since the night network "
                    "extension commit, so a tap at 03:30 now belongs to the previous day.",
            "identifiers": ["service_day", "SERVICE_DAY_START_HOUR", "fare_engine/service_day.py"],
            "kind": "rule_change",
            "sessions": [S + "i12", S + "i15", S + "i16"],
            "superseded": {
                "old": "the service day starts at 03:00 (SERVICE_DAY_START_HOUR = 3)",
                "new": "the service day starts at 04:00 (SERVICE_DAY_START_HOUR = 4)",
                "commit": rule_commit,
            },
        },
        {
            "family": "ts-units",
            "fact": "The field ts means different units in different modules: in fare_engine/validator_api/ "
                    "(validator requests) ts is epoch milliseconds and is converted with device_time() from "
                    "fare_engine/validator_api/clock.py; in fare_engine/reports/ (the backend ledger export, "
                    "also what Ledger.export_rows() writes) ts is epoch seconds, parsed with "
                    "datetime.fromtimestamp(int(ts), tz) in fare_engine/reports/ingest.py (formerly "
                    "reports/rows.py). The two conversions must not be shared.",
            "identifiers": ["device_time", "fare_engine/validator_api/clock.py",
                            "fare_engine/reports/ingest.py"],
            "kind": "module_only",
            "sessions": [S + "i14", S + "i18", S + "i19"],
            "module": "fare_engine/validator_api/",
        },
        {
            "family": "fare-table",
            "fact": "Zone fares are changed in data/fares.csv and then fare_engine/fare_table.py is regenerated "
                    "with `python tools/gen_fare_table.py` (it writes FARES and the CSV's SOURCE_SHA256); "
                    "fare_table.py is never edited by hand, and tests/test_fare_table_sync.py fails unless the "
                    "file is exactly the generator's output.",
            "identifiers": ["data/fares.csv", "tools/gen_fare_table.py", "fare_engine/fare_table.py",
                            "SOURCE_SHA256", "test_fare_table_sync"],
            "kind": "procedure",
            "sessions": [S + "i20", S + "i22", S + "i23", S + "i29"],
        },
        {
            "family": "refund-linked",
            "fact": "Any refund needs two things: (1) the amount refunded is the ride entry's charged_cents "
                    "(what the rider paid after concession, transfer and cap), never fare_cents or a "
                    "recomputed concession price; (2) the refunded amount is given back to the daily cap with "
                    "CapTracker.release(card_id, entry.at, cents), using the ride's time entry.at (its service "
                    "day), not the time of the refund.",
            "identifiers": ["charged_cents", "CapTracker.release", "fare_engine/caps.py"],
            "kind": "linked",
            "sessions": [S + "i25", S + "i27"],
        },
    ]


def _sess(*ids):
    return [{"kind": "session", "ref": S + i} for i in ids]


def _file(path):
    return {"kind": "file", "ref": path, "path": path}


def oracle_rows(corpus: Path | None = None, commits: dict | None = None) -> dict[str, list[dict]]:
    corpus = corpus or Path(__file__).resolve().parent.parent
    commits = commits or _commits()
    ended = _ended(corpus)
    repo = {"repo": REPO}
    return {
        "service-day": [{
            "type": "domain",
            "scope": repo,
            "summary": "Bucket anything by day (caps, daily revenue report, per-day look-ups of taps, rides or "
                       "refunds) with service_day() from fare_engine/service_day.py, not with the calendar date "
                       "of the timestamp and not with a cut-off constant of your own (a reviewer rejected a "
                       "second cut-off in reports/). The service day starts at SERVICE_DAY_START_HOUR, which "
                       "was 3 (03:00) and is 4 (04:00) since the night network extension commit: a tap at 03:30 "
                       "belongs to the previous day.",
            "conditions": ["grouping or filtering taps, charges, ledger entries or report rows by day",
                           "code that compares a timestamp's day with a date"],
            "citations": _sess("i12", "i15", "i16") + [
                _file("fare_engine/service_day.py"),
                {"kind": "commit", "ref": commits["service-day-0400"]},
            ],
            "created_at": ended[S + "i16"],
        }],
        "ts-units": [
            {
                "type": "failure",
                "scope": {"repo": REPO, "module": "fare_engine/validator_api/"},
                "summary": "Validator requests carry ts in epoch milliseconds: convert it with device_time() "
                           "from fare_engine/validator_api/clock.py (it divides by 1000). Treating it as seconds "
                           "(datetime.fromtimestamp(ts) or comparing with now.timestamp()) fails with "
                           "'year 56143 is out of range' or gives absurd differences.",
                "conditions": ["reading or comparing the ts of a validator request"],
                "citations": _sess("i14", "i19") + [_file("fare_engine/validator_api/clock.py")],
                "created_at": ended[S + "i19"],
            },
            {
                "type": "failure",
                "scope": {"repo": REPO, "module": "fare_engine/reports/"},
                "summary": "The backend ledger export read by fare_engine/reports/ has ts in epoch seconds, "
                           "parsed with datetime.fromtimestamp(int(ts), tz) in fare_engine/reports/ingest.py "
                           "(formerly reports/rows.py), and Ledger.export_rows() writes seconds too. Do not reuse "
                           "the validator's device_time() or milliseconds there: QA found every row dated "
                           "1970-01-20 when that was tried.",
                "conditions": ["parsing or writing ts in the ledger export or in reports"],
                "citations": _sess("i18", "i19") + [_file("fare_engine/reports/ingest.py"),
                                                   _file("fare_engine/ledger.py")],
                "created_at": ended[S + "i19"],
            },
        ],
        "fare-table": [{
            "type": "procedural",
            "scope": repo,
            "summary": "To change or add a zone fare, edit data/fares.csv and run `python tools/gen_fare_table.py` "
                       "to regenerate fare_engine/fare_table.py (FARES and the CSV's SOURCE_SHA256). Never edit "
                       "fare_table.py by hand: tests/test_fare_table_sync.py compares it with the generator's "
                       "output. Then update tests that hard-code the old fares and run the suite.",
            "conditions": ["changing, adding or removing a zone fare"],
            "citations": _sess("i20", "i22", "i23", "i29") + [
                _file("data/fares.csv"), _file("tools/gen_fare_table.py"), _file("fare_engine/fare_table.py"),
            ],
            "created_at": ended[S + "i29"],
        }],
        "refund-linked": [
            {
                "type": "domain",
                "scope": repo,
                "summary": "A refund gives back the ride entry's charged_cents (what the rider actually paid "
                           "after concession, transfer and daily cap), never fare_cents (the zone list price) "
                           "and not a price recomputed with concession_fare(), which ignores the cap.",
                "conditions": ["writing any refund of a ride"],
                "citations": _sess("i25") + [_file("fare_engine/refunds.py")],
                "created_at": ended[S + "i25"],
                "links": [{"relation": "related", "target": "refunds must also call CapTracker.release with the ride's entry.at"}],
            },
            {
                "type": "failure",
                "scope": repo,
                "summary": "Every refund must also give the refunded amount back to the daily cap with "
                           "CapTracker.release(card_id, entry.at, cents) from fare_engine/caps.py, using the "
                           "ride's time entry.at (its service day) and not the refund time; otherwise later rides "
                           "that day are under-charged or the wrong day's cap is released.",
                "conditions": ["writing any refund of a ride"],
                "citations": _sess("i27") + [_file("fare_engine/caps.py"), _file("fare_engine/refunds.py")],
                "created_at": ended[S + "i27"],
                "links": [{"relation": "related", "target": "the refunded amount is the entry's charged_cents"}],
            },
        ],
    }


def write(corpus: Path, commits: dict) -> None:
    rows = facts(commits)
    oracle = oracle_rows(corpus, commits)
    with open(corpus / "facts.jsonl", "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    (corpus / "memories").mkdir(exist_ok=True)
    with open(corpus / "memories" / "oracle.jsonl", "w") as fh:
        for row in rows:
            for mem in oracle[row["family"]]:
                fh.write(json.dumps(mem) + "\n")
