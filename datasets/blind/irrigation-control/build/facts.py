"""Write facts.jsonl and memories/oracle.jsonl (run after build.py, before tasks.py)."""

import json
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
REPO = "acme-farm/irrigation-control"

shas = json.loads((BUILD / "out" / "shas.json").read_text())
sessions = {json.loads(l)["instance_id"]: json.loads(l) for l in (CORPUS / "sessions.jsonl").read_text().splitlines()}
RULE_COMMIT = shas["c10-run-limit-900"]


def ended(*names):
    return max(sessions[n]["ended_at"] for n in names)


def cites(names, files, extra=()):
    return [{"kind": "session", "ref": n} for n in names] + [{"kind": "file", "ref": f, "path": f} for f in files] + list(extra)


FACTS = [
    {
        "family": "valve-run-limit",
        "fact": (
            "The valve controllers reject (NAK E_RUN_LIMIT) any single OPEN that runs longer than the per-OPEN "
            "run limit, so every code path that sends OPEN commands has to split a longer watering into "
            "consecutive OPENs of at most the limit, as split_run() with MAX_RUN_S in "
            "irrigation/schedule/planner.py does. The limit was 600 s; since pump controller firmware 3.2 "
            "it is 900 s."
        ),
        "identifiers": ["MAX_RUN_S", "split_run", "irrigation/schedule/planner.py", "E_RUN_LIMIT", "900 s"],
        "kind": "rule_change",
        "sessions": ["s02-split-long-runs", "s09-release-0-4-0"],
        "superseded": {
            "old": "a single OPEN may run at most 600 s; longer runs are split into 600 s pieces",
            "new": "a single OPEN may run at most 900 s (pump controller firmware 3.2); longer runs are split into 900 s pieces",
            "commit": RULE_COMMIT,
        },
    },
    {
        "family": "ledger-deciliters",
        "fact": (
            "Inside irrigation/budget/ the Ledger keeps volumes as integer deciliters: record() multiplies "
            "liters by RESOLUTION (10), and Ledger.rows() and Ledger.total() return those raw amounts; only "
            "Ledger.used_liters() (and remaining_liters() in irrigation/budget/limits.py) give liters. Outside "
            "the budget module (reports, planner, alerts) volumes are liters: take them from used_liters() or "
            "remaining_liters(), never from total()/rows(), and never divide them by RESOLUTION again."
        ),
        "identifiers": ["Ledger.total", "Ledger.rows", "Ledger.used_liters", "RESOLUTION", "remaining_liters",
                        "irrigation/budget/ledger.py"],
        "kind": "module_only",
        "module": "irrigation/budget/",
        "sessions": ["s04-daily-budget-cap", "s07-qa-report-left-column"],
    },
    {
        "family": "zone-moisture-from-probes",
        "fact": (
            "A zone's current moisture needs two rules learned in different sessions: (1) gateway readings "
            "with status \"S\" are stale (the probe stopped answering and the gateway fills in a meaningless "
            "VWC such as 0.12 or 0.00) and must be dropped before taking each probe's latest reading; "
            "(2) a zone is as wet as its driest probe: use the minimum of the probes' latest readings, not "
            "the mean."
        ),
        "identifiers": ["Reading.status", "\"S\"", "latest_by_probe", "for_zone", "zone_vwc", "min"],
        "kind": "linked",
        "sessions": ["s03-stale-readings-alerts", "s06-plan-from-readings"],
    },
    {
        "family": "opcode-table-regeneration",
        "fact": (
            "irrigation/valves/_opcodes.py is generated from irrigation/valves/opcodes.csv and embeds a "
            "SOURCE_DIGEST of the CSV that tests/test_opcodes.py::test_table_matches_source checks. To add "
            "or change a valve opcode, edit opcodes.csv (several arguments separated by ';' in the args "
            "column) and regenerate the table with `python scripts/gen_opcodes.py` (it was `python -m "
            "irrigation.tools.gen_opcodes` before the generator moved to scripts/); never edit _opcodes.py "
            "by hand and never hard-code an opcode in commands.py; then add the helper that calls encode()."
        ),
        "identifiers": ["irrigation/valves/opcodes.csv", "irrigation/valves/_opcodes.py", "scripts/gen_opcodes.py",
                        "SOURCE_DIGEST", "test_table_matches_source", "encode"],
        "kind": "procedure",
        "sessions": ["s01-flush-command", "s05-lock-unlock-commands", "s08-pulse-command", "s09-release-0-4-0"],
    },
]

MEMORIES = [
    ("valve-run-limit", {
        "type": "domain",
        "scope": {"repo": REPO},
        "summary": (
            "Valve controllers NAK (E_RUN_LIMIT) any single OPEN longer than 900 s since pump controller "
            "firmware 3.2 (it was 600 s before). Any code that emits OPEN commands (manual watering, catch-up, "
            "audits, ...) must split longer waterings into consecutive OPENs of at most MAX_RUN_S = 900 s, "
            "e.g. with split_run() from irrigation/schedule/planner.py, and anything that checks OPEN "
            "durations must use 900 s, not 600 s."
        ),
        "conditions": ["emitting or checking valve OPEN commands", "a watering longer than 15 minutes"],
        "citations": cites(["s02-split-long-runs", "s09-release-0-4-0"], ["irrigation/schedule/planner.py"],
                           [{"kind": "commit", "ref": RULE_COMMIT}]),
        "created_at": ended("s02-split-long-runs", "s09-release-0-4-0"),
        "links": [{"relation": "supersedes", "target": "per-OPEN run limit of 600 s"}],
    }),
    ("ledger-deciliters", {
        "type": "domain",
        "scope": {"repo": REPO, "module": "irrigation/budget/"},
        "summary": (
            "In irrigation/budget/ the Ledger stores volumes as integer deciliters: record() multiplies liters by "
            "RESOLUTION (10); Ledger.rows() and Ledger.total() return those raw deciliter amounts. Convert with "
            "/ RESOLUTION (as Ledger.used_liters() does) when returning liters, and go through record() (or "
            "multiply by RESOLUTION) when storing liters."
        ),
        "conditions": ["reading or writing Ledger rows or totals", "adding Ledger methods"],
        "citations": cites(["s04-daily-budget-cap", "s07-qa-report-left-column"],
                           ["irrigation/budget/ledger.py", "irrigation/budget/limits.py"]),
        "created_at": ended("s04-daily-budget-cap", "s07-qa-report-left-column"),
    }),
    ("ledger-deciliters", {
        "type": "failure",
        "scope": {"repo": REPO, "module": "irrigation/reports/"},
        "summary": (
            "Outside irrigation/budget/ (reports, planner, alerts) volumes are liters. Take them from "
            "Ledger.used_liters() or remaining_liters(); Ledger.total() is in deciliters (10x) and used_liters() is "
            "already liters, so never divide it by RESOLUTION again. The daily report's left column was wrong "
            "because it used Ledger.total() as liters."
        ),
        "conditions": ["showing or comparing water volumes outside the budget module"],
        "citations": cites(["s04-daily-budget-cap", "s07-qa-report-left-column"],
                           ["irrigation/reports/daily.py", "irrigation/budget/ledger.py"]),
        "created_at": ended("s04-daily-budget-cap", "s07-qa-report-left-column"),
    }),
    ("zone-moisture-from-probes", {
        "type": "failure",
        "scope": {"repo": REPO},
        "summary": (
            "Probe readings whose Reading.status is \"S\" are stale: the gateway marks a probe that stopped "
            "answering with status S and fills in a meaningless VWC (0.12, 0.00). Drop them before using readings "
            "(before latest_by_probe()), not by filtering on the value."
        ),
        "conditions": ["using moisture readings from the gateway"],
        "citations": cites(["s03-stale-readings-alerts"], ["irrigation/sensors/readings.py", "irrigation/alerts/rules.py"]),
        "created_at": ended("s03-stale-readings-alerts"),
        "links": [{"relation": "related", "target": "a zone's moisture is its driest probe's latest reading"}],
    }),
    ("zone-moisture-from-probes", {
        "type": "domain",
        "scope": {"repo": REPO},
        "summary": (
            "Agronomy rule: a zone is only as wet as its driest probe. A zone's moisture is the minimum of the "
            "latest reading of each of its probes (for_zone() + latest_by_probe() + min), never the mean, as "
            "zone_vwc() in irrigation/schedule/planner.py does."
        ),
        "conditions": ["computing a zone's moisture from several probes"],
        "citations": cites(["s06-plan-from-readings"], ["irrigation/schedule/planner.py"]),
        "created_at": ended("s06-plan-from-readings"),
        "links": [{"relation": "related", "target": "readings with status \"S\" are stale and must be dropped first"}],
    }),
    ("opcode-table-regeneration", {
        "type": "procedural",
        "scope": {"repo": REPO},
        "summary": (
            "To add or change a valve opcode: edit irrigation/valves/opcodes.csv (arguments separated by ';' in "
            "the args column), run `python scripts/gen_opcodes.py` to regenerate irrigation/valves/_opcodes.py "
            "(formerly `python -m irrigation.tools.gen_opcodes`), then add the helper in commands.py that calls "
            "encode(). Never hand-edit _opcodes.py or hard-code opcodes: its SOURCE_DIGEST must match the CSV "
            "(test_table_matches_source) and decode() reads the generated table."
        ),
        "conditions": ["adding, renumbering or changing a valve command"],
        "citations": cites(["s01-flush-command", "s05-lock-unlock-commands", "s08-pulse-command", "s09-release-0-4-0"],
                           ["scripts/gen_opcodes.py", "irrigation/valves/opcodes.csv", "irrigation/valves/_opcodes.py"]),
        "created_at": ended("s01-flush-command", "s05-lock-unlock-commands", "s08-pulse-command", "s09-release-0-4-0"),
    }),
]

with open(CORPUS / "facts.jsonl", "w") as fh:
    for fact in FACTS:
        fh.write(json.dumps(fact) + "\n")
(CORPUS / "memories").mkdir(exist_ok=True)
with open(CORPUS / "memories" / "oracle.jsonl", "w") as fh:
    for _, memory in MEMORIES:
        fh.write(json.dumps(memory) + "\n")
(BUILD / "out").mkdir(exist_ok=True)
(BUILD / "out" / "memory_families.json").write_text(json.dumps([fam for fam, _ in MEMORIES]) + "\n")
print(f"{len(FACTS)} facts, {len(MEMORIES)} memories")
