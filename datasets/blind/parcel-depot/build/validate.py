"""Validate the parcel-depot corpus from its files alone (the bundle, tasks.jsonl, sessions, facts).

Usage: python3 build/validate.py   (needs /tmp/parcel-depot-venv with pytest==8.3.3)
For every task: the base with the test patch fails every FAIL_TO_PASS and passes every PASS_TO_PASS,
the gold passes all, every decoy applies cleanly and fails at least one of them. Prints a table and
the gold's size rank (1 = smallest of 4, by changed code lines) per family.
"""
import json
import shutil
import sys
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import SCRATCH, apply_patch, check_apply, code_lines, drop_worktree, pytest_results, run, worktree  # noqa: E402

CORPUS = HERE.parent


def load(name):
    return [json.loads(l) for l in (CORPUS / name).read_text().splitlines() if l.strip()]


def main():
    tasks = load("tasks.jsonl")
    sessions = load("sessions.jsonl")
    facts = load("facts.jsonl")
    memories = load("memories/oracle.jsonl")
    problems = []

    # sessions: files exist, parse as SWE-agent trajectories, commits exist in the bundle
    clone = SCRATCH / "validate-clone"
    shutil.rmtree(clone, ignore_errors=True)
    bundle = CORPUS / tasks[0]["source"]["location"]
    run(["git", "clone", "-q", "--mirror", str(bundle), str(clone)], SCRATCH)
    for s in sessions:
        traj = json.loads((CORPUS / s["file"]).read_text())
        for key in ("trajectory", "history", "info", "replay_config", "environment"):
            if key not in traj:
                problems.append(f"{s['instance_id']}: no {key}")
        for c in (s["commit_start"], s["commit_end"]):
            if c and run(["git", "cat-file", "-e", c], clone, check=False).returncode:
                problems.append(f"{s['instance_id']}: commit {c} not in bundle")
    ended = {s["instance_id"]: datetime.fromisoformat(s["ended_at"]) for s in sessions}
    fam_sessions = {f["family"]: f["sessions"] for f in facts}
    if len(memories) < len(facts):
        problems.append("fewer memories than facts")

    # tasks
    # validation worktrees come from the bundle clone, not the build repo
    wt_repo = SCRATCH / "validate-repo"
    shutil.rmtree(wt_repo, ignore_errors=True)
    run(["git", "clone", "-q", str(bundle), str(wt_repo)], SCRATCH)
    run(["git", "fetch", "-q", str(bundle), "refs/heads/*:refs/remotes/bundle/*"], wt_repo)
    rows = []
    ranks = {}
    for t in tasks:
        created = datetime.fromisoformat(t["created_at"])
        late = [i for i in fam_sessions[t["family"]] if ended[i] >= created]
        if late:
            problems.append(f"{t['instance_id']}: created before sessions {late} ended")
        tests = t["FAIL_TO_PASS"] + t["PASS_TO_PASS"]
        wt = worktree(wt_repo, t["base_commit"], "v")
        apply_patch(wt, t["test_patch"])
        base = pytest_results(wt)
        drop_worktree(wt_repo, wt)
        base_ok = all(not base.get(x, False) for x in t["FAIL_TO_PASS"]) and all(base.get(x) for x in t["PASS_TO_PASS"])
        wt = worktree(wt_repo, t["base_commit"], "v")
        apply_patch(wt, t["test_patch"])
        apply_patch(wt, t["patch"])
        gold = pytest_results(wt)
        drop_worktree(wt_repo, wt)
        gold_ok = all(gold.get(x) for x in tests)
        decoy_fails = []
        sizes = []
        for c in t["candidates"]:
            sizes.append(code_lines(c["patch"]))
            if c["patch"] == t["patch"]:
                continue
            wt = worktree(wt_repo, t["base_commit"], "v")
            apply_patch(wt, t["test_patch"])
            if not check_apply(wt, c["patch"]):
                problems.append(f"{t['instance_id']}: decoy {c['id']} does not apply")
                drop_worktree(wt_repo, wt)
                continue
            apply_patch(wt, c["patch"])
            res = pytest_results(wt)
            drop_worktree(wt_repo, wt)
            decoy_fails.append(sum(1 for x in tests if not res.get(x, False)))
        gsize = code_lines(t["patch"])
        rank = 1 + sum(1 for s in sizes if s < gsize)
        ties = sum(1 for s in sizes if s == gsize) - 1
        ranks.setdefault(t["family"], []).append(rank)
        ok = base_ok and gold_ok and decoy_fails and all(n > 0 for n in decoy_fails) and len(t["candidates"]) >= 4
        if not ok:
            problems.append(f"{t['instance_id']}: base_ok={base_ok} gold_ok={gold_ok} decoy_fails={decoy_fails}")
        rows.append((t["instance_id"], t["family"], t["position"], t["base_commit"][:8], len(t["FAIL_TO_PASS"]),
                     len(t["PASS_TO_PASS"]), "yes" if base_ok else "NO", "yes" if gold_ok else "NO",
                     ",".join(map(str, decoy_fails)), f"{gsize} / {sorted(sizes)}", f"{rank}{' (tie)' if ties else ''}"))
    head = ("task", "family", "pos", "base", "F2P", "P2P", "base ok", "gold ok", "decoy failing tests",
            "gold lines / all", "gold rank")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(v).ljust(w) for v, w in zip(r, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print()
    for fam, rs in ranks.items():
        print(f"gold size ranks, {fam}: {rs}")
    print(f"sessions: {len(sessions)}, tasks: {len(tasks)}, facts: {len(facts)}, memories: {len(memories)}")
    shutil.rmtree(clone, ignore_errors=True)
    shutil.rmtree(wt_repo, ignore_errors=True)
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print(" -", p)
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
