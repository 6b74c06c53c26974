"""Second half of the build: task branches, candidate patches measured by really running
the tests, tasks.jsonl, facts.jsonl, memories/oracle.jsonl, sessions.jsonl, the bundle."""
import json
import os
import random
import shutil
import subprocess
import sys

from common import (BUNDLE_NAME, OWNER_NAME, SCRATCH, code_lines, git_env, run_tests, sh)
import tasks_def
import facts_def

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
REPO = os.path.join(SCRATCH, "box-office")
WT = os.path.join(SCRATCH, "wt")


def apply_edits(root, edits):
    for path, old, new in edits:
        full = os.path.join(root, path)
        if old is None:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as fh:
                fh.write(new)
            continue
        text = open(full).read()
        if text.count(old) != 1:
            raise RuntimeError(f"edit of {path} matches {text.count(old)} times: {old[:70]!r}")
        with open(full, "w") as fh:
            fh.write(text.replace(old, new))


def diff_of(root, edits):
    sh(["git", "reset", "-q", "--hard"], root)
    sh(["git", "clean", "-qfdx"], root)
    apply_edits(root, edits)
    sh(["git", "add", "-A"], root)
    d = sh(["git", "diff", "--cached", "--no-color"], root).stdout
    sh(["git", "reset", "-q", "--hard"], root)
    sh(["git", "clean", "-qfdx"], root)
    return d


def apply_patch(root, patch):
    sh(["git", "apply", "-"], root, input=patch)


def make_branches():
    bases = {}
    main = sh(["git", "rev-parse", "main"], REPO).stdout.strip()
    for t in tasks_def.TASKS:
        if not t.get("branch"):
            bases[t["n"]] = main
            continue
        sh(["git", "checkout", "-q", "-b", t["branch"], main], REPO)
        edits = [(p, None, c) for p, c in t.get("branch_files", {}).items()] + list(t.get("branch_edits", []))
        apply_edits(REPO, edits)
        sh(["git", "add", "-A"], REPO)
        sh(["git", "commit", "-q", "-m", t["branch_msg"]], REPO, env=git_env(t["author"], t["branch_at"]))
        bases[t["n"]] = sh(["git", "rev-parse", "HEAD"], REPO).stdout.strip()
        sh(["git", "checkout", "-q", "main"], REPO)
    return bases


def describe(patch):
    files = {}
    cur = None
    for line in patch.splitlines():
        if line.startswith("+++ "):
            cur = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("--- ") and cur is None:
            pass
        elif cur and line[:1] == "+" and not line.startswith("+++"):
            files.setdefault(cur, [0, 0])[0] += 1
        elif cur and line[:1] == "-" and not line.startswith("---"):
            files.setdefault(cur, [0, 0])[1] += 1
    parts = [f"{f}: {a} line{'s' if a != 1 else ''} added, {r} removed" for f, (a, r) in sorted(files.items())]
    return "Changes " + "; ".join(parts) + "."


def measure(task, base):
    sh(["git", "checkout", "-q", "--detach", base], WT)
    sh(["git", "reset", "-q", "--hard"], WT)
    sh(["git", "clean", "-qfdx"], WT)
    test_patch = diff_of(WT, [(p, None, c) for p, c in task["tests"].items()])
    gold = diff_of(WT, task["gold"])
    decoys = [diff_of(WT, d) for d in task["decoys"]]

    def run_with(patches):
        sh(["git", "reset", "-q", "--hard"], WT)
        sh(["git", "clean", "-qfdx"], WT)
        for p in patches:
            apply_patch(WT, p)
        res, proc = run_tests(WT)
        sh(["git", "reset", "-q", "--hard"], WT)
        sh(["git", "clean", "-qfdx"], WT)
        return res, proc

    r_base, _ = run_with([test_patch])
    r_gold, p_gold = run_with([test_patch, gold])
    bad = [k for k, v in r_gold.items() if not v]
    if bad or not r_gold:
        raise RuntimeError(f"task {task['n']}: gold fails {bad}\n{p_gold.stdout[-3000:]}")
    f2p = sorted(k for k in r_gold if not r_base.get(k, False))
    p2p = sorted(k for k in r_gold if r_base.get(k, False))
    new_tests = set(task["tests"])
    if not f2p:
        raise RuntimeError(f"task {task['n']}: nothing fails at base")
    decoy_fail = []
    for i, d in enumerate(decoys):
        r, _ = run_with([test_patch, d])
        failed = sorted(k for k in f2p + p2p if not r.get(k, False))
        if not failed:
            raise RuntimeError(f"task {task['n']}: decoy {i} passes everything")
        decoy_fail.append(failed)
    return test_patch, gold, decoys, f2p, p2p, decoy_fail


def main(shas, sessions):
    bases = make_branches()
    if os.path.exists(WT):
        shutil.rmtree(WT)
    sh(["git", "worktree", "add", "-q", "--detach", WT, "main"], REPO)
    facts, memories = facts_def.facts_and_memories(shas, sessions)
    mem_by_family = {}
    for fam, mem in memories:
        mem_by_family.setdefault(fam, []).append(mem)
    positions = {}
    tasks = []
    report = []
    for t in tasks_def.TASKS:
        base = bases[t["n"]]
        test_patch, gold, decoys, f2p, p2p, decoy_fail = measure(t, base)
        positions[t["family"]] = positions.get(t["family"], 0) + 1
        rng = random.Random(f"box-office-{t['n']}")
        ids = rng.sample(["cand-a", "cand-b", "cand-c", "cand-d"], 4)
        cands = [{"id": ids[0], "patch": gold, "description": describe(gold)}]
        for i, d in enumerate(decoys):
            cands.append({"id": ids[i + 1], "patch": d, "description": describe(d)})
        order = list(range(4))
        rng.shuffle(order)
        cands = [cands[i] for i in order]
        sizes = {"gold": code_lines(gold), "decoys": [code_lines(d) for d in decoys]}
        tasks.append({
            "instance_id": f"acme-events__box-office-{t['n']}",
            "repo": OWNER_NAME,
            "base_commit": base,
            "created_at": t["created_at"],
            "problem_statement": t["problem"],
            "patch": gold,
            "test_patch": test_patch,
            "FAIL_TO_PASS": f2p,
            "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": f"repos/{BUNDLE_NAME}"},
            "family": t["family"],
            "position": positions[t["family"]],
            "candidates": cands,
            "test_command": "{python} -m pytest -q {tests}",
            "oracle_memories": mem_by_family[t["family"]],
        })
        report.append((t["n"], t["family"], sizes, len(f2p), len(p2p), decoy_fail))
        print(f"  task {t['n']:>2} {t['family']:<22} gold={sizes['gold']} decoys={sizes['decoys']} F2P={len(f2p)} P2P={len(p2p)}")
    sh(["git", "worktree", "remove", "--force", WT], REPO)

    with open(os.path.join(CORPUS, "tasks.jsonl"), "w") as fh:
        for t in tasks:
            fh.write(json.dumps(t) + "\n")
    with open(os.path.join(CORPUS, "facts.jsonl"), "w") as fh:
        for f in facts:
            fh.write(json.dumps(f) + "\n")
    os.makedirs(os.path.join(CORPUS, "memories"), exist_ok=True)
    with open(os.path.join(CORPUS, "memories", "oracle.jsonl"), "w") as fh:
        for _, m in memories:
            fh.write(json.dumps(m) + "\n")
    with open(os.path.join(CORPUS, "sessions.jsonl"), "w") as fh:
        for s in sessions:
            fh.write(json.dumps(s) + "\n")
    os.makedirs(os.path.join(CORPUS, "repos"), exist_ok=True)
    bundle = os.path.join(CORPUS, "repos", BUNDLE_NAME)
    if os.path.exists(bundle):
        os.remove(bundle)
    sh(["git", "bundle", "create", bundle, "--all"], REPO)
    with open(os.path.join(SCRATCH, "shas.json"), "w") as fh:
        json.dump({"shas": shas, "bases": bases}, fh, indent=1)
    return tasks
