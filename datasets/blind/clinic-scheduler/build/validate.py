"""Validate the corpus (run from anywhere):  python3 build/validate.py [--python PATH]

For every task, from a fresh clone of the bundle at ``base_commit`` with the test patch applied:
FAIL_TO_PASS fail at the base; the gold applies with ``git apply`` and every FAIL_TO_PASS and
PASS_TO_PASS passes; each decoy applies and fails at least one of them. Also: no candidate
description (nor problem statement) contains an identifier of its fact; every task's
``created_at`` is after every session of its fact; ``load_tasks(<corpus>)`` validates; every
``oracle_memories`` row (and ``memories/oracle.jsonl``) validates as a ``Memory``; each session
file parses as JSON; sessions.jsonl / facts.jsonl are consistent.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
DREAMER_PY = "/work/main/.venv/bin/python"


def run(cmd, cwd, input=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, input=input)


def outcomes(python: str, repo: Path, tests: list[str]) -> dict[str, str]:
    proc = run([python, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-q", *tests], repo)
    found = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m:
            found.setdefault(m.group(2), m.group(1).lower())
    return {t: found.get(t, "missing") for t in tests}


def main() -> int:
    parser = argparse.ArgumentParser()
    venv_python = BUILD / ".venv" / "bin" / "python"
    parser.add_argument("--python", default=str(venv_python) if venv_python.exists() else DREAMER_PY)
    args = parser.parse_args()
    problems: list[str] = []
    ok_lines: list[str] = []

    tasks = [json.loads(l) for l in (CORPUS / "tasks.jsonl").read_text().splitlines() if l.strip()]
    facts = {f["family"]: f for f in map(json.loads, (CORPUS / "facts.jsonl").read_text().splitlines())}
    sessions = [json.loads(l) for l in (CORPUS / "sessions.jsonl").read_text().splitlines() if l.strip()]
    memories = [json.loads(l) for l in (CORPUS / "memories" / "oracle.jsonl").read_text().splitlines() if l.strip()]
    bundle = CORPUS / "repos" / "acme-health__clinic-scheduler.bundle"

    # ---- sessions
    for row in sessions:
        path = CORPUS / row["file"]
        try:
            doc = json.loads(path.read_text())
            assert {"trajectory", "history", "info", "replay_config", "environment"} <= set(doc)
            json.loads(doc["replay_config"])
        except Exception as exc:  # noqa: BLE001
            problems.append(f"session {row['instance_id']}: does not parse ({exc})")
    ok_lines.append(f"sessions: {len(sessions)} files parse as JSON (.traj with trajectory/history/info/replay_config)")
    ids = {s["instance_id"] for s in sessions}
    for fam, fact in facts.items():
        for sid in fact["sessions"]:
            if sid not in ids:
                problems.append(f"fact {fam}: unknown session {sid}")

    # ---- static checks per task
    ended = {}
    for s in sessions:
        if s["family"]:
            ended.setdefault(s["family"], []).append(datetime.fromisoformat(s["ended_at"]))
    for task in tasks:
        fam = task["family"]
        created = datetime.fromisoformat(task["created_at"])
        if not all(created > e for e in ended[fam]):
            problems.append(f"{task['instance_id']}: created_at not after every session of {fam}")
        idents = [i.lower() for i in facts[fam]["identifiers"]]
        for cand in task["candidates"]:
            for ident in idents:
                if ident in cand["description"].lower():
                    problems.append(f"{task['instance_id']}: description {cand['description']!r} contains {ident!r}")
        for ident in idents:
            if ident in task["problem_statement"].lower():
                problems.append(f"{task['instance_id']}: problem statement contains {ident!r}")
        if task["patch"] not in [c["patch"] for c in task["candidates"]] or len(task["candidates"]) < 4:
            problems.append(f"{task['instance_id']}: gold not among >= 4 candidates")
    ok_lines.append("static: created_at after every session of the family; no fact identifier in any "
                    "candidate description or problem statement")

    # ---- dynamic checks per task
    with tempfile.TemporaryDirectory() as tmp:
        for task in tasks:
            tid = task["instance_id"]
            tests = list(task["FAIL_TO_PASS"]) + list(task["PASS_TO_PASS"])
            repo = Path(tmp) / tid
            r = run(["git", "clone", "-q", str(bundle), str(repo)], tmp)
            if r.returncode:
                problems.append(f"{tid}: clone failed {r.stderr}")
                continue
            run(["git", "checkout", "-q", task["base_commit"]], repo)
            full = run([args.python, "-m", "pytest", "-q", "-p", "no:cacheprovider"], repo)
            if full.returncode:
                problems.append(f"{tid}: the repository's own suite fails at base_commit")

            def reset():
                run(["git", "checkout", "-q", "--", "."], repo)
                run(["git", "clean", "-qfd"], repo)
                r2 = run(["git", "apply"], repo, input=task["test_patch"])
                if r2.returncode:
                    problems.append(f"{tid}: test patch does not apply: {r2.stderr}")

            reset()
            base = outcomes(args.python, repo, tests)
            bad = [t for t in task["FAIL_TO_PASS"] if base[t] == "passed"]
            bad += [t for t in task["PASS_TO_PASS"] if base[t] != "passed"]
            if bad:
                problems.append(f"{tid}: at base, wrong outcome for {bad} ({base})")
            verdicts = []
            for cand in task["candidates"]:
                reset()
                r = run(["git", "apply"], repo, input=cand["patch"])
                if r.returncode:
                    problems.append(f"{tid}: candidate {cand['id']} does not apply: {r.stderr}")
                    continue
                res = outcomes(args.python, repo, tests)
                passed = all(v == "passed" for v in res.values())
                if cand["patch"] == task["patch"]:
                    if not passed:
                        problems.append(f"{tid}: gold fails {[t for t, v in res.items() if v != 'passed']}")
                    verdicts.append("gold:pass" if passed else "gold:FAIL")
                else:
                    if passed:
                        problems.append(f"{tid}: decoy {cand['id']} passes every test")
                    failing = sum(1 for v in res.values() if v != "passed")
                    verdicts.append(f"decoy:fails {failing}" if not passed else "decoy:PASSES")
            ok_lines.append(
                f"{tid} [{task['family']}] F2P {len(task['FAIL_TO_PASS'])} fail at base; "
                + ", ".join(verdicts)
            )

    # ---- schemas with dreamer's own models
    check = (
        "import json, sys\n"
        "from evals.tasks import load_tasks\n"
        "from dreamer.models import Memory\n"
        "tasks = load_tasks(sys.argv[1])\n"
        "n = 0\n"
        "for t in tasks:\n"
        "    for m in t.oracle_memories:\n"
        "        Memory.model_validate(m); n += 1\n"
        "rows = [json.loads(l) for l in open(sys.argv[1] + '/memories/oracle.jsonl') if l.strip()]\n"
        "ids = [Memory.model_validate(r).id for r in rows]\n"
        "print(f'load_tasks: {len(tasks)} tasks; {n} oracle_memories rows and {len(rows)} oracle.jsonl rows "
        "validate as Memory ({len(set(ids))} distinct ids)')\n"
    )
    r = run([DREAMER_PY, "-c", check, str(CORPUS)], "/work/main")
    if r.returncode:
        problems.append(f"load_tasks / Memory validation failed:\n{r.stderr[-2000:]}")
    else:
        ok_lines.append(r.stdout.strip())

    for line in ok_lines:
        print(line)
    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for p in problems:
            print(" -", p)
        return 1
    print(f"\nOK: {len(tasks)} tasks, {sum(len(t['candidates']) - 1 for t in tasks)} decoys, "
          f"{len(facts)} facts, {len(sessions)} sessions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
