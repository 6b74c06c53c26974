"""Create the task bases, patches and measurements; write tasks.jsonl, facts, memories, bundle."""
import hashlib
import json
import random
import subprocess
from pathlib import Path

from common import (BUNDLE_NAME, REPO_NAME, SCRATCH, VENV, apply_patch, code_lines, drop_worktree, git,
                    pytest_results, run, test_env, worktree)
import facts as facts_mod
import tasks_spec

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
REPO = SCRATCH / "parcel-depot"


def apply_edits(root, edits):
    for ch in edits:
        if ch[0] == "edit":
            _, path, old, new = ch
            p = Path(root) / path
            text = p.read_text()
            if text.count(old) != 1:
                raise RuntimeError(f"{path}: old text found {text.count(old)} times:\n{old}")
            p.write_text(text.replace(old, new))
        elif ch[0] == "write":
            _, path, text = ch
            (Path(root) / path).parent.mkdir(parents=True, exist_ok=True)
            (Path(root) / path).write_text(text)
        elif ch[0] == "regen":
            run([str(VENV / "bin/python"), "-m", "depot.tools.build_routes"], root, test_env())
        else:
            raise ValueError(ch)


def diff_of(wt, base, edits):
    apply_edits(wt, edits)
    run(["git", "add", "-A"], wt)
    d = run(["git", "diff", "--cached", base], wt).stdout
    run(["git", "reset", "-q", "--hard", base], wt)
    run(["git", "clean", "-fdqx"], wt)
    return d


def describe(patch):
    files, add, rem = [], 0, 0
    for line in patch.splitlines():
        if line.startswith("+++ b/"):
            files.append(line[6:])
        elif line.startswith("+") and not line.startswith("+++"):
            add += 1
        elif line.startswith("-") and not line.startswith("---"):
            rem += 1
    where = ", ".join(files)
    return f"Edits {where}: {add} line{'s' if add != 1 else ''} added, {rem} removed."


def measure(base, test_patch, patch, name):
    wt = worktree(REPO, base, name)
    try:
        apply_patch(wt, test_patch)
        apply_patch(wt, patch)
        return pytest_results(wt)
    finally:
        drop_worktree(REPO, wt)


def main(session_rows):
    main_head = git(REPO, "rev-parse", "main").strip()
    specs = sorted(tasks_spec.TASKS, key=lambda t: t["created_at"])
    facts, memories = facts_mod.build(REPO, session_rows)
    mem_by_family = {}
    for fam, mem in memories:
        mem_by_family.setdefault(fam, []).append(mem)
    rows = []
    for spec in specs:
        n = spec["n"]
        if spec.get("branch"):
            git(REPO, "checkout", "-q", "-b", spec["branch"], main_head)
            apply_edits(REPO, spec["base_changes"])
            git(REPO, "add", "-A")
            git(REPO, "commit", "-q", "-m", spec["base_message"], who=spec["base_who"], date=spec["base_date"])
            base = git(REPO, "rev-parse", "HEAD").strip()
            git(REPO, "checkout", "-q", "main")
        else:
            base = main_head
        wt = worktree(REPO, base, f"t{n}")
        test_patch = diff_of(wt, base, spec["tests"])
        gold = diff_of(wt, base, spec["gold"])
        decoys = [diff_of(wt, base, d) for d in spec["decoys"]]
        drop_worktree(REPO, wt)
        at_base = measure(base, test_patch, "", f"t{n}-base")
        with_gold = measure(base, test_patch, gold, f"t{n}-gold")
        assert with_gold and all(with_gold.values()), (n, with_gold)
        f2p = sorted(t for t, ok in with_gold.items() if ok and not at_base.get(t, False))
        p2p = sorted(t for t, ok in at_base.items() if ok and with_gold.get(t))
        assert f2p, n
        for i, d in enumerate(decoys):
            res = measure(base, test_patch, d, f"t{n}-d{i}")
            failing = [t for t in f2p + p2p if not res.get(t, False)]
            assert failing, (n, i, "decoy passes every test")
        cands = [("gold", gold)] + [(f"decoy{i}", d) for i, d in enumerate(decoys)]
        rng = random.Random(f"parcel-depot-{n}")
        rng.shuffle(cands)
        candidates = []
        for kind, patch in cands:
            cid = hashlib.sha256(f"{n}/{kind}".encode()).hexdigest()[:8]
            candidates.append({"id": cid, "patch": patch, "description": describe(patch)})
        rows.append({
            "instance_id": f"acme-post__parcel-depot-{n}",
            "repo": REPO_NAME,
            "base_commit": base,
            "created_at": spec["created_at"],
            "problem_statement": spec["problem"],
            "patch": gold,
            "test_patch": test_patch,
            "FAIL_TO_PASS": f2p,
            "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": f"repos/{BUNDLE_NAME}"},
            "family": spec["family"],
            "position": spec["position"],
            "candidates": candidates,
            "test_command": "{python} -m pytest -q -p no:cacheprovider {tests}",
            "oracle_memories": mem_by_family[spec["family"]],
        })
        print(f"task {n}: base {base[:8]} F2P {len(f2p)} P2P {len(p2p)} gold {code_lines(gold)} "
              f"decoys {[code_lines(d) for d in decoys]}", flush=True)
    rows.sort(key=lambda r: int(r["instance_id"].rsplit("-", 1)[1]))
    with open(CORPUS / "tasks.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    with open(CORPUS / "sessions.jsonl", "w") as f:
        for r in session_rows:
            f.write(json.dumps(r) + "\n")
    with open(CORPUS / "facts.jsonl", "w") as f:
        for r in facts:
            f.write(json.dumps(r) + "\n")
    with open(CORPUS / "memories" / "oracle.jsonl", "w") as f:
        for _, m in memories:
            f.write(json.dumps(m) + "\n")
    git(REPO, "checkout", "-q", "main")
    bundle = CORPUS / "repos" / BUNDLE_NAME
    run(["git", "bundle", "create", str(bundle), "--all"], REPO)
    print("main", main_head)
