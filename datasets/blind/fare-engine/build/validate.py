"""Check the corpus against docs/corpus-format.md, from its files alone.

    python build/validate.py      (the interpreter needs pytest)

Checks the layout, the sessions (SWE-agent 0.7 .traj shape, rows of
sessions.jsonl, commits in the bundle), the facts and oracle memories, and
re-runs every task's tests from the patches in tasks.jsonl: FAIL_TO_PASS fail
at the base with the test patch, the gold passes FAIL_TO_PASS + PASS_TO_PASS,
every decoy applies and fails at least one of them.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent
BUNDLE = CORPUS / "repos" / "acme-transit__fare-engine.bundle"
problems: list[str] = []
notes: list[str] = []


def check(cond: bool, msg: str) -> None:
    if not cond:
        problems.append(msg)


def sh(*args, cwd, input=None, check_rc=True):
    res = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, input=input)
    if check_rc and res.returncode != 0:
        raise RuntimeError(f"{args}: {res.stderr}")
    return res


def jsonl(name: str) -> list[dict]:
    return [json.loads(l) for l in (CORPUS / name).read_text().splitlines() if l.strip()]


def ts(value: str) -> datetime:
    d = datetime.fromisoformat(value)
    assert d.tzinfo is not None, value
    return d


def run_tests(work: Path, nodes: list[str]) -> dict[str, str]:
    res = sh(sys.executable, "-m", "pytest", "-rA", "-v", "-p", "no:cacheprovider", *nodes,
             cwd=work, check_rc=False)
    out = {}
    for line in res.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m and out.get(m.group(2)) != "FAILED":
            out[m.group(2)] = m.group(1)
    return out


def code_lines(patch: str) -> int:
    return sum(1 for l in patch.splitlines()
               if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))
               and l[1:].strip() and not l[1:].strip().startswith("#"))


def main() -> int:
    # ------------------------------------------------------------ layout
    for name in ["README.md", "tasks.jsonl", "sessions.jsonl", "facts.jsonl", "memories/oracle.jsonl",
                 "repos/acme-transit__fare-engine.bundle", "build", "sessions"]:
        check((CORPUS / name).exists(), f"missing {name}")
    junk = [p for p in CORPUS.rglob("*") if p.name in ("__pycache__", ".pytest_cache", ".venv")
            or p.suffix == ".pyc"]
    check(not junk, f"junk in corpus: {junk}")
    check(not (CORPUS / "build" / "__init__.py").exists(), "build/__init__.py must not exist")

    tmp = Path(tempfile.mkdtemp(prefix="fare-validate-"))
    work = tmp / "repo"
    sh("git", "clone", "-q", str(BUNDLE), str(work), cwd=tmp)
    sh("git", "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*", cwd=work)

    def exists(sha):
        return sh("git", "cat-file", "-e", f"{sha}^{{commit}}", cwd=work, check_rc=False).returncode == 0

    def commit_time(sha):
        return ts(sh("git", "show", "-s", "--format=%cI", sha, cwd=work).stdout.strip())

    # ---------------------------------------------------------- sessions
    sessions = jsonl("sessions.jsonl")
    by_id = {s["instance_id"]: s for s in sessions}
    check(10 <= len(sessions) <= 12, f"{len(sessions)} sessions")
    check(len(by_id) == len(sessions), "duplicate session ids")
    noise = set()
    for s in sessions:
        sid = s["instance_id"]
        path = CORPUS / s["file"]
        check(path.exists(), f"{sid}: file missing")
        data = json.loads(path.read_text())
        check(list(data) == ["environment", "trajectory", "history", "info"], f"{sid}: top-level keys {list(data)}")
        for step in data["trajectory"]:
            check(list(step) == ["action", "observation", "response", "state", "thought", "execution_time"],
                  f"{sid}: step keys {list(step)}")
        roles = [m["role"] for m in data["history"]]
        check(roles[:3] == ["system", "user", "user"] and data["history"][1].get("is_demo") is True,
              f"{sid}: history does not start with system, demonstration, issue")
        check(roles[-1] == "assistant" and data["trajectory"][-1]["action"].strip() == "submit",
              f"{sid}: does not end with submit")
        check(data["info"].get("exit_status") == "submitted", f"{sid}: exit_status")
        check(ts(s["started_at"]) < ts(s["ended_at"]), f"{sid}: times")
        check(exists(s["commit_start"]), f"{sid}: commit_start not in bundle")
        if s["commit_end"]:
            check(exists(s["commit_end"]), f"{sid}: commit_end not in bundle")
            parent = sh("git", "rev-parse", f"{s['commit_end']}^", cwd=work).stdout.strip()
            check(parent == s["commit_start"], f"{sid}: commit_end's parent is not commit_start")
            check(commit_time(s["commit_end"]) >= ts(s["ended_at"]), f"{sid}: commit before the session ended")
        else:
            check(data["info"].get("submission") is None, f"{sid}: no commit_end but a submission")
        check(s["kind"] in ("history", "followup", "chore"), f"{sid}: kind")
        noise |= set(s["noise"])
    for label in ["generic", "secret", "injection", "duplicate", "moved_citation", "rule_change"]:
        check(label in noise, f"no session labelled {label}")
    check(any("defect" in s["evidence"] for s in sessions), "no defect evidence")
    check(any("review" in s["evidence"] for s in sessions), "no review evidence")
    failing_then_passing = 0
    for s in sessions:
        obs = [st["observation"] for st in json.loads((CORPUS / s["file"]).read_text())["trajectory"]]
        fail_i = [i for i, o in enumerate(obs) if re.search(r"^\d+ failed", o, re.M)]
        pass_i = [i for i, o in enumerate(obs) if re.search(r"^\d+ passed in", o, re.M)]
        if fail_i and pass_i and max(pass_i) > min(fail_i):
            failing_then_passing += 1
    check(failing_then_passing >= 1, "no session with a failing test run followed by a passing one")
    notes.append(f"sessions with a real failing pytest run followed by a passing one: {failing_then_passing}")

    # ------------------------------------------------------------- facts
    facts = jsonl("facts.jsonl")
    check(sorted(f["kind"] for f in facts) == ["linked", "module_only", "procedure", "rule_change"],
          "fact kinds")
    oracle = jsonl("memories/oracle.jsonl")
    families = {f["family"]: f for f in facts}
    for f in facts:
        for sid in f["sessions"]:
            check(sid in by_id, f"{f['family']}: unknown session {sid}")
        if f["kind"] == "procedure":
            check(len(f["sessions"]) >= 3, "procedure shown in fewer than 3 sessions")
        if f["kind"] == "linked":
            check(len(set(f["sessions"])) >= 2, "linked fact from one session")
        if f["kind"] == "module_only":
            check(bool(f.get("module")), "module_only without module")
        if f["kind"] == "rule_change":
            c = f["superseded"]["commit"]
            check(exists(c), "superseded commit not in bundle")
            diff = sh("git", "show", c, cwd=work).stdout
            check("-SERVICE_DAY_START_HOUR = 3" in diff and "+SERVICE_DAY_START_HOUR = 4" in diff,
                  "superseded commit does not change the rule")
            last = max(ts(by_id[sid]["ended_at"]) for sid in f["sessions"])
            check(commit_time(c) > last, "rule changed before its sessions ended")
    for m in oracle:
        check(m["type"] in ("domain", "failure", "procedural"), "memory type")
        check(m["scope"]["repo"] == "acme-transit/fare-engine", "memory scope")
        check(len(m["citations"]) >= 1 and "family" not in m, "memory citations / family")

    # ------------------------------------------------------------- tasks
    tasks = jsonl("tasks.jsonl")
    check(len(tasks) == 12, f"{len(tasks)} tasks")
    ranks: dict[str, list[int]] = {}
    for t in tasks:
        iid = t["instance_id"]
        fam = families[t["family"]]
        learned = max(ts(by_id[sid]["ended_at"]) for sid in fam["sessions"])
        check(ts(t["created_at"]) > learned, f"{iid}: created before its fact's sessions ended")
        check(commit_time(t["base_commit"]) <= ts(t["created_at"]), f"{iid}: base commit after created_at")
        text = t["problem_statement"]
        for ident in fam["identifiers"]:
            check(ident not in text, f"{iid}: problem statement names {ident}")
        cands = t["candidates"]
        golds = [c for c in cands if c["patch"] == t["patch"]]
        check(len(golds) == 1 and len(cands) >= 4, f"{iid}: candidates")
        expected_oracle = [m for m in oracle if m in t["oracle_memories"]]
        check(len(expected_oracle) == len(t["oracle_memories"]) and t["oracle_memories"], f"{iid}: oracle")
        nodes = list(t["FAIL_TO_PASS"]) + list(t["PASS_TO_PASS"])

        def state(patch):
            sh("git", "checkout", "-q", "-f", t["base_commit"], cwd=work)
            sh("git", "clean", "-fdxq", cwd=work)
            if patch:
                r = sh("git", "apply", "-", cwd=work, input=patch, check_rc=False)
                if r.returncode != 0:
                    return False
            r = sh("git", "apply", "-", cwd=work, input=t["test_patch"], check_rc=False)
            return r.returncode == 0

        check(state(""), f"{iid}: test patch does not apply at base")
        base_out = run_tests(work, list(t["FAIL_TO_PASS"]))
        check(all(base_out.get(n) != "PASSED" for n in t["FAIL_TO_PASS"]), f"{iid}: a FAIL_TO_PASS passes at base")
        check(state(t["patch"]), f"{iid}: gold does not apply")
        gold_out = run_tests(work, nodes)
        check(all(gold_out.get(n) == "PASSED" for n in nodes), f"{iid}: gold fails a test")
        sizes = []
        for c in cands:
            sizes.append(code_lines(c["patch"]))
            if c["patch"] == t["patch"]:
                continue
            check(state(c["patch"]), f"{iid}: decoy {c['id']} does not apply")
            out = run_tests(work, nodes)
            check(any(out.get(n) != "PASSED" for n in nodes), f"{iid}: decoy {c['id']} passes every test")
            desc = c["description"].lower()
            for ident in fam["identifiers"]:
                check(ident.lower() not in desc or ident.startswith("fare_engine/") or "/" in ident,
                      f"{iid}: description names {ident}")
        gold_rank = sorted(sizes).index(code_lines(t["patch"])) + 1
        ranks.setdefault(t["family"], []).append(gold_rank)
        notes.append(f"{iid} [{t['family']}] F2P={len(t['FAIL_TO_PASS'])} P2P={len(t['PASS_TO_PASS'])} "
                     f"gold rank by code lines {gold_rank}/{len(cands)} sizes={sorted(sizes)}")
    for fam, rs in ranks.items():
        check(len(set(rs)) == len(rs) and min(rs) == 1 and max(rs) == 4, f"{fam}: gold ranks not spread {rs}")
        notes.append(f"family {fam}: gold ranks {rs}")
    sh("rm", "-rf", str(tmp), cwd=CORPUS)

    for n in notes:
        print(n)
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(" -", p)
        return 1
    print(f"\nOK: {len(sessions)} sessions, {len(tasks)} tasks, {len(facts)} facts, {len(oracle)} oracle memories")
    return 0


if __name__ == "__main__":
    sys.exit(main())
