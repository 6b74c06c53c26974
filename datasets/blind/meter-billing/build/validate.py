"""Check the corpus: layout, sessions, facts, memories, and every task for real (from the bundle).

    python build/validate.py [--python PATH]

Writes only into ../scratch-meter/validate/."""

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime

CORPUS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(os.path.dirname(CORPUS), "scratch-meter")
WORKDIR = os.path.join(SCRATCH, "validate", "repo")
PY = sys.argv[sys.argv.index("--python") + 1] if "--python" in sys.argv else os.path.join(SCRATCH, "venv", "bin", "python")
ENV = {"PATH": os.path.dirname(PY) + ":/usr/bin:/bin", "HOME": os.path.join(SCRATCH, "home"),
       "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1"}
problems = []


def check(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def sh(args, cwd=WORKDIR, input=None):
    return subprocess.run(args, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, input=input)


def t(s):
    return datetime.fromisoformat(s)


def jsonl(name):
    return [json.loads(l) for l in open(os.path.join(CORPUS, name)) if l.strip()]


def outcomes(base, patches, ids):
    sh(["git", "checkout", "-q", "-f", base])
    sh(["git", "clean", "-fdqx"])
    for p in patches:
        if sh(["git", "apply", "-"], input=p).returncode:
            return None
    out = sh([PY, "-m", "pytest", "-rA", "-v", "-p", "no:cacheprovider", *ids]).stdout
    res = {i: "MISSING" for i in ids}
    for line in out.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m and m.group(2) in res:
            res[m.group(2)] = m.group(1)
    return res


def code_lines(patch):
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")) or not line.startswith(("+", "-")):
            continue
        body = line[1:].strip()
        if body and not body.startswith("#"):
            n += 1
    return n


def main():
    # layout
    for p in ["README.md", "tasks.jsonl", "sessions", "sessions.jsonl", "facts.jsonl", "memories/oracle.jsonl",
              "repos/acme-water__meter-billing.bundle", "build"]:
        check(os.path.exists(os.path.join(CORPUS, p)), f"missing {p}")
    for root, dirs, files in os.walk(CORPUS):
        check("__pycache__" not in dirs and ".pytest_cache" not in dirs, f"cache dir in {root}")
        check("__init__.py" not in files or not root.startswith(os.path.join(CORPUS, "build")),
              f"__init__.py under build: {root}")
    bundle = os.path.join(CORPUS, "repos", "acme-water__meter-billing.bundle")
    shutil.rmtree(os.path.dirname(WORKDIR), ignore_errors=True)
    os.makedirs(os.path.dirname(WORKDIR))
    sh(["git", "clone", "-q", bundle, WORKDIR], cwd=os.path.dirname(WORKDIR))
    check(sh(["git", "bundle", "verify", "-q", bundle]).returncode == 0, "bundle does not verify")
    commits = set(sh(["git", "rev-list", "--all"]).stdout.split())

    # sessions
    sessions = jsonl("sessions.jsonl")
    by_id = {s["instance_id"]: s for s in sessions}
    check(10 <= len(sessions) <= 12, f"{len(sessions)} sessions")
    noise = set()
    for s in sessions:
        path = os.path.join(CORPUS, s["file"])
        check(os.path.exists(path), f"missing session file {s['file']}")
        events = json.load(open(path))
        check(isinstance(events, list) and events and events[0]["source"] == "user", f"{s['file']}: not an event list")
        check(all(("action" in e) != ("observation" in e) for e in events), f"{s['file']}: bad event")
        check(s["commit_start"] in commits, f"{s['instance_id']}: commit_start not in bundle")
        check(s["commit_end"] is None or s["commit_end"] in commits, f"{s['instance_id']}: commit_end not in bundle")
        check(t(s["started_at"]) < t(s["ended_at"]), f"{s['instance_id']}: times")
        check(s["kind"] in ("history", "followup", "chore"), f"{s['instance_id']}: kind")
        noise.update(s["noise"])
    for label in ["generic", "secret", "injection", "duplicate", "moved_citation", "rule_change"]:
        check(label in noise, f"no session with noise {label}")
    ev = {e for s in sessions for e in s["evidence"]}
    check({"test", "review", "defect"} <= ev, "evidence kinds missing")

    # facts and memories
    facts = jsonl("facts.jsonl")
    mems = jsonl("memories/oracle.jsonl")
    check(sorted(f["kind"] for f in facts) == ["linked", "module_only", "procedure", "rule_change"], "fact kinds")
    for f in facts:
        for sid in f["sessions"]:
            check(sid in by_id, f"{f['family']}: unknown session {sid}")
        if f["kind"] == "rule_change":
            c = f["superseded"]["commit"]
            check(c in commits, "superseded commit not in bundle")
            last = max(t(by_id[s]["ended_at"]) for s in f["sessions"])
            when = t(sh(["git", "show", "-s", "--format=%cI", c]).stdout.strip())
            check(when > last, "rule change commit is not after its sessions")
        if f["kind"] == "procedure":
            check(len(f["sessions"]) >= 3, "procedure needs 3 sessions")
        if f["kind"] == "module_only":
            check(bool(f.get("module")), "module_only without module")
    for m in mems:
        check(m["type"] in ("domain", "failure", "procedural") and m["citations"] and m["scope"]["repo"],
              "memory shape")

    # tasks
    tasks = jsonl("tasks.jsonl")
    check(len(tasks) == 12, f"{len(tasks)} tasks")
    ranks = {}
    report = []
    for task in tasks:
        iid = task["instance_id"]
        fam = next(f for f in facts if f["family"] == task["family"])
        last = max(t(by_id[s]["ended_at"]) for s in fam["sessions"])
        check(t(task["created_at"]) > last, f"{iid}: created before its sessions ended")
        check(task["base_commit"] in commits, f"{iid}: base not in bundle")
        check(task["oracle_memories"] == [m for m in mems if m in task["oracle_memories"]] and task["oracle_memories"],
              f"{iid}: oracle memories")
        ids = task["FAIL_TO_PASS"] + task["PASS_TO_PASS"]
        base = outcomes(task["base_commit"], [task["test_patch"]], task["FAIL_TO_PASS"])
        check(base is not None and all(v != "PASSED" for v in base.values()), f"{iid}: a FAIL_TO_PASS passes at base")
        base_p2p = outcomes(task["base_commit"], [task["test_patch"]], task["PASS_TO_PASS"])
        check(all(v == "PASSED" for v in base_p2p.values()), f"{iid}: a PASS_TO_PASS fails at base")
        gold = outcomes(task["base_commit"], [task["patch"], task["test_patch"]], ids)
        check(gold is not None and all(v == "PASSED" for v in gold.values()), f"{iid}: gold does not pass")
        golds = [c for c in task["candidates"] if c["patch"] == task["patch"]]
        check(len(golds) == 1 and len(task["candidates"]) >= 4, f"{iid}: candidates")
        decoy_fail = []
        for c in task["candidates"]:
            if c["patch"] == task["patch"]:
                continue
            res = outcomes(task["base_commit"], [c["patch"], task["test_patch"]], ids)
            check(res is not None, f"{iid}/{c['id']}: decoy does not apply")
            failed = [k for k, v in (res or {}).items() if v != "PASSED"]
            check(bool(failed), f"{iid}/{c['id']}: decoy passes everything")
            decoy_fail.append(len(failed))
        sizes = sorted(code_lines(c["patch"]) for c in task["candidates"])
        g = code_lines(task["patch"])
        rank = "smallest" if g == sizes[0] else "largest" if g == sizes[-1] else "middle"
        ranks.setdefault(task["family"], []).append(rank)
        report.append(f"{iid:32} {task['family']:18} F2P={len(task['FAIL_TO_PASS'])} P2P={len(task['PASS_TO_PASS'])} "
                      f"gold=pass decoys_failing={decoy_fail} gold_lines={g} sizes={sizes} ({rank})")
    for fam, rs in ranks.items():
        check(len(set(rs)) == 3, f"{fam}: gold size ranks not spread: {rs}")
    sh(["git", "checkout", "-q", "-f", tasks[0]["base_commit"]])
    print("\n".join(report))
    print(f"sessions={len(sessions)} tasks={len(tasks)} facts={len(facts)} memories={len(mems)} "
          f"commits={len(commits)}")
    if problems:
        print("PROBLEMS:")
        print("\n".join("  " + p for p in problems))
        sys.exit(1)
    print("OK: corpus valid")


if __name__ == "__main__":
    main()
