"""Make tasks.jsonl, facts.jsonl and memories/oracle.jsonl (run after build/build.py).

Candidates are produced as real diffs in a scratch clone of the built repository at the base
commit; FAIL_TO_PASS / PASS_TO_PASS are measured by running pytest there."""

import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from build import CORPUS, REPO, SCRATCH, SESSION_ENV, VENV, WORK  # noqa: E402
from task_defs import TASKS  # noqa: E402

CLONE = os.path.join(SCRATCH, "taskwork")
PY = os.path.join(VENV, "bin", "python")


def sh(cmd, cwd=CLONE, check=True, input=None):
    return subprocess.run(cmd, cwd=cwd, env=SESSION_ENV, check=check, shell=isinstance(cmd, str),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, input=input)


def reset(base):
    sh(["git", "checkout", "-q", "-f", base])
    sh(["git", "clean", "-fdqx"])


def apply_ops(ops):
    for op in ops:
        if op[0] == "new":
            _, path, text = op
            p = os.path.join(CLONE, path)
            assert not os.path.exists(p), path
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, "w").write(text)
        else:
            _, path, old, new = op
            p = os.path.join(CLONE, path)
            text = open(p).read()
            assert text.count(old) == 1, (path, old)
            open(p, "w").write(text.replace(old, new))


def diff_of(base, ops):
    reset(base)
    apply_ops(ops)
    sh(["git", "add", "-A"])
    out = sh(["git", "diff", "--cached", "--no-color", base]).stdout
    reset(base)
    return out


def run_tests(base, patches, ids=None):
    """Apply patches at base and run pytest; returns {node_id: outcome}."""
    reset(base)
    for patch in patches:
        if patch:
            r = sh(["git", "apply", "-"], input=patch, check=False)
            if r.returncode:
                return None
    args = [PY, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-q"] + (ids or [])
    out = sh(args, check=False).stdout
    results = {}
    for line in out.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m:
            results[m.group(2)] = m.group(1)
    reset(base)
    return results


def code_lines(patch):
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")) or not line.startswith(("+", "-")):
            continue
        body = line[1:].strip()
        if body and not body.startswith("#"):
            n += 1
    return n


def facts_and_memories(shas, sessions_by_id):
    def ended(ids):
        return max(sessions_by_id[i]["ended_at"] for i in ids)

    facts = [
        {
            "family": "payment-day",
            "fact": ("A payment counts on the utility's local calendar day: dates of payments come from "
                     "meter_billing.clock.utility_date() (UTC-06:00, naive timestamps read as UTC). "
                     "Before the rule change payments were dated by their UTC calendar day "
                     "(late_fees.payment_date with astimezone(timezone.utc)); any new code that decides "
                     "which day a payment belongs to must use utility_date."),
            "identifiers": ["utility_date", "meter_billing/clock.py", "UTILITY_TZ", "payment_date"],
            "kind": "rule_change",
            "sessions": ["s01-late-fee-ivr-offset", "s02-late-fee-review"],
            "superseded": {
                "old": "payments are dated by the UTC calendar day of their timestamp (late_fees.payment_date)",
                "new": "payments are dated by the utility's local day, clock.utility_date (UTC-06:00)",
                "commit": shas["rule"],
            },
        },
        {
            "family": "register-units",
            "fact": ("In meter_billing/reads every quantity (register values, consumption(), "
                     "average_daily_usage(), estimates) is in cubic feet; in meter_billing/tariffs the "
                     "tiers priced by tiered_charge() are per gallon. Convert with "
                     "units.cubic_feet_to_gallons() (7.48052) before pricing or comparing with gallons."),
            "identifiers": ["cubic_feet_to_gallons", "tiered_charge", "consumption",
                            "average_daily_usage", "meter_billing/units.py"],
            "kind": "module_only",
            "sessions": ["s06-tier-units", "s09-estimated-invoice-units"],
            "module": "meter_billing/reads",
        },
        {
            "family": "ledger-schema",
            "fact": ("Adding a field to ledger entries takes three steps: add it to Entry in "
                     "meter_billing/payments/ledger.py, bump SCHEMA_VERSION, and register a migration "
                     "from the previous version in MIGRATIONS (meter_billing/payments/schema_migrations.py, "
                     "formerly migrations.py) that fills the field's default and sets v; otherwise stored "
                     "records fail to load and test_every_version_has_a_migration fails."),
            "identifiers": ["SCHEMA_VERSION", "MIGRATIONS", "Entry", "load_record",
                            "meter_billing/payments/schema_migrations.py", "meter_billing/payments/ledger.py"],
            "kind": "procedure",
            "sessions": ["s03-ledger-method", "s05-ledger-memo", "s08-ledger-channel"],
        },
        {
            "family": "usage-from-actual",
            "fact": ("Usage is measured from the last actual read (reads.history.last_actual, skipping "
                     "estimated reads with kind 'E', because estimated invoices are reversed and rebilled) "
                     "AND every consumption() call passes the meter's own Meter.digits (never the 6-digit "
                     "default, never inferred from size_inches). Both pieces are needed."),
            "identifiers": ["last_actual", "consumption", "Meter.digits", "kind", "meter_billing/reads/history.py"],
            "kind": "linked",
            "sessions": ["s04-rebill-after-estimate", "s07-register-rollover"],
        },
    ]
    mems = {
        "payment-day": [{
            "type": "domain", "scope": {"repo": REPO},
            "summary": ("Payments are dated by the utility's local calendar day via "
                        "meter_billing.clock.utility_date() (fixed UTC-06:00; naive timestamps are UTC). "
                        "This superseded the older rule (UTC calendar day in late_fees.payment_date) in "
                        f"commit {shas['rule'][:12]}; use utility_date wherever code decides which day a "
                        "payment belongs to (credits, daily totals, statements)."),
            "conditions": ["deciding the date or day of a payment", "comparing a payment with a due date or period"],
            "citations": [{"kind": "session", "ref": "s01-late-fee-ivr-offset"},
                          {"kind": "session", "ref": "s02-late-fee-review"},
                          {"kind": "commit", "ref": shas["rule"]},
                          {"kind": "file", "ref": "meter_billing/clock.py", "path": "meter_billing/clock.py"}],
            "created_at": ended(["s01-late-fee-ivr-offset", "s02-late-fee-review"]),
        }],
        "register-units": [
            {"type": "domain", "scope": {"repo": REPO, "module": "meter_billing/reads"},
             "summary": ("In meter_billing/reads quantities are cubic feet: register values, consumption(), "
                         "average_daily_usage() and estimate_read() all work in cubic feet."),
             "conditions": ["using meter read values or usage computed from reads"],
             "citations": [{"kind": "session", "ref": "s06-tier-units"},
                           {"kind": "session", "ref": "s09-estimated-invoice-units"},
                           {"kind": "file", "ref": "meter_billing/reads/register.py",
                            "path": "meter_billing/reads/register.py"}],
             "created_at": ended(["s06-tier-units", "s09-estimated-invoice-units"])},
            {"type": "domain", "scope": {"repo": REPO, "module": "meter_billing/tariffs"},
             "summary": ("In meter_billing/tariffs the tiers priced by tiered_charge() are per gallon, so "
                         "usage from reads must go through units.cubic_feet_to_gallons() (7.48052 gal/cf) "
                         "before pricing or comparing with a gallon threshold."),
             "conditions": ["pricing usage with a tariff", "comparing usage with gallons"],
             "citations": [{"kind": "session", "ref": "s06-tier-units"},
                           {"kind": "session", "ref": "s09-estimated-invoice-units"},
                           {"kind": "file", "ref": "meter_billing/units.py", "path": "meter_billing/units.py"}],
             "created_at": ended(["s06-tier-units", "s09-estimated-invoice-units"])},
        ],
        "ledger-schema": [{
            "type": "procedural", "scope": {"repo": REPO, "module": "meter_billing/payments"},
            "summary": ("To add a field to ledger entries: add it to Entry in meter_billing/payments/ledger.py, "
                        "bump SCHEMA_VERSION, and register MIGRATIONS[previous_version] in "
                        "meter_billing/payments/schema_migrations.py (was migrations.py) that sets the "
                        "field's default and the new v. Stored records of the previous version must load."),
            "conditions": ["adding or changing a field on payment ledger entries"],
            "citations": [{"kind": "session", "ref": "s03-ledger-method"},
                          {"kind": "session", "ref": "s05-ledger-memo"},
                          {"kind": "session", "ref": "s08-ledger-channel"},
                          {"kind": "file", "ref": "meter_billing/payments/schema_migrations.py",
                           "path": "meter_billing/payments/schema_migrations.py"}],
            "created_at": ended(["s03-ledger-method", "s05-ledger-memo", "s08-ledger-channel"]),
        }],
        "usage-from-actual": [
            {"type": "failure", "scope": {"repo": REPO},
             "summary": ("Measure usage from the last actual read, reads.history.last_actual(), skipping "
                         "estimated reads (kind 'E'): estimated invoices are reversed and rebilled when an "
                         "actual read arrives (QA-112)."),
             "conditions": ["computing usage from a meter's read history"],
             "citations": [{"kind": "session", "ref": "s04-rebill-after-estimate"},
                           {"kind": "file", "ref": "meter_billing/reads/history.py",
                            "path": "meter_billing/reads/history.py"}],
             "created_at": sessions_by_id["s04-rebill-after-estimate"]["ended_at"],
             "links": [{"relation": "related", "target": "consumption() must get Meter.digits"}]},
            {"type": "failure", "scope": {"repo": REPO},
             "summary": ("Every consumption() call must pass the meter's own Meter.digits for register "
                         "rollover; the 6-digit default is wrong for many meters and digits cannot be "
                         "inferred from size_inches (review of #61)."),
             "conditions": ["computing usage between two register values"],
             "citations": [{"kind": "session", "ref": "s07-register-rollover"},
                           {"kind": "file", "ref": "meter_billing/reads/register.py",
                            "path": "meter_billing/reads/register.py"}],
             "created_at": sessions_by_id["s07-register-rollover"]["ended_at"],
             "links": [{"relation": "related", "target": "usage starts at last_actual(), skipping estimates"}]},
        ],
    }
    return facts, mems


def main():
    shas = json.load(open(os.path.join(SCRATCH, "shas.json")))
    base = shas["move"]
    sessions = [json.loads(l) for l in open(os.path.join(CORPUS, "sessions.jsonl"))]
    by_id = {s["instance_id"]: s for s in sessions}
    subprocess.run(["rm", "-rf", CLONE], check=True)
    subprocess.run(["git", "clone", "-q", WORK, CLONE], check=True, env=SESSION_ENV)
    facts, mems = facts_and_memories(shas, by_id)
    base_results = run_tests(base, [])
    p2p_base = sorted(k for k, v in base_results.items() if v == "PASSED")
    assert len(p2p_base) == len(base_results), base_results
    rows = []
    rng = random.Random(7)
    for t in TASKS:
        fam_sessions = next(f for f in facts if f["family"] == t["family"])["sessions"]
        assert t["created_at"] > max(by_id[s]["ended_at"] for s in fam_sessions)
        test_patch = diff_of(base, [("new", p, text) for p, text in t["tests"].items()])
        gold = diff_of(base, t["gold"])
        decoys = [diff_of(base, d) for d in t["decoys"]]
        with_gold = run_tests(base, [gold, test_patch])
        new_ids = sorted(k for k in with_gold if k.split("::")[0] in t["tests"])
        with_tests = run_tests(base, [test_patch])
        f2p = [k for k in new_ids if with_tests.get(k) != "PASSED"]
        p2p = p2p_base + [k for k in new_ids if with_tests.get(k) == "PASSED"]
        cands = [("gold", gold)] + [(f"d{i}", d) for i, d in enumerate(decoys, 1)]
        rng.shuffle(cands)
        candidates = []
        for j, (kind, patch) in enumerate(cands):
            files = re.findall(r"^diff --git a/(\S+)", patch, re.M)
            candidates.append({
                "id": f"c{t['n']}{'abcd'[j]}",
                "patch": patch,
                "description": (f"Changes {', '.join(files)}: {code_lines(patch)} changed code lines."),
                "_kind": kind,
            })
        rows.append({
            "instance_id": f"acme-water__meter-billing-{t['n']}",
            "repo": REPO,
            "base_commit": base,
            "created_at": t["created_at"],
            "problem_statement": t["problem"],
            "hints_text": "",
            "patch": gold,
            "test_patch": test_patch,
            "FAIL_TO_PASS": f2p,
            "PASS_TO_PASS": p2p,
            "version": "0.2",
            "source": {"kind": "bundle", "location": "repos/acme-water__meter-billing.bundle"},
            "family": t["family"],
            "position": t["position"],
            "candidates": candidates,
            "oracle_memories": mems[t["family"]],
        })
    # the gold's kind is not stored in the file
    with open(os.path.join(SCRATCH, "candidate_kinds.json"), "w") as fh:
        json.dump({r["instance_id"]: {c["id"]: c.pop("_kind") for c in r["candidates"]} for r in rows}, fh,
                  indent=1)
    with open(os.path.join(CORPUS, "tasks.jsonl"), "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    with open(os.path.join(CORPUS, "facts.jsonl"), "w") as fh:
        for f in facts:
            fh.write(json.dumps(f) + "\n")
    os.makedirs(os.path.join(CORPUS, "memories"), exist_ok=True)
    with open(os.path.join(CORPUS, "memories", "oracle.jsonl"), "w") as fh:
        for f in facts:
            for m in mems[f["family"]]:
                fh.write(json.dumps(m) + "\n")
    print(f"{len(rows)} tasks, base {base[:12]}, {len(p2p_base)} base tests")


if __name__ == "__main__":
    main()
