"""Turn tasks_def.py into tasks.jsonl (patches are real `git diff`s against the base), and write
facts.jsonl and memories/oracle.jsonl. Run after build.py."""
import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

from tasks_def import TASKS
from facts_def import FACTS, MEMORIES

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
SCRATCH = CORPUS.parent / "scratch-fleet"
REPO = SCRATCH / "acme-fleet__fleet-maintenance"
WT = SCRATCH / "task-wt"
PY = str(SCRATCH / "venv" / "bin" / "python")
OWNER_NAME = "acme-fleet__fleet-maintenance"


def sh(*args, cwd=WT, check=True):
    return subprocess.run(args, cwd=cwd, check=check, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(SCRATCH),
                                          "PYTHONDONTWRITEBYTECODE": "1"}).stdout


def reset(base):
    sh("git", "checkout", "-q", "-f", base)
    sh("git", "clean", "-qfdx")


def apply(subs):
    for sub in subs:
        if sub[0] == "REBUILD":
            sh(PY, "-m", "fleet.inventory.build_index")
            continue
        path, old, new = sub
        p = WT / path
        text = p.read_text()
        assert text.count(old) == 1, (path, old)
        p.write_text(text.replace(old, new))
    sh("git", "add", "-A")
    return sh("git", "diff", "--cached")


def run_tests(ids):
    out = sh(PY, "-m", "pytest", "-rA", "-p", "no:cacheprovider", *ids, check=False)
    status = {}
    for line in out.splitlines():
        for word in ("PASSED", "FAILED", "ERROR"):
            if line.startswith(word + " "):
                status[line.split()[1]] = word
    return status


def main():
    base = json.loads((BUILD / "shas.json").read_text())["move"]
    if WT.exists():
        shutil.rmtree(WT)
    sh("git", "clone", "-q", str(REPO), str(WT), cwd=SCRATCH)
    rows = []
    positions = {}
    for n, t in enumerate(TASKS, 1):
        reset(base)
        test_patch = apply([(t["test_file"], "", t["test"])]) if False else None
        (WT / t["test_file"]).write_text(t["test"])
        sh("git", "add", "-A")
        test_patch = sh("git", "diff", "--cached")
        new_ids = [f"{t['test_file']}::{node.name}" for node in ast.parse(t["test"]).body
                   if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
        at_base = run_tests(new_ids + t["P2P"])
        f2p = [i for i in new_ids if at_base.get(i) != "PASSED"]
        p2p = [i for i in new_ids if at_base.get(i) == "PASSED"] + [i for i in t["P2P"] if i not in new_ids]
        cands = []
        for cid, subs in [("gold", t["gold"])] + [(f"alt{k}", d) for k, d in enumerate(t["decoys"], 1)]:
            reset(base)
            patch = apply(subs)
            files = sorted({line[6:] for line in patch.splitlines() if line.startswith("+++ b/")})
            changed = sum(1 for line in patch.splitlines()
                          if line[:1] in "+-" and not line.startswith(("+++", "---"))
                          and line[1:].strip() and not line[1:].strip().startswith("#"))
            cands.append({"id": cid, "patch": patch,
                          "description": f"Changes {', '.join(files)} ({changed} changed lines)."})
        gold = cands[0]["patch"]
        # neutral, deterministic order of candidates: by patch text hash
        import hashlib
        cands.sort(key=lambda c: hashlib.sha256(c["patch"].encode()).hexdigest())
        fam = t["family"]
        positions[fam] = positions.get(fam, 0) + 1
        fam_idx = [f["family"] for f in FACTS].index(fam)
        rows.append({
            "instance_id": f"{OWNER_NAME}-{n}", "repo": "acme-fleet/fleet-maintenance", "base_commit": base,
            "created_at": t["created_at"], "problem_statement": t["problem_statement"], "patch": gold,
            "test_patch": test_patch, "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": f"repos/{OWNER_NAME}.bundle"},
            "family": fam, "position": positions[fam], "candidates": cands,
            "oracle_memories": MEMORIES[fam_idx],
        })
    (CORPUS / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (CORPUS / "facts.jsonl").write_text("".join(json.dumps(f) + "\n" for f in FACTS))
    (CORPUS / "memories").mkdir(exist_ok=True)
    (CORPUS / "memories" / "oracle.jsonl").write_text("".join(json.dumps(m) + "\n" for ms in MEMORIES for m in ms))
    (CORPUS / "repos").mkdir(exist_ok=True)
    subprocess.run(["git", "bundle", "create", str(CORPUS / "repos" / f"{OWNER_NAME}.bundle"), "--all"],
                   cwd=REPO, check=True, stderr=subprocess.DEVNULL)
    print(f"{len(rows)} tasks written")


if __name__ == "__main__":
    main()
