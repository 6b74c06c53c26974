"""Turn build/task_specs.py into tasks.jsonl (patches made with git, tests run for real).

    python build/make_tasks.py        (needs pytest in the running interpreter)

For every task: checks out the base commit in a scratch clone of the bundle,
applies each candidate's edits and the test edits, records the diffs, and
runs the tests: FAIL_TO_PASS must fail at the base with the test patch; the
gold must pass FAIL_TO_PASS and PASS_TO_PASS (PASS_TO_PASS = every other test
that passes at the base with the test patch); every decoy must apply cleanly
and fail at least one of them. Writes tasks.jsonl, facts.jsonl,
memories/oracle.jsonl and build/task_checks.json.
"""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
sys.path.insert(0, str(HERE))

import facts as facts_mod  # noqa: E402
import task_specs  # noqa: E402

REPO = "acme-transit/fare-engine"
BUNDLE = CORPUS / "repos" / "acme-transit__fare-engine.bundle"
TEST_COMMAND = "{python} -m pytest -rA -v -p no:cacheprovider {tests}"


def sh(*args, cwd, check=True, input=None):
    res = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, input=input)
    if check and res.returncode != 0:
        raise RuntimeError(f"{args}: {res.stdout}\n{res.stderr}")
    return res


def reset(work: Path, base: str) -> None:
    sh("git", "checkout", "-q", "-f", base, cwd=work)
    sh("git", "clean", "-fdxq", cwd=work)


def diff_of(work: Path, base: str, edit) -> str:
    reset(work, base)
    edit(work)
    sh("git", "add", "-A", cwd=work)
    out = sh("git", "diff", "--cached", base, cwd=work).stdout
    reset(work, base)
    return out


def apply(work: Path, patch: str) -> bool:
    if not patch:
        return True
    res = sh("git", "apply", "--check", "-", cwd=work, check=False, input=patch)
    if res.returncode != 0:
        return False
    sh("git", "apply", "-", cwd=work, input=patch)
    return True


def run_tests(work: Path) -> dict[str, str]:
    res = sh(sys.executable, "-m", "pytest", "-rA", "-v", "-p", "no:cacheprovider",
             "--continue-on-collection-errors", cwd=work, check=False)
    outcomes = {}
    for line in res.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
        if m:
            status, node = m.groups()
            if outcomes.get(node) != "FAILED":
                outcomes[node] = status
    return outcomes


def code_lines(patch: str) -> int:
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")) or not line.startswith(("+", "-")):
            continue
        body = line[1:].strip()
        if not body or body.startswith("#"):
            continue
        n += 1
    return n


def describe(patch: str) -> str:
    files = []
    for block in re.split(r"^diff --git ", patch, flags=re.M)[1:]:
        path = block.split("\n", 1)[0].split(" b/")[-1]
        added = sum(1 for l in block.splitlines() if l.startswith("+") and not l.startswith("+++"))
        removed = sum(1 for l in block.splitlines() if l.startswith("-") and not l.startswith("---"))
        files.append(f"{path} (+{added}/-{removed})")
    return "Changes " + ", ".join(files) + "."


def main() -> None:
    commits = json.loads((HERE / "commits.json").read_text())
    base = commits["release-0.4.0"]
    oracle = facts_mod.oracle_rows()
    tmp = Path(tempfile.mkdtemp(prefix="fare-tasks-"))
    work = tmp / "repo"
    sh("git", "clone", "-q", str(BUNDLE), str(work), cwd=tmp)
    rows, checks = [], []
    for spec in task_specs.TASKS:
        iid = f"acme-transit__fare-engine-{spec['n']}"
        test_patch = diff_of(work, base, spec["tests"])
        gold = diff_of(work, base, spec["gold"])
        decoys = [(fn.__name__, diff_of(work, base, fn)) for fn in spec["decoys"]]
        f2p = spec["fail_to_pass"]

        reset(work, base)
        apply(work, test_patch)
        at_base = run_tests(work)
        assert all(at_base.get(t) != "PASSED" for t in f2p), (iid, {t: at_base.get(t) for t in f2p})
        p2p = sorted(t for t, s in at_base.items() if s == "PASSED" and t not in f2p)

        reset(work, base)
        assert apply(work, gold) and apply(work, test_patch)
        with_gold = run_tests(work)
        bad = [t for t in f2p + p2p if with_gold.get(t) != "PASSED"]
        assert not bad, (iid, "gold fails", bad)

        decoy_results = []
        for name, patch in decoys:
            reset(work, base)
            assert apply(work, patch), (iid, name, "does not apply")
            assert apply(work, test_patch), (iid, name, "test patch does not apply over decoy")
            out = run_tests(work)
            failing = [t for t in f2p + p2p if out.get(t) != "PASSED"]
            assert failing, (iid, name, "decoy passes everything")
            decoy_results.append({"decoy": name, "failing": failing, "code_lines": code_lines(patch)})
        reset(work, base)

        sizes = sorted([code_lines(gold)] + [d["code_lines"] for d in decoy_results])
        gold_rank = sizes.index(code_lines(gold)) + 1
        cands = [("gold", gold)] + [(name, patch) for name, patch in decoys]
        rnd = random.Random(iid)
        rnd.shuffle(cands)
        candidates = []
        for i, (name, patch) in enumerate(cands):
            candidates.append({"id": f"c{i + 1}", "patch": patch, "description": describe(patch)})
        gold_id = next(c["id"] for c, (name, _) in zip(candidates, cands) if name == "gold")
        rows.append({
            "instance_id": iid,
            "repo": REPO,
            "base_commit": base,
            "created_at": spec["created_at"],
            "problem_statement": spec["problem_statement"],
            "patch": gold,
            "test_patch": test_patch,
            "FAIL_TO_PASS": f2p,
            "PASS_TO_PASS": p2p,
            "source": {"kind": "bundle", "location": "repos/acme-transit__fare-engine.bundle"},
            "family": spec["family"],
            "position": spec["position"],
            "candidates": candidates,
            "test_command": TEST_COMMAND,
            "oracle_memories": oracle[spec["family"]],
        })
        checks.append({"instance_id": iid, "family": spec["family"], "gold_id": gold_id,
                       "gold_code_lines": code_lines(gold), "gold_rank": gold_rank,
                       "n_candidates": len(candidates), "decoys": decoy_results,
                       "fail_to_pass_at_base": {t: at_base.get(t, "missing") for t in f2p},
                       "pass_to_pass": len(p2p)})
        print(iid, "gold rank", gold_rank, "of", len(candidates), "sizes", sizes,
              "decoys fail:", [len(d["failing"]) for d in decoy_results])
    shutil.rmtree(tmp)
    with open(CORPUS / "tasks.jsonl", "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    (HERE / "task_checks.json").write_text(json.dumps(checks, indent=2) + "\n")
    facts_mod.write(CORPUS, commits)


if __name__ == "__main__":
    main()
