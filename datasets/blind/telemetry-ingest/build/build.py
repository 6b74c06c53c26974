"""Build the whole corpus: repository history, sessions, tasks, facts, memories and the bundle.

    python3 build/build.py            # from the corpus folder (needs PyPI once, for the pinned pytest venv)

Deterministic: fixed names and dates for every commit, session clocks derived from the session name.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BUNDLE_NAME, CHECKOUT, CORPUS, REPO, WORK, at, ensure_venv, git, head, reset_dir  # noqa: E402
from facts import FAMILY_ORDER, facts, memories  # noqa: E402
from history import build_history  # noqa: E402
from taskkit import build_task, gold_rank  # noqa: E402
import taskdefs_f1, taskdefs_f2, taskdefs_f3, taskdefs_f4  # noqa: E402,E401


def dump_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    started = time.time()
    WORK.mkdir(exist_ok=True)
    ensure_venv()
    reset_dir(CHECKOUT)
    for sub in ["sessions", "repos", "memories"]:
        if (CORPUS / sub).exists():
            shutil.rmtree(CORPUS / sub)

    history = build_history()
    main_tip = head()

    tasks = [*taskdefs_f1.TASKS, *taskdefs_f2.TASKS, *taskdefs_f3.TASKS, *taskdefs_f4.TASKS]
    for task in tasks:
        build_task(task, main_tip)
    git("checkout", "-q", "main")

    (CORPUS / "repos").mkdir()
    git("-c", "pack.threads=1", "bundle", "create", "-q", str(CORPUS / "repos" / BUNDLE_NAME), "--all")

    fact_rows = facts(history)
    memory_rows = memories(history)
    by_family = {f: [m] for f, m in zip(FAMILY_ORDER, memory_rows)}
    dump_jsonl(CORPUS / "facts.jsonl", fact_rows)
    dump_jsonl(CORPUS / "memories" / "oracle.jsonl", memory_rows)

    sessions = []
    for s in history.sessions:
        row = asdict(s)
        sessions.append({
            "instance_id": row["instance_id"], "file": row["file"], "session_id": row["session_id"], "repo": REPO,
            "kind": row["kind"], "task": row["task"], "family": row["family"],
            "started_at": row["started_at"], "ended_at": row["ended_at"],
            "commit_start": row["commit_start"], "commit_end": row["commit_end"],
            "evidence": row["evidence"], "noise": row["noise"],
        })
    dump_jsonl(CORPUS / "sessions.jsonl", sessions)

    rows = []
    for task in tasks:
        cands = [task.gold, *task.decoys]
        order = list(range(len(cands)))
        random.Random(task.instance_id).shuffle(order)
        letters = "abcd"
        candidates = [{"id": f"cand-{letters[i]}", "patch": cands[j].patch, "description": cands[j].description}
                      for i, j in enumerate(order)]
        rows.append({
            "instance_id": task.instance_id,
            "repo": REPO,
            "base_commit": task.base_commit,
            "created_at": at(task.created_at).isoformat(),
            "problem_statement": task.problem,
            "hints_text": "",
            "patch": task.gold.patch,
            "test_patch": task.test_patch,
            "FAIL_TO_PASS": task.f2p,
            "PASS_TO_PASS": task.p2p,
            "source": {"kind": "bundle", "location": f"repos/{BUNDLE_NAME}"},
            "family": task.family,
            "position": task.position,
            "candidates": candidates,
            "oracle_memories": by_family[task.family],
        })
        rank = gold_rank(task)
        sizes = ", ".join(f"{c.id}={c.size}" for c in cands)
        print(f"{task.instance_id:32s} {task.family:20s} gold {rank:8s} (target {task.target}) [{sizes}]")
        if rank != task.target:
            raise SystemExit(f"{task.instance_id}: gold ranks {rank}, expected {task.target}")
    dump_jsonl(CORPUS / "tasks.jsonl", rows)

    if "--keep-work" not in sys.argv:
        shutil.rmtree(WORK)
    print(f"built {len(sessions)} sessions, {len(rows)} tasks, {len(fact_rows)} facts in {time.time() - started:.1f}s")


if __name__ == "__main__":
    main()
