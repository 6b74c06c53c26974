"""Re-runs every task of the corpus from the bundle alone:
  base + test_patch: every FAIL_TO_PASS fails, every PASS_TO_PASS passes;
  gold + test_patch: all pass;
  each decoy applies cleanly and fails at least one FAIL_TO_PASS or PASS_TO_PASS test.
Prints a table and the gold's size rank (by changed code lines) within each family.

    python3 build/validate.py      (needs pytest in /tmp/box-office-venv, or PYTHON=...)"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
CORPUS = os.path.dirname(HERE)
from common import SCRATCH, code_lines, run_tests, sh  # noqa: E402

CHECKOUT = os.path.join(SCRATCH, "validate")


def reset(root):
    sh(["git", "reset", "-q", "--hard"], root)
    sh(["git", "clean", "-qfdx"], root)


def run(root, base, patches, ids):
    sh(["git", "checkout", "-q", "--detach", base], root)
    reset(root)
    for p in patches:
        sh(["git", "apply", "-"], root, input=p)
    res, _ = run_tests(root, ids)
    reset(root)
    return res


def main():
    tasks = [json.loads(l) for l in open(os.path.join(CORPUS, "tasks.jsonl"))]
    if os.path.exists(CHECKOUT):
        shutil.rmtree(CHECKOUT)
    bundle = os.path.join(CORPUS, tasks[0]["source"]["location"])
    sh(["git", "clone", "-q", bundle, CHECKOUT], SCRATCH if os.path.isdir(SCRATCH) else "/tmp")
    sh(["git", "fetch", "-q", bundle, "+refs/heads/*:refs/remotes/bundle/*"], CHECKOUT)
    ok_all = True
    rows = []
    ranks = {}
    for t in tasks:
        ids = t["FAIL_TO_PASS"] + t["PASS_TO_PASS"]
        r0 = run(CHECKOUT, t["base_commit"], [t["test_patch"]], ids)
        base_ok = all(not r0.get(i, False) for i in t["FAIL_TO_PASS"]) and all(r0.get(i, False) for i in t["PASS_TO_PASS"])
        r1 = run(CHECKOUT, t["base_commit"], [t["test_patch"], t["patch"]], ids)
        gold_ok = all(r1.get(i, False) for i in ids)
        decoy_res = []
        sizes = []
        gold_size = code_lines(t["patch"])
        for c in t["candidates"]:
            if c["patch"] == t["patch"]:
                continue
            sh(["git", "checkout", "-q", "--detach", t["base_commit"]], CHECKOUT)
            reset(CHECKOUT)
            chk = subprocess.run(["git", "apply", "--check", "-"], cwd=CHECKOUT, input=c["patch"], text=True,
                                 capture_output=True)
            if chk.returncode != 0:
                decoy_res.append("no-apply")
                continue
            rd = run(CHECKOUT, t["base_commit"], [t["test_patch"], c["patch"]], ids)
            failed = [i for i in ids if not rd.get(i, False)]
            decoy_res.append(f"fails {len(failed)}" if failed else "PASSES")
            sizes.append(code_lines(c["patch"]))
        rank = 1 + sum(1 for s in sizes if s < gold_size)
        ties = sum(1 for s in sizes if s == gold_size)
        ranks.setdefault(t["family"], []).append(rank)
        good = base_ok and gold_ok and all(d.startswith("fails") for d in decoy_res) and len(decoy_res) >= 3
        ok_all &= good
        rows.append((t["instance_id"].split("-")[-1], t["family"], t["created_at"][:10], t["base_commit"][:8],
                     len(t["FAIL_TO_PASS"]), len(t["PASS_TO_PASS"]), "ok" if base_ok else "BAD",
                     "ok" if gold_ok else "BAD", ", ".join(decoy_res),
                     f"{gold_size} vs {sorted(sizes)} -> {rank}/4" + (" (tie)" if ties else ""), "PASS" if good else "FAIL"))
    head = ("task", "family", "created", "base", "F2P", "P2P", "base", "gold", "decoys", "gold size rank", "result")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(v).ljust(w) for v, w in zip(r, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print()
    print("gold size rank per family (1 = smallest of 4):")
    for fam, rk in ranks.items():
        print(f"  {fam:<22} {rk}")
    print()
    print("ALL TASKS VALID" if ok_all else "SOME TASKS INVALID")
    shutil.rmtree(CHECKOUT, ignore_errors=True)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
