"""Build the evaluation tasks on top of the history made by build.py.

    python3 build/tasks.py

Creates the side branches (naive features, fixed dates) in the checkout, computes every patch
against its base, runs the tests for real (FAIL_TO_PASS fail at the base, the gold passes all,
each decoy applies and fails at least one), then writes tasks.jsonl and the bundle.
"""

import hashlib
import json
import random
import sys
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
sys.path.insert(0, str(BUILD))

from corpus_lib import Checkout, apply_edits, apply_patch, changed_code_lines, diff_of, git, patch_stats, run_tests  # noqa: E402
from task_specs import BRANCHES, TASKS  # noqa: E402

CHECKOUT = Path("/workspaces/irrigation-control")
REPO = "acme-farm/irrigation-control"
OWNER_NAME = "acme-farm__irrigation-control"
BUNDLE = CORPUS / "repos" / f"{OWNER_NAME}.bundle"


def make_branches():
    main = git(CHECKOUT, "rev-parse", "main").strip()
    shas = {"main": main}
    for name, spec in BRANCHES.items():
        git(CHECKOUT, "checkout", "-q", "-B", name, main)
        apply_edits(CHECKOUT, spec["edits"])
        author = spec["author"]
        env = {
            "GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1],
            "GIT_COMMITTER_NAME": author[0], "GIT_COMMITTER_EMAIL": author[1],
            "GIT_AUTHOR_DATE": spec["date"], "GIT_COMMITTER_DATE": spec["date"],
        }
        git(CHECKOUT, "add", "-A")
        git(CHECKOUT, "commit", "-q", "-m", spec["message"], env=env)
        shas[name] = git(CHECKOUT, "rev-parse", "HEAD").strip()
    git(CHECKOUT, "checkout", "-q", "main")
    return shas


def patch_for(base, edits):
    with Checkout(CHECKOUT, base) as root:
        apply_edits(root, edits)
        return diff_of(root)


def describe(patch):
    files, added, removed = patch_stats(patch)
    return f"Changes {', '.join(files)}: {added} lines added, {removed} removed."


def main():
    shas = make_branches()
    memories = [json.loads(line) for line in (CORPUS / "memories" / "oracle.jsonl").read_text().splitlines()]
    facts = [json.loads(line) for line in (CORPUS / "facts.jsonl").read_text().splitlines()]
    family_rows = {}
    for fact, memory in zip_family(facts, memories):
        family_rows.setdefault(fact, []).append(memory)

    rows = []
    report = []
    for spec in TASKS:
        base = shas[spec["base"]]
        iid = f"{OWNER_NAME}-{spec['n']}"
        test_patch = patch_for(base, spec["test_patch"])
        gold = patch_for(base, spec["gold"])
        decoys = [patch_for(base, d) for d in spec["decoys"]]

        with Checkout(CHECKOUT, base) as root:
            ok, err = apply_patch(root, test_patch)
            assert ok, err
            at_base = run_tests(root)
        with Checkout(CHECKOUT, base) as root:
            assert apply_patch(root, gold)[0] and apply_patch(root, test_patch)[0]
            with_gold = run_tests(root)
        # a test module that cannot be imported at the base shows up as one collection error
        assert all(with_gold.values()), f"{iid}: gold fails {[k for k, v in with_gold.items() if not v]}"
        f2p = sorted(k for k in with_gold if not at_base.get(k, False))
        p2p = sorted(k for k in with_gold if at_base.get(k, False))
        assert f2p, f"{iid}: nothing fails at the base"

        def outcome(patch):
            with Checkout(CHECKOUT, base) as root:
                ok, err = apply_patch(root, patch)
                if not ok:
                    return None
                ok, err = apply_patch(root, test_patch)
                assert ok, err
                res = run_tests(root, f2p + p2p)
                return [t for t in f2p + p2p if not res.get(t, False)]

        gold_fail = outcome(gold)
        assert gold_fail == [], f"{iid}: gold fails {gold_fail}"
        decoy_fail = [outcome(d) for d in decoys]
        for i, fails in enumerate(decoy_fail):
            assert fails is not None, f"{iid}: decoy {i} does not apply"
            assert fails, f"{iid}: decoy {i} passes everything"

        sizes = [changed_code_lines(gold)] + [changed_code_lines(d) for d in decoys]
        rank = 1 + sum(1 for s in sizes[1:] if s < sizes[0])
        ties = sum(1 for s in sizes[1:] if s == sizes[0])

        rng = random.Random(iid)
        cands = [("gold", gold)] + [(f"decoy{i}", d) for i, d in enumerate(decoys)]
        rng.shuffle(cands)
        candidates = []
        for label, patch in cands:
            cid = "cand-" + hashlib.sha256(f"{iid}/{label}".encode()).hexdigest()[:8]
            candidates.append({"id": cid, "patch": patch, "description": describe(patch)})

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
            "source": {"kind": "bundle", "location": f"repos/{OWNER_NAME}.bundle"},
            "family": spec["family"],
            "position": spec["position"],
            "candidates": candidates,
            "oracle_memories": family_rows[spec["family"]],
        })
        report.append((iid, spec["family"], spec["base"], len(f2p), len(p2p), sizes, rank, ties,
                       [len(f) for f in decoy_fail]))

    with open(CORPUS / "tasks.jsonl", "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    BUNDLE.parent.mkdir(exist_ok=True)
    if BUNDLE.exists():
        BUNDLE.unlink()
    git(CHECKOUT, "bundle", "create", str(BUNDLE), "--all")
    (BUILD / "out").mkdir(exist_ok=True)
    (BUILD / "out" / "branches.json").write_text(json.dumps(shas, indent=2) + "\n")
    for r in report:
        print(f"{r[0]} [{r[1]}] base={r[2]} F2P={r[3]} P2P={r[4]} sizes(gold,decoys)={r[5]} "
              f"gold_rank={r[6]}/4 ties={r[7]} decoy_failures={r[8]}")


def zip_family(facts, memories):
    """memories/oracle.jsonl rows follow facts.jsonl; build/facts.py writes `_family` beside it."""
    index = json.loads((BUILD / "out" / "memory_families.json").read_text())
    for fam, memory in zip(index, memories):
        yield fam, memory


if __name__ == "__main__":
    main()
