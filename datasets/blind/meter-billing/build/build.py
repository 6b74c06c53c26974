"""Build the repository history and record the sessions.

    python build/build.py        (run from anywhere; writes only inside the corpus folder and
                                  ../scratch-meter/)

Creates ../scratch-meter/workspace/meter-billing (the checkout sessions run in), commits with fixed
names and dates, records sessions/*.json, writes sessions.jsonl and repos/*.bundle. Run
build/tasks.py afterwards for tasks.jsonl, facts.jsonl and memories/oracle.jsonl."""

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
SCRATCH = os.path.join(os.path.dirname(CORPUS), "scratch-meter")
WORK = os.path.join(SCRATCH, "workspace", "meter-billing")
VENV = os.path.join(SCRATCH, "venv")
REPO = "acme-water/meter-billing"
sys.path.insert(0, HERE)

import oh  # noqa: E402
import sessions as S  # noqa: E402

DEVS = {
    "marisol": ("Marisol Ortega", "marisol.ortega@acme-water.example"),
    "priya": ("Priya Natarajan", "priya.natarajan@acme-water.example"),
    "jan": ("Jan Kowalski", "jan.kowalski@acme-water.example"),
}

SESSION_ENV = {
    "PATH": f"{VENV}/bin:/usr/local/bin:/usr/bin:/bin",
    "HOME": os.path.join(SCRATCH, "home"),
    "USER": "root",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "PYTHONDONTWRITEBYTECODE": "1",
    "GIT_CONFIG_NOSYSTEM": "1",
}

ENV_FILE = """# staging settings for local QA repros -- never commit
BILLING_ENV=staging
PAYMENTS_API_KEY=sk_test_51MbFAKEq7XhV2rZk9JdQpL0wCmeterbilling
LEDGER_DATABASE_URL=postgresql://billing:Wint3r-Rates-2026@db.staging.acme-water.example:5432/ledger
"""


def git(*args, env=None, cwd=WORK):
    return subprocess.run(["git", *args], cwd=cwd, env=env or SESSION_ENV, check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def commit(message, when, who):
    name, email = DEVS[who]
    env = dict(SESSION_ENV, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=name,
               GIT_COMMITTER_EMAIL=email, GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    git("add", "-A", env=env)
    git("commit", "-q", "-m", message, env=env)
    return git("rev-parse", "HEAD")


def edit(path, old, new):
    p = os.path.join(WORK, path)
    text = open(p).read()
    assert text.count(old) == 1, (path, old)
    open(p, "w").write(text.replace(old, new))


def write(path, text):
    p = os.path.join(WORK, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)


# (instance_id, function, kind, family, task title, start (UTC), commit message, committer, evidence, noise)
PLAN = [
    ("s01-late-fee-ivr-offset", S.s01, "history", "payment-day", "Issue #41", "2026-01-12T15:02:11",
     "late fees: date payments by their UTC calendar day (#41)", "priya", ["test"], ["generic", "rule_change"]),
    ("s02-late-fee-review", S.s02, "followup", "payment-day", "Issue #41", "2026-01-14T16:40:05",
     "late fees: payment_date() helper, naive timestamps are UTC (review of #42)", "priya", ["review"], ["rule_change"]),
    ("s03-ledger-method", S.s03, "history", "ledger-schema", "Issue #47", "2026-01-20T14:15:40",
     "ledger: record payment method (schema v2) (#47)", "priya", ["test"], ["moved_citation"]),
    ("s04-rebill-after-estimate", S.s04, "history", "usage-from-actual", "QA-112", "2026-01-27T17:05:52",
     "invoice: measure usage from the last actual read (QA-112)", "priya", ["defect"], ["secret"]),
    ("s05-ledger-memo", S.s05, "history", "ledger-schema", "Issue #53", "2026-02-03T15:31:27",
     "ledger: payment memo (schema v3) (#53)", "priya", ["history"], ["injection", "moved_citation"]),
    ("s06-tier-units", S.s06, "history", "register-units", "Issue #58", "2026-02-10T14:48:09",
     "invoice: price register cubic feet as gallons (#58)", "priya", ["test"], []),
    ("s07-register-rollover", S.s07, "history", "usage-from-actual", "Issue #61", "2026-02-17T16:12:33",
     "invoice: roll over at the meter's own register digits (#61)", "priya", ["review"], []),
    ("s08-ledger-channel", S.s08, "history", "ledger-schema", "Issue #66", "2026-02-24T15:20:48",
     "ledger: payment channel (schema v4) (#66)", "priya", ["history"], ["moved_citation"]),
    ("s09-estimated-invoice-units", S.s09, "history", "register-units", "QA-131", "2026-03-03T17:44:15",
     "invoice: estimated invoices price gallons too (QA-131)", "priya", ["defect", "test"], []),
    ("s10-makefile", S.s10, "chore", None, None, "2026-03-05T14:02:37",
     "Add Makefile with a test target", "priya", [], []),
    ("RULE", None, None, None, None, "2026-03-16T14:20:00", None, "jan", None, None),
    ("MOVE", None, None, None, None, "2026-03-23T15:05:00", None, "marisol", None, None),
    ("s11-makefile-again", S.s11, "chore", None, None, "2026-03-26T14:30:09",
     None, "priya", [], ["duplicate"]),
]


def rule_change():
    write("meter_billing/clock.py", '''"""Calendar days as the utility's billing office counts them."""

from datetime import datetime, timedelta, timezone

UTILITY_TZ = timezone(timedelta(hours=-6), "UTILITY")


def utility_date(ts: datetime):
    """The utility's calendar day for a timestamp; naive timestamps are UTC."""
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone(UTILITY_TZ).date()
''')
    lf = "meter_billing/billing/late_fees.py"
    edit(lf, "from datetime import timedelta, timezone\n", "from datetime import timedelta\n")
    edit(lf, "from meter_billing.money import from_cents, to_cents\n",
         "from meter_billing.clock import utility_date\nfrom meter_billing.money import from_cents, to_cents\n")
    edit(lf, "    if paid_at.tzinfo is None:\n        paid_at = paid_at.replace(tzinfo=timezone.utc)\n"
             "    return paid_at.astimezone(timezone.utc).date()\n",
         "    return utility_date(paid_at)\n")
    write("tests/test_late_fees.py", '''from datetime import date, datetime, timedelta, timezone

from meter_billing.billing.late_fees import late_fee_cents, payment_date

DUE = date(2026, 1, 10)


def test_no_fee_inside_grace():
    paid = datetime(2026, 1, 20, 15, 0, tzinfo=timezone.utc)
    assert late_fee_cents(10_000, DUE, paid_at=paid) == 0


def test_evening_payment_counts_on_the_local_day():
    paid = datetime(2026, 1, 21, 2, 0, tzinfo=timezone.utc)
    assert late_fee_cents(10_000, DUE, paid_at=paid) == 0


def test_fee_after_grace():
    paid = datetime(2026, 1, 21, 7, 0, tzinfo=timezone.utc)
    assert late_fee_cents(10_000, DUE, paid_at=paid) == 200


def test_ivr_offset():
    paid = datetime(2026, 1, 20, 21, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert late_fee_cents(10_000, DUE, paid_at=paid) == 0


def test_percentage_fee_above_minimum():
    paid = datetime(2026, 2, 1, 12, 0, tzinfo=timezone.utc)
    assert late_fee_cents(40_000, DUE, paid_at=paid) == 600


def test_unpaid_uses_today():
    assert late_fee_cents(10_000, DUE, today=date(2026, 1, 25)) == 200


def test_no_fee_on_zero_balance():
    assert late_fee_cents(0, DUE, today=date(2026, 3, 1)) == 0


def test_payment_date_naive():
    assert payment_date(datetime(2026, 1, 21, 1, 0)) == date(2026, 1, 20)
''')
    return ("Date payments by the utility's local calendar day (tariff rule 4.2)\n\n"
            "PUC order 26-017: a payment counts on the calendar day of the billing office, not\n"
            "the UTC day. Payments made in the evening were being treated as next-day.")


def move():
    git("mv", "meter_billing/payments/migrations.py", "meter_billing/payments/schema_migrations.py")
    edit("meter_billing/payments/ledger.py", "from meter_billing.payments.migrations import migrate\n",
         "from meter_billing.payments.schema_migrations import migrate\n")
    edit("tests/test_migrations.py", "from meter_billing.payments.migrations import MIGRATIONS\n",
         "from meter_billing.payments.schema_migrations import MIGRATIONS\n")
    return ("Rename payments/migrations.py to schema_migrations.py\n\n"
            "Frees the name for the database migration scripts landing next quarter.")


def utc(ts):
    return datetime.fromisoformat(ts).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def main():
    if not os.path.exists(os.path.join(VENV, "bin", "pytest")):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([f"{VENV}/bin/pip", "install", "-q", "pytest"], check=True)
    shutil.rmtree(os.path.join(SCRATCH, "workspace"), ignore_errors=True)
    os.makedirs(SESSION_ENV["HOME"], exist_ok=True)
    for rel, text in json.load(open(os.path.join(HERE, "repo_c0.json"))).items():
        os.makedirs(os.path.dirname(os.path.join(WORK, rel)), exist_ok=True)
        open(os.path.join(WORK, rel), "w").write(text)
    git("init", "-q", "-b", "main")
    c0 = commit("Initial import of the metering and billing service", "2026-01-05T09:00:00-06:00", "marisol")
    sess_dir = os.path.join(CORPUS, "sessions")
    shutil.rmtree(sess_dir, ignore_errors=True)
    os.makedirs(sess_dir)
    rows, shas = [], {"c0": c0}
    for (iid, fn, kind, family, task, start, msg, who, evidence, noise) in PLAN:
        if iid == "RULE":
            shas["rule"] = commit(rule_change(), start + "-06:00", who)
            continue
        if iid == "MOVE":
            shas["move"] = commit(move(), start + "-06:00", who)
            continue
        if iid.startswith("s04"):
            open(os.path.join(WORK, ".env"), "w").write(ENV_FILE)
        head = git("rev-parse", "HEAD")
        sess = oh.Session(iid, WORK, SESSION_ENV, datetime.fromisoformat(start), seed=iid)
        fn(sess)
        path = os.path.join(sess_dir, iid + ".json")
        t0, t1 = sess.save(path)
        end_sha = None
        if git("status", "--porcelain"):
            end = datetime.fromisoformat(t1)
            when = end.replace(microsecond=0).isoformat() + "+00:00"
            end_sha = commit(msg, when, who)
        shas[iid] = end_sha
        rows.append({
            "instance_id": iid, "file": f"sessions/{iid}.json", "session_id": None, "repo": REPO,
            "kind": kind, "task": task, "family": family, "started_at": utc(t0), "ended_at": utc(t1),
            "commit_start": head, "commit_end": end_sha, "evidence": evidence, "noise": noise,
        })
    with open(os.path.join(CORPUS, "sessions.jsonl"), "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    os.makedirs(os.path.join(CORPUS, "repos"), exist_ok=True)
    bundle = os.path.join(CORPUS, "repos", "acme-water__meter-billing.bundle")
    git("bundle", "create", bundle, "--all")
    with open(os.path.join(SCRATCH, "shas.json"), "w") as fh:
        json.dump(shas, fh, indent=1)
    print(json.dumps(shas, indent=1))


if __name__ == "__main__":
    main()
