"""Check the corpus from its folder alone (the bundle, the jsonl files, the sessions).

    python3 build/validate.py

Runs every task's tests for real from the bundle: FAIL_TO_PASS fail at the base with the test
patch, the gold passes FAIL_TO_PASS and PASS_TO_PASS, every decoy applies cleanly to the base and
fails at least one of them.
"""

import json
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
sys.path.insert(0, str(BUILD))
from corpus_lib import Checkout, apply_patch, changed_code_lines, git, run_tests  # noqa: E402

problems = []


def check(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def load(name):
    return [json.loads(line) for line in (CORPUS / name).read_text().splitlines() if line.strip()]


for rel in ["README.md", "tasks.jsonl", "sessions", "sessions.jsonl", "facts.jsonl", "memories/oracle.jsonl", "build"]:
    check((CORPUS / rel).exists(), f"missing {rel}")
bundles = list((CORPUS / "repos").glob("*.bundle"))
check(len(bundles) == 1, "expected one bundle")
bundle = bundles[0]
check(not list(CORPUS.rglob("__pycache__")), "__pycache__ inside the corpus")

tasks, sessions, facts, memories = load("tasks.jsonl"), load("sessions.jsonl"), load("facts.jsonl"), load("memories/oracle.jsonl")
by_session = {s["instance_id"]: s for s in sessions}
refs = git(CORPUS, "bundle", "list-heads", str(bundle))
print(f"bundle: {bundle.name}, {len(refs.splitlines())} refs")

# sessions
for s in sessions:
    data = json.loads((CORPUS / s["file"]).read_text())
    check(data.get("trajectory_format") == "mini-swe-agent-1", f"{s['file']}: trajectory_format")
    check(set(data) == {"info", "messages", "trajectory_format"}, f"{s['file']}: top-level keys {sorted(data)}")
    check(data["info"]["exit_status"] == "Submitted", f"{s['file']}: exit_status")
    roles = [m["role"] for m in data["messages"]]
    check(roles[:2] == ["system", "user"], f"{s['file']}: starts with system, user")
    t0 = datetime.fromtimestamp(data["messages"][0]["timestamp"]).astimezone()
    check(abs((t0 - datetime.fromisoformat(s["started_at"])).total_seconds()) < 2, f"{s['file']}: started_at")
print(f"sessions: {len(sessions)} ({sum(1 for s in sessions if s['kind']=='history')} history, "
      f"{sum(1 for s in sessions if s['kind']=='followup')} followup, {sum(1 for s in sessions if s['kind']=='chore')} chore)")
noise = defaultdict(int)
for s in sessions:
    for n in s["noise"]:
        noise[n] += 1
print("noise labels:", dict(sorted(noise.items())))

# facts
kinds = sorted(f["kind"] for f in facts)
check(kinds == ["linked", "module_only", "procedure", "rule_change"], f"fact kinds {kinds}")
for f in facts:
    for n in f["sessions"]:
        check(n in by_session, f"{f['family']}: unknown session {n}")
    if f["kind"] == "procedure":
        check(len(f["sessions"]) >= 3, "procedure needs three sessions")
    if f["kind"] == "linked":
        check(len(f["sessions"]) >= 2, "linked needs two sessions")
fam_of = {f["family"]: f for f in facts}

with Checkout(bundle, "main") as repo:
    for f in facts:
        if f["kind"] == "rule_change":
            c = f["superseded"]["commit"]
            out = git(repo, "cat-file", "-t", c, check=False).strip()
            check(out == "commit", f"superseded commit {c} not in bundle")
            print(f"rule_change commit {c[:10]}: {git(repo, 'log', '-1', '--format=%s', c).strip()}")
    # the moved file
    moved = git(repo, "log", "--follow", "--name-status", "--format=%h", "--", "scripts/gen_opcodes.py")
    check("R" in moved, "scripts/gen_opcodes.py was not moved in history")
    for s in sessions:
        for c in (s["commit_start"], s["commit_end"]):
            if c:
                check(git(repo, "cat-file", "-t", c, check=False).strip() == "commit", f"{s['instance_id']}: {c} missing")

# tasks
print()
ranks = defaultdict(list)
for t in tasks:
    fam = fam_of.get(t["family"])
    check(fam is not None, f"{t['instance_id']}: unknown family")
    last = max(datetime.fromisoformat(by_session[n]["ended_at"]) for n in fam["sessions"])
    check(datetime.fromisoformat(t["created_at"]) > last, f"{t['instance_id']}: created before its sessions ended")
    if fam["kind"] == "rule_change":
        with Checkout(bundle, "main") as repo:
            count = git(repo, "rev-list", "--count", f"{t['base_commit']}..{fam['superseded']['commit']}").strip()
            check(count == "0", f"{t['instance_id']}: base does not contain the rule change")
    gold = t["patch"]
    check(any(c["patch"] == gold for c in t["candidates"]), f"{t['instance_id']}: gold not among candidates")
    check(len(t["candidates"]) >= 4, f"{t['instance_id']}: fewer than 4 candidates")
    ids = t["FAIL_TO_PASS"] + t["PASS_TO_PASS"]
    with Checkout(bundle, t["base_commit"]) as root:
        check(apply_patch(root, t["test_patch"])[0], f"{t['instance_id']}: test patch does not apply")
        base = run_tests(root, t["FAIL_TO_PASS"])
    f2p_fail_at_base = all(not base.get(k, False) for k in t["FAIL_TO_PASS"])
    check(f2p_fail_at_base, f"{t['instance_id']}: a FAIL_TO_PASS test passes at the base")
    results = []
    for c in t["candidates"]:
        with Checkout(bundle, t["base_commit"]) as root:
            applied, err = apply_patch(root, c["patch"])
            if not applied:
                results.append((c, None))
                continue
            apply_patch(root, t["test_patch"])
            res = run_tests(root, ids)
            results.append((c, [k for k in ids if not res.get(k, False)]))
    sizes = {}
    for c, fails in results:
        is_gold = c["patch"] == gold
        sizes[c["id"]] = changed_code_lines(c["patch"])
        if is_gold:
            check(fails == [], f"{t['instance_id']}: gold fails {fails}")
        else:
            check(fails is not None, f"{t['instance_id']}: decoy {c['id']} does not apply")
            check(bool(fails), f"{t['instance_id']}: decoy {c['id']} passes every test")
    gsize = changed_code_lines(gold)
    rank = 1 + sum(1 for c in t["candidates"] if c["patch"] != gold and sizes[c["id"]] < gsize)
    ranks[t["family"]].append(rank)
    decoy_fails = [len(f) for c, f in results if c["patch"] != gold and f is not None]
    print(f"{t['instance_id']:<34} {t['family']:<27} F2P {len(t['FAIL_TO_PASS'])} fail at base: "
          f"{'yes' if f2p_fail_at_base else 'NO'}; gold passes {len(ids)}/{len(ids)}; "
          f"decoys apply and fail {decoy_fails} tests; gold size rank {rank}/{len(t['candidates'])}")

print()
for fam, r in ranks.items():
    print(f"gold size ranks in {fam}: {r}")
    check(len(set(r)) > 1, f"{fam}: gold rank not spread")
print()
if problems:
    print("PROBLEMS:")
    for p in problems:
        print(" -", p)
    sys.exit(1)
print(f"OK: {len(tasks)} tasks, {len(sessions)} sessions, {len(facts)} facts, {len(memories)} oracle memories")
