#!/usr/bin/env python3
"""Check the corpus's task rules by really running the tests.

For every task, in a clone of the bundle at its base commit:
  - with the test patch only: every FAIL_TO_PASS test fails, every PASS_TO_PASS test passes;
  - gold + test patch: every listed test passes;
  - each decoy + test patch: applies cleanly and fails at least one listed test;
and, per family, the gold's rank by changed code lines (blank and comment lines excluded) among its
candidates; descriptions carry none of the fact's identifiers; created_at follows every session of
the family. Usage: python3 build/validate.py   (LL_PY_BIN: a bin dir whose `python` has pytest)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent
PY_BIN = os.environ.get("LL_PY_BIN", "/tmp/blind-b/venv/bin")


def sh(cmd, cwd, input_text=None, check=True):
    out = subprocess.run(cmd, cwd=cwd, input=input_text, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    if check and out.returncode:
        raise RuntimeError(f"{cmd}: {out.stdout}")
    return out


def changed_code_lines(patch: str) -> int:
    n = 0
    for line in patch.splitlines():
        if not line or line.startswith(("+++", "---")) or line[0] not in "+-":
            continue
        body = line[1:].strip()
        if body and not body.startswith("#"):
            n += 1
    return n


def run_tests(repo, ids):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PATH=PY_BIN + os.pathsep + os.environ["PATH"])
    out = subprocess.run(["python", "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *ids], cwd=repo,
                         env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    status = {}
    for line in out.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m:
            status[m.group(2)] = m.group(1) == "PASSED"
    return {i: status.get(i, False) for i in ids}


def reset(repo, base):
    sh(["git", "reset", "-q", "--hard", base], repo)
    sh(["git", "clean", "-qfdx"], repo)


def main():
    tasks = [json.loads(l) for l in (CORPUS / "tasks.jsonl").read_text().splitlines()]
    facts = {f["family"]: f for f in map(json.loads, (CORPUS / "facts.jsonl").read_text().splitlines())}
    sessions = {s["instance_id"]: s for s in map(json.loads, (CORPUS / "sessions.jsonl").read_text().splitlines())}
    tmp = Path(tempfile.mkdtemp(prefix="ll-validate-"))
    repo = tmp / "repo"
    sh(["git", "clone", "-q", str(CORPUS / tasks[0]["source"]["location"]), str(repo)], tmp)
    problems, ranks = [], {}
    print(f"{'task':28} {'family':14} F2P P2P  base  gold  decoys(failing tests)      sizes(gold*)")
    for t in tasks:
        iid, base = t["instance_id"], t["base_commit"]
        ids = t["FAIL_TO_PASS"] + t["PASS_TO_PASS"]
        sh(["git", "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"], repo)
        reset(repo, base)
        sh(["git", "apply", "-"], repo, t["test_patch"])
        r = run_tests(repo, ids)
        base_ok = all(not r[i] for i in t["FAIL_TO_PASS"]) and all(r[i] for i in t["PASS_TO_PASS"])
        if not base_ok:
            problems.append(f"{iid}: base outcome wrong {r}")
        results, sizes = [], []
        for c in t["candidates"]:
            reset(repo, base)
            ap = sh(["git", "apply", "-"], repo, c["patch"], check=False)
            if ap.returncode:
                problems.append(f"{iid}/{c['id']}: does not apply: {ap.stdout}")
                continue
            sh(["git", "apply", "-"], repo, t["test_patch"])
            r = run_tests(repo, ids)
            failing = [i.split("::")[-1] for i in ids if not r[i]]
            is_gold = c["patch"] == t["patch"]
            sizes.append((changed_code_lines(c["patch"]), is_gold))
            if is_gold and failing:
                problems.append(f"{iid}: gold fails {failing}")
            if not is_gold:
                results.append(len(failing))
                if not failing:
                    problems.append(f"{iid}/{c['id']}: decoy passes every test")
            for ident in facts[t["family"]]["identifiers"]:
                # file paths may be named (a description says which files change); names may not
                if "/" not in ident and re.search(r"(?<![\w.])" + re.escape(ident) + r"(?![\w])", c["description"]):
                    problems.append(f"{iid}/{c['id']}: description names {ident}")
        gold_size = next(s for s, g in sizes if g)
        rank = 1 + sum(1 for s, g in sizes if not g and s < gold_size)
        ties = sum(1 for s, g in sizes if not g and s == gold_size)
        if ties:
            problems.append(f"{iid}: gold ties a decoy in size")
        ranks.setdefault(t["family"], []).append(rank)
        for sid in facts[t["family"]]["sessions"]:
            if not t["created_at"] > sessions[sid]["ended_at"]:
                problems.append(f"{iid}: created before session {sid} ended")
        size_txt = ",".join(f"{s}{'*' if g else ''}" for s, g in sorted(sizes))
        print(f"{iid:28} {t['family']:14} {len(t['FAIL_TO_PASS']):3} {len(t['PASS_TO_PASS']):3}  "
              f"{'ok' if base_ok else 'BAD':4}  {'ok':4}  {results!s:26} {size_txt}  rank {rank}/4")
    print()
    for fam, rs in ranks.items():
        print(f"gold size rank in {fam}: {rs}")
    shutil.rmtree(tmp)
    print()
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print(" -", p)
        return 1
    print(f"all {len(tasks)} tasks valid: base fails every FAIL_TO_PASS and passes every PASS_TO_PASS; "
          "gold passes all; every decoy applies and fails at least one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
