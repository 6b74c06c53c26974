"""Check the corpus for real: clone the bundle, run every task's tests at the base, with the gold
and with every decoy; check times, ranks and layout. Prints a report; exit 1 on any failure."""
import json
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1]
SCRATCH = CORPUS.parent / "scratch-fleet"
PY = str(SCRATCH / "venv" / "bin" / "python")
WT = SCRATCH / "validate-wt"
ENV = {"PATH": "/usr/bin:/bin", "HOME": str(SCRATCH), "PYTHONDONTWRITEBYTECODE": "1"}
problems = []


def sh(*a, check=True, inp=None):
    return subprocess.run(a, cwd=WT, check=check, input=inp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=ENV)


def status(ids):
    out = sh(PY, "-m", "pytest", "-rA", "-v", "-p", "no:cacheprovider", *ids, check=False).stdout
    st = {}
    for line in out.splitlines():
        for w in ("PASSED", "FAILED", "ERROR"):
            if line.startswith(w + " "):
                st[line.split()[1]] = w
    return st


def prepare(base, *patches):
    sh("git", "checkout", "-q", "-f", base)
    sh("git", "clean", "-qfdx")
    for p in patches:
        r = sh("git", "apply", "--check", "-", inp=p, check=False)
        if r.returncode:
            return False
        sh("git", "apply", "-", inp=p)
    return True


def changed(patch):
    return sum(1 for l in patch.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))
               and l[1:].strip() and not l[1:].strip().startswith("#"))


def main():
    if WT.exists():
        shutil.rmtree(WT)
    subprocess.run(["git", "clone", "-q", str(CORPUS / "repos/acme-fleet__fleet-maintenance.bundle"), str(WT)],
                   check=True, env=ENV)
    tasks = [json.loads(l) for l in open(CORPUS / "tasks.jsonl")]
    sessions = [json.loads(l) for l in open(CORPUS / "sessions.jsonl")]
    facts = [json.loads(l) for l in open(CORPUS / "facts.jsonl")]
    fam_sessions = {f["family"]: f["sessions"] for f in facts}
    ends = {s["instance_id"]: datetime.fromisoformat(s["ended_at"]) for s in sessions}
    for s in sessions:
        if not (CORPUS / s["file"]).exists():
            problems.append(f"missing session file {s['file']}")
    ranks = {}
    for t in tasks:
        tid = t["instance_id"]
        ids = t["FAIL_TO_PASS"] + t["PASS_TO_PASS"]
        created = datetime.fromisoformat(t["created_at"])
        late = [s for s in fam_sessions[t["family"]] if ends[s] >= created]
        if late:
            problems.append(f"{tid}: created before sessions {late} ended")
        prepare(t["base_commit"], t["test_patch"])
        st = status(ids)
        base_ok = all(st.get(i) != "PASSED" for i in t["FAIL_TO_PASS"]) and all(st.get(i) == "PASSED" for i in t["PASS_TO_PASS"])
        prepare(t["base_commit"], t["test_patch"], t["patch"])
        st = status(ids)
        gold_ok = all(st.get(i) == "PASSED" for i in ids)
        decoy_res = []
        for c in t["candidates"]:
            if c["patch"] == t["patch"]:
                continue
            applies = prepare(t["base_commit"], t["test_patch"], c["patch"])
            st = status(ids) if applies else {}
            fails = [i for i in ids if st.get(i) != "PASSED"]
            decoy_res.append(applies and bool(fails))
            if not applies:
                problems.append(f"{tid}: decoy {c['id']} does not apply")
        sizes = sorted(changed(c["patch"]) for c in t["candidates"])
        g = changed(t["patch"])
        rank = "smallest" if g == sizes[0] and sizes.count(g) == 1 else "largest" if g == sizes[-1] and sizes.count(g) == 1 else "middle/tied"
        ranks.setdefault(t["family"], []).append(rank)
        ok = base_ok and gold_ok and all(decoy_res) and len(decoy_res) >= 3
        if not ok:
            problems.append(f"{tid}: base_ok={base_ok} gold_ok={gold_ok} decoys={decoy_res}")
        print(f"{tid:34} {t['family']:22} F2P={len(t['FAIL_TO_PASS'])} P2P={len(t['PASS_TO_PASS'])} "
              f"base:{'ok' if base_ok else 'BAD'} gold:{'pass' if gold_ok else 'FAIL'} "
              f"decoys fail:{sum(decoy_res)}/{len(decoy_res)} gold size {g} of {sizes} ({rank})")
    for fam, r in ranks.items():
        print(f"gold rank by changed lines, {fam}: {', '.join(r)}")
    junk = [p for p in CORPUS.rglob("*") if p.name in ("__pycache__", ".pytest_cache") or p.suffix == ".pyc"]
    if junk:
        problems.append(f"junk in corpus: {junk[:3]}")
    print(f"{len(sessions)} sessions, {len(tasks)} tasks, {len(facts)} facts")
    print("OK" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems))
    shutil.rmtree(WT)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
