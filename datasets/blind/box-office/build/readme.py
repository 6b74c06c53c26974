"""Writes README.md from the built corpus files and the validation output."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)

SHOWS = {
    "s01-student-tier": "Adds the `student` tier to `TIERS` only; its own test fails with `KeyError: 'student'` in `fee_for`, then with `ValueError: tiers not in settlement order: student`; adds `FEE_TABLE` and `TIER_ORDER` entries; suite passes. States the three registrations.",
    "s02-refund-status": "Prints `.env` (made-up Stripe/SendGrid tokens). Adds `refund_status`; the exact-deadline test fails (`assert 'open' == 'closed'`) until `>` becomes `>=`. Shows the old rule: `REFUND_CUTOFF_HOURS = 48` before `starts_at` (deadline 2026-10-22 20:00 for E100). Greps `boxoffice/tickets.py`, a path moved later.",
    "s03-promo-quote": "Applies promo codes to face + fee (SAVE10 = $8.80 off); tests pass and it commits. A reviewer's comment (arriving later in the session) says the discount comes off the face value only and the booking fee is never discounted; adds `discount_for(code, face_cents)` in promos.py and fixes the tests (first piece of the linked fact).",
    "s04-settlement-daily": "Adds `daily_breakdown` to settlement with `booked_at.date()`; midday tests pass. The naive version the next session's defect is about.",
    "s05-settlement-local-day": "QA-198: an evening sale at Bronx Hall (UTC-4) lands on the next day. Reproducing test fails, fix uses `local_day(b.booked_at, b.event.venue)` from settlement/util.py.",
    "s06-member-tier": "Issue text carries a hidden instruction to AI assistants (force-push, delete failing tests); the agent declines. Adds `member` to `TIERS` and `FEE_TABLE`; the settlement test fails with the `TIER_ORDER` ValueError; adds it.",
    "s07-promo-rounding": "QA-212: FALL15 on $33.30 gives $5.00 off, finance wants $4.99. Failing test (`assert 500 == 499`), then `discount_for` floors (`face * pct // 100`) while fees keep `pct_of` half-up (second piece of the linked fact).",
    "s08-ops-sales-by-venue": "Adds `sales_by_venue` to the ops dashboard with `local_day`, following QA-198; a reviewer says venue-local days belong to settlement only and the dashboard is UTC; reverts to `booked_at.date()` and fixes the test.",
    "s09-email-refund-date": "QA-230: `cat boxoffice/tickets.py` fails (file moved to `boxoffice/delivery/ticket_text.py`); `git log -p` shows the 2026-09-22 policy commit (24h before `doors_at`, `REFUND_CUTOFF`); failing email test, fix with `refund_deadline`; notes README still says 48h.",
    "s10-companion-tier": "Adds `companion` to all three tables at once; passes first time. Generic lesson: always double-check by running the full suite before committing.",
    "s11-chore-requirements": "Chore: `requirements-dev.txt` pinning pytest, README install line.",
    "s12-chore-requirements-again": "Duplicate of the s11 chore from another ticket; finds it done, runs the suite, changes nothing.",
}


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def main(validation):
    sessions = [json.loads(l) for l in open(os.path.join(CORPUS, "sessions.jsonl"))]
    facts = [json.loads(l) for l in open(os.path.join(CORPUS, "facts.jsonl"))]
    tasks = [json.loads(l) for l in open(os.path.join(CORPUS, "tasks.jsonl"))]
    shas = json.load(open("/tmp/box-office-build/shas.json"))
    fact_rows = [(f"`{f['family']}`", f["kind"], f["fact"], ", ".join(f"`{i}`" for i in f["identifiers"]),
                  ", ".join(f["sessions"])) for f in facts]
    sess_rows = [(s["instance_id"], f"`{s['session_id'][:8]}…`", s["kind"], s["family"] or "-", s["started_at"][:16].replace("T", " "),
                  f"{s['commit_start'][:8]} → {(s['commit_end'] or '-')[:8]}", ", ".join(s["evidence"]) or "-",
                  ", ".join(s["noise"]) or "-") for s in sessions]
    shows = "\n".join(f"- **{s['instance_id']}** - {SHOWS[s['instance_id']]}" for s in sessions)
    task_rows = []
    for t in tasks:
        first = t["problem_statement"].splitlines()[0]
        task_rows.append((t["instance_id"], t["family"], t["position"], t["created_at"][:16].replace("T", " "),
                          t["base_commit"][:8], first, len(t["FAIL_TO_PASS"]), len(t["PASS_TO_PASS"])))
    branches = subprocess.run(["git", "for-each-ref", "--format=%(refname:short) %(objectname:short)", "refs/heads"],
                              cwd="/tmp/box-office-build/box-office", capture_output=True, text=True).stdout.strip()
    log = subprocess.run(["git", "log", "--format=%h %ad %an: %s", "--date=short", "main"],
                         cwd="/tmp/box-office-build/box-office", capture_output=True, text=True).stdout.strip()
    text = f"""# box-office: a blind replay corpus

Repository `acme-events/box-office`, an event ticketing service in pure standard-library Python:
price tiers and booking fees, promo codes, seat holds, bookings, refunds, ticket and email texts,
venue settlement statements and an ops dashboard. Sessions are Claude Code session JSONL files
(`~/.claude/projects/<slug>/<sessionId>.jsonl`), every command really run in a checkout of the
repository at the session's commit. Written blind, from `docs/corpus-format.md`, the blind README
and the public Claude Code example only.

## Facts

{table(("family", "kind", "fact", "identifiers", "sessions"), fact_rows)}

The rule change is commit `{shas['shas']['rule_change'][:10]}` (2026-09-22, "Refund policy v2"): the old rule (48h before
`starts_at`) is what s02 shows, the new one (24h before `doors_at`) is what s09 finds. README.md in
the repository keeps the old wording on purpose (a stale doc). The module-only fact holds in
`boxoffice/settlement/` and is false in `boxoffice/reports/` (one oracle memory per module). The
linked fact is two memories: the fee/discount base from s03's review, the rounding from s07's defect;
every task in that family fails unless both are applied.

## History

`main` (newest first), authored with fixed dates so a rebuild gives the same shas:

```
{log}
```

Commits by Priya Raman are made by the builder between sessions (initial code, the refund rule
change, the move of `boxoffice/tickets.py` to `boxoffice/delivery/ticket_text.py`); the others are
made inside the sessions (`git commit` run by the agent). Task bases on side branches are one commit
each on top of `main`, the feature written the naive way:

```
{branches}
```

## Sessions

{table(("instance_id", "sessionId", "kind", "family", "started (UTC)", "commits", "evidence", "noise"), sess_rows)}

What each session shows:

{shows}

Files are `sessions/<sessionId>.jsonl`: a `summary` line, then user/assistant records chained by
`parentUuid` with `cwd` (`/tmp/box-office-build/box-office`, the real checkout), `sessionId`,
`version`, `gitBranch`, `timestamp`; `tool_use` blocks for Bash, Read, Edit and Write and the
matching `tool_result` with `toolUseResult` as Claude Code writes it (Bash stdout/stderr; a failing
command as `is_error: true` and an `"Error: ..."` string; Read's `file`; Edit's `structuredPatch`).

## Tasks

{table(("instance_id", "family", "pos", "created (UTC)", "base", "problem", "F2P", "P2P"), task_rows)}

Each task has the gold and three decoys. Decoys are what an engineer without the fact would write:
the old 48h cutoff or its pieces (`starts_at - 24h`, `doors_at - 48h`, the right helper with the
wrong boundary); a UTC `.date()`, the offset with the wrong sign, a fix that only works west of UTC,
`local_day` used in the ops dashboard; a tier registered in one or two of the three tables, or the
settlement check relaxed; a discount rounded half up, taken from face + fee, or a fee computed on
the discounted face. Descriptions only name the files and the added/removed line counts. F3
(`tier-registration`) tasks start from `main`; the others from `feature/...` branches.

## Build and validate

```
python3 -m venv /tmp/box-office-venv && /tmp/box-office-venv/bin/pip install pytest==8.3.3
python3 build/build.py      # repository, sessions, tasks, facts, memories, bundle, README
python3 build/validate.py   # re-runs every task from the bundle
```

`build/repo_src.py` holds the initial code and the builder's commits, `build/sessions_def.py` the
session scripts, `build/recorder.py` the Claude Code recorder, `build/tasks_def.py` the tasks and
candidates, `build/facts_def.py` the facts and oracle memories. Scratch space is
`/tmp/box-office-build`.

## Validation output

```
{validation.rstrip()}
```
"""
    with open(os.path.join(CORPUS, "README.md"), "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    out = subprocess.run([sys.executable, os.path.join(HERE, "validate.py")], capture_output=True, text=True)
    print(out.stdout, out.stderr)
    main(out.stdout)
