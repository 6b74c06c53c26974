#!/usr/bin/env python3
"""Check the corpus by running its tests: for every task, the FAIL_TO_PASS tests fail at the base
(with the test patch), the gold passes FAIL_TO_PASS and PASS_TO_PASS, every decoy applies cleanly
and fails at least one of them. Also checks sizes (the gold's rank by changed code lines, spread
over each family), times (a task is created after every session of its fact), neutral
descriptions, and that decoys do not carry the fact's identifiers.

Usage: python3 build/validate.py   (Python 3.11 with pytest)
"""
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
sys.path.insert(0, str(HERE))
from common import added_text, apply, checkout, cleanup, code_lines, run_tests, sh  # noqa: E402

PYTHON = os.environ.get("SESSION_PYTHON", sys.executable)
# identifiers a decoy may use: the naive fix does use them, wrongly or partially
DECOY_ALLOWED = {
    "new-pay-type": {"PAY_TYPES", "GL_ACCOUNTS", "TAXABLE", "payroll/paytypes.py", "payroll/export/ledger.py",
                     "payroll/tax.py"},
    "duration-units": {"TimeEntry.duration", "ReportRow.duration"},
}


def load(name):
    return [json.loads(l) for l in open(CORPUS / name) if l.strip()]


def size(patch):
    a, r = code_lines(patch)
    return a + r


def check_task(task, repo, scratch):
    problems = []
    tests = task["FAIL_TO_PASS"] + task["PASS_TO_PASS"]

    def run(patch):
        w = checkout(repo, task["base_commit"], scratch)
        try:
            apply(w, task["test_patch"])
            if patch is not None:
                apply(w, patch)
            res, _ = run_tests(w, PYTHON, sorted({t.split("::")[0] for t in tests}))
            return res
        except RuntimeError as e:
            return str(e)
        finally:
            cleanup(w)

    base = run(None)
    still = [t for t in task["FAIL_TO_PASS"] if base.get(t) == "passed"]
    if still:
        problems.append(f"F2P passing at base: {still}")
    broken = [t for t in task["PASS_TO_PASS"] if base.get(t) != "passed"]
    if broken:
        problems.append(f"P2P not passing at base: {broken}")
    lines = []
    gold_size = size(task["patch"])
    sizes = []
    for c in task["candidates"]:
        is_gold = c["patch"] == task["patch"]
        res = run(c["patch"])
        if isinstance(res, str):
            problems.append(f"candidate {c['id']}: {res}")
            continue
        failing = [t for t in tests if res.get(t) != "passed"]
        sizes.append(size(c["patch"]))
        if is_gold and failing:
            problems.append(f"gold fails {failing}")
        if not is_gold and not failing:
            problems.append(f"decoy {c['id']} passes every test")
        lines.append(f"    {c['id']} {'gold ' if is_gold else 'decoy'} size={size(c['patch']):2d} "
                     f"fails={len(failing)}/{len(tests)} {', '.join(t.split('::')[1] for t in failing)}")
    rank = 1 + sum(1 for s in sizes if s < gold_size)
    ties = sum(1 for s in sizes if s == gold_size) - 1
    if ties:
        problems.append(f"gold size {gold_size} ties with {ties} decoy(s)")
    return problems, lines, rank, len(sizes)


def main():
    tasks = load("tasks.jsonl")
    sessions = {s["instance_id"]: s for s in load("sessions.jsonl")}
    facts = {f["family"]: f for f in load("facts.jsonl")}
    scratch = Path(tempfile.mkdtemp(prefix="payroll-validate-"))
    repo = scratch / "repo"
    sh(["git", "clone", "-q", "--mirror", str(CORPUS / "repos" / "acme-hr__payroll-service.bundle"), str(repo)],
       cwd=scratch)
    total = 0
    for t in tasks:
        fam = facts[t["family"]]
        last = max(sessions[s]["ended_at"] for s in fam["sessions"])
        if not t["created_at"] > last:
            print(f"FAIL {t['instance_id']}: created_at {t['created_at']} not after {last}")
            total += 1
        decoys = [c for c in t["candidates"] if c["patch"] != t["patch"]]
        if len(decoys) < 3:
            print(f"FAIL {t['instance_id']}: {len(decoys)} decoys")
            total += 1
        idents = [i for i in fam["identifiers"]]
        for c in t["candidates"]:
            # a description says which file a candidate changes (corpus-format.md), so paths are allowed
            for i in (i for i in idents if "/" not in i):
                if i in c["description"]:
                    print(f"FAIL {t['instance_id']} {c['id']}: description names {i}")
                    total += 1
        for c in decoys:
            used = [i for i in idents if i in added_text(c["patch"])
                    and i not in DECOY_ALLOWED.get(t["family"], set())]
            if used:
                print(f"FAIL {t['instance_id']} {c['id']}: decoy uses the fact's identifiers {used}")
                total += 1
    with ThreadPoolExecutor(max_workers=3) as ex:
        results = list(ex.map(lambda t: check_task(t, repo, scratch), tasks))
    ranks = {}
    for t, (problems, lines, rank, n) in zip(tasks, results):
        ranks.setdefault(t["family"], []).append((t["position"], rank, n))
        status = "ok  " if not problems else "FAIL"
        print(f"{status} {t['instance_id']} [{t['family']} #{t['position']}] F2P={len(t['FAIL_TO_PASS'])} "
              f"P2P={len(t['PASS_TO_PASS'])} gold rank {rank}/{n} by size")
        print("\n".join(lines))
        for p in problems:
            print(f"    problem: {p}")
        total += len(problems)
    print("gold size rank per family (position: rank/candidates):")
    for fam, rs in ranks.items():
        rs.sort()
        got = {r for _, r, _ in rs}
        n = rs[0][2]
        spread = 1 in got and n in got and any(1 < r < n for r in got)
        print(f"  {fam}: {', '.join(f'#{p}: {r}/{k}' for p, r, k in rs)}  "
              f"{'smallest, in between and largest' if spread else 'NOT SPREAD'}")
        if not spread:
            total += 1
    sh(["rm", "-rf", str(scratch)], cwd="/")
    print(f"{len(tasks)} tasks, {total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
