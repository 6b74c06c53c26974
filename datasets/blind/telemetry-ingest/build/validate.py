"""Validate the corpus from its files alone (run with a Python 3.11 that has pytest and pydantic):

    /work/main/.venv/bin/python build/validate.py [corpus-folder]

For every task, in a fresh clone of the bundle at base_commit with the test patch applied:
FAIL_TO_PASS fail at the base; the gold applies with `git apply` and every FAIL_TO_PASS and
PASS_TO_PASS passes; each decoy applies and fails at least one of them. Also: no candidate
description (nor the problem statement) contains an identifier of its fact; created_at is after every session of the family;
load_tasks() validates the suite; every oracle memory validates as a dreamer Memory; every session
file parses as JSONL in Claude Code's record shape.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from datetime import datetime
from pathlib import Path

ARGS = [a for a in sys.argv[1:] if not a.startswith("-")]
VERBOSE = "-v" in sys.argv
CORPUS = Path(ARGS[0]).resolve() if ARGS else Path(__file__).resolve().parents[1]
DREAMER = Path("/work/main")
PY = sys.executable
problems: list[str] = []


def check(ok: bool, message: str) -> bool:
    if not ok:
        problems.append(message)
    return ok


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def sh(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=cwd, input=stdin, capture_output=True, text=True)


def outcomes(repo: Path, tests: list[str]) -> dict[str, str]:
    proc = sh(PY, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-q", *tests, cwd=repo)
    found: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)", line)
        if m:
            found.setdefault(m.group(2), m.group(1))
    return {t: found.get(t, "MISSING") for t in tests}


def reset(repo: Path, base: str, test_patch: str) -> None:
    sh("git", "reset", "-q", "--hard", base, cwd=repo)
    sh("git", "clean", "-fdxq", cwd=repo)
    proc = sh("git", "apply", "-", cwd=repo, stdin=test_patch)
    if proc.returncode:
        raise RuntimeError(f"test patch does not apply: {proc.stderr}")


def validate_tasks(tasks: list[dict], facts: dict[str, dict], session_ends: dict[str, list[datetime]]) -> None:
    bundle = CORPUS / tasks[0]["source"]["location"]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        proc = sh("git", "clone", "-q", str(bundle), str(repo), cwd=Path(tmp))
        if not check(proc.returncode == 0, f"cannot clone bundle: {proc.stderr}"):
            return
        for task in tasks:
            tid, base = task["instance_id"], task["base_commit"]
            f2p, p2p = task["FAIL_TO_PASS"], task["PASS_TO_PASS"]
            reset(repo, base, task["test_patch"])
            at_base = outcomes(repo, f2p + p2p)
            base_ok = check(all(at_base[t] != "PASSED" for t in f2p), f"{tid}: FAIL_TO_PASS passing at base: {at_base}")
            base_ok &= check(all(at_base[t] == "PASSED" for t in p2p), f"{tid}: PASS_TO_PASS not passing at base: {at_base}")
            gold_ok = False
            decoys_ok = 0
            detail: list[str] = []
            golds = [c for c in task["candidates"] if c["patch"] == task["patch"]]
            check(len(golds) == 1, f"{tid}: gold is not exactly one candidate")
            check(len(task["candidates"]) >= 4, f"{tid}: fewer than three decoys")
            for cand in task["candidates"]:
                reset(repo, base, task["test_patch"])
                applied = sh("git", "apply", "-", cwd=repo, stdin=cand["patch"])
                is_gold = cand["patch"] == task["patch"]
                if not check(applied.returncode == 0, f"{tid}: {cand['id']} does not apply: {applied.stderr}"):
                    continue
                result = outcomes(repo, f2p + p2p)
                passed = all(v == "PASSED" for v in result.values())
                if is_gold:
                    gold_ok = check(passed, f"{tid}: gold fails: {result}")
                else:
                    decoys_ok += check(not passed, f"{tid}: decoy {cand['id']} passes every test")
                    failing = sorted(t.split("::")[-1] for t, v in result.items() if v != "PASSED")
                    bad = sorted({v for v in result.values() if v not in ("PASSED", "FAILED")})
                    detail.append(f"    {cand['id']}: fails {', '.join(failing)}" + (f" [{', '.join(bad)}]" if bad else ""))
                idents = facts[task["family"]]["identifiers"]
                leaked = [i for i in idents if i.lower() in cand["description"].lower()]
                check(not leaked, f"{tid}: description of {cand['id']} names {leaked}")
            stated = [i for i in facts[task["family"]]["identifiers"] if i.lower() in task["problem_statement"].lower()]
            check(not stated, f"{tid}: problem statement names {stated}")
            created = datetime.fromisoformat(task["created_at"])
            late = [e for e in session_ends[task["family"]] if e >= created]
            check(not late, f"{tid}: created_at {created} not after sessions ending {late}")
            print(f"{tid:32s} base: F2P fail {'ok' if base_ok else 'NO'}  gold: {'pass' if gold_ok else 'FAIL'}  "
                  f"decoys failing: {decoys_ok}/{len(task['candidates']) - 1}")
            if VERBOSE:
                print("\n".join(detail))


def validate_sessions(rows: list[dict]) -> None:
    needed = {"type", "uuid", "parentUuid", "sessionId", "timestamp", "cwd", "gitBranch", "version", "userType",
              "isSidechain", "message"}
    for row in rows:
        path = CORPUS / row["file"]
        try:
            records = read_jsonl(path)
        except (OSError, ValueError) as exc:
            check(False, f"{row['file']}: not JSONL: {exc}")
            continue
        ids = {r.get("sessionId") for r in records if r.get("type") != "summary"}
        check(ids == {row["session_id"]}, f"{row['file']}: sessionId {ids} != {row['session_id']}")
        check(path.stem == row["session_id"], f"{row['file']}: file name is not the sessionId")
        parent = None
        for r in records:
            if r["type"] == "summary":
                continue
            check(needed <= r.keys(), f"{row['file']}: record lacks {needed - r.keys()}")
            check(r["parentUuid"] == parent, f"{row['file']}: broken parentUuid chain at {r['uuid']}")
            parent = r["uuid"]
            content = r["message"]["content"]
            if isinstance(content, list) and any(p.get("type") == "tool_result" for p in content):
                check("toolUseResult" in r, f"{row['file']}: tool result without toolUseResult")
        first = min(r["timestamp"] for r in records if "timestamp" in r)
        last = max(r["timestamp"] for r in records if "timestamp" in r)
        start = datetime.fromisoformat(first.replace("Z", "+00:00"))
        end = datetime.fromisoformat(last.replace("Z", "+00:00"))
        check(abs((start - datetime.fromisoformat(row["started_at"])).total_seconds()) < 1, f"{row['file']}: started_at")
        check(abs((end - datetime.fromisoformat(row["ended_at"])).total_seconds()) < 1, f"{row['file']}: ended_at")
    print(f"sessions: {len(rows)} files parse as Claude Code JSONL")


def validate_schemas(fact_rows: list[dict], memory_rows: list[dict]) -> None:
    sys.path.insert(0, str(DREAMER))
    from dreamer.models import Memory
    from evals.tasks import load_tasks

    loaded = load_tasks(str(CORPUS))
    print(f"load_tasks: {len(loaded)} tasks validate")
    check(len(memory_rows) == len(fact_rows), "one oracle memory per fact")
    for row in memory_rows:
        Memory.model_validate(row)
    for task in loaded:
        for row in task.oracle_memories:
            Memory.model_validate(row)
    print(f"memories: {len(memory_rows)} oracle rows and every task's oracle_memories validate as Memory")


def main() -> None:
    tasks = read_jsonl(CORPUS / "tasks.jsonl")
    fact_rows = read_jsonl(CORPUS / "facts.jsonl")
    memory_rows = read_jsonl(CORPUS / "memories" / "oracle.jsonl")
    sessions = read_jsonl(CORPUS / "sessions.jsonl")
    facts = {f["family"]: f for f in fact_rows}
    ends: dict[str, list[datetime]] = defaultdict(list)
    by_id = {s["instance_id"]: s for s in sessions}
    for fact in fact_rows:
        for sid in fact["sessions"]:
            check(sid in by_id, f"fact {fact['family']} cites unknown session {sid}")
            ends[fact["family"]].append(datetime.fromisoformat(by_id[sid]["ended_at"]))
    for s in sessions:
        if s["family"]:
            ends[s["family"]].append(datetime.fromisoformat(s["ended_at"]))
    validate_sessions(sessions)
    validate_schemas(fact_rows, memory_rows)
    validate_tasks(tasks, facts, ends)
    decoys = sum(len(t["candidates"]) - 1 for t in tasks)
    print(f"totals: {len(sessions)} sessions, {len(tasks)} tasks, {len(fact_rows)} facts, {decoys} decoys")
    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for p in problems:
            print(" -", p)
        raise SystemExit(1)
    print("ALL CHECKS PASSED")


if __name__ == "__main__":
    main()
