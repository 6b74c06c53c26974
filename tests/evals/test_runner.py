"""run_task end to end on real repositories: real patches, real pytest runs, real reports."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from evals.agents.base import Agent, AgentInput, Attempt
from evals.examples.demo import DemoSuite
from evals.runner import run_task
from evals.suite import oracle_bank
from evals.swebench.validate import FixedPatch
from tests.evals.conftest import CALC, calc_task

CALC_OPS_TEST = CALC["tests/test_ops.py"]
ADD_TEST = "\n\ndef test_add():\n    from calc.ops import add\n\n    assert add(2, 3) == 5\n"

HANG_TEST = {"tests/test_add.py": "import time\n\n\ndef test_add():\n    time.sleep(1000)\n"}


def test_oracle_resolves_and_none_fails_every_memory_task(demo: DemoSuite, tmp_path: Path) -> None:
    pairs = [(task, agent) for task in demo.tasks for agent in ("oracle", "none")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda p: run_task(p[0], p[1], run_dir=tmp_path / p[1],
                                                   timeout=60), pairs))
    for (task, _), oracle, blind in zip(pairs[::2], results[::2], results[1::2], strict=True):
        assert oracle.status == "resolved", (task.instance_id, oracle.reason)
        assert all(oracle.tests[t] == "passed" for t in (*task.FAIL_TO_PASS, *task.PASS_TO_PASS))
        assert blind.status == "unresolved" and blind.chosen != oracle.chosen, task.instance_id
        # The smallest fix fails its tests, or two fixes are as small and the control abstains.
        assert blind.reason.startswith(("failing: ", "abstained: ")), blind.reason


def test_selector_with_the_oracle_pack_resolves(demo: DemoSuite) -> None:
    from dreamer.router import pack

    task = demo.tasks[2]
    gold_pack = pack(oracle_bank(task), task.problem_statement, repo=task.repo)
    informed = run_task(task, "selector", gold_pack, timeout=60)
    assert informed.resolved and informed.chosen == "b" and informed.pack_tokens > 0


def test_artifacts_in_swe_bench_shape(demo: DemoSuite, tmp_path: Path) -> None:
    task = demo.tasks[0]
    result = run_task(task, "none", run_dir=tmp_path, timeout=60)
    folder = tmp_path / task.instance_id
    assert (folder / "patch.diff").read_text() == result.patch
    assert "short test summary info" in (folder / "test_output.txt").read_text()
    report = json.loads((folder / "report.json").read_text())[task.instance_id]
    assert report["patch_successfully_applied"] is True and report["resolved"] is False
    status = report["tests_status"]
    assert status["FAIL_TO_PASS"]["failure"] == ["tests/test_rounding.py::test_half_cent_rounds_up"]
    assert status["PASS_TO_PASS"]["success"] == list(task.PASS_TO_PASS)
    assert json.loads((folder / "result.json").read_text())["status"] == "unresolved"


def test_a_patch_that_does_not_apply_is_an_infra_error(calc_repo, tmp_path: Path) -> None:
    bad = "--- a/calc/ops.py\n+++ b/calc/ops.py\n@@ -1,2 +1,2 @@\n-def nope():\n-    pass\n+x\n+y\n"
    task = calc_task(calc_repo, patch=bad)
    result = run_task(task, "oracle", run_dir=tmp_path, timeout=60)
    assert (result.status, result.reason) == ("infra_error", "patch did not apply")
    assert not result.resolved
    report = json.loads((tmp_path / "calc-1" / "report.json").read_text())["calc-1"]
    assert report["patch_successfully_applied"] is False
    assert "patch --fuzz" in (tmp_path / "calc-1" / "test_output.txt").read_text()


def test_a_patch_that_edits_a_file_the_test_patch_modifies_is_graded(calc_repo) -> None:
    """As SWE-bench does, the files the test patch modifies go back to the base commit before
    it is applied: the agent's edit to one of them is dropped, not an apply failure."""
    path, _ = calc_repo
    from evals.examples.gitrepo import diff_for

    ops_test = "tests/test_ops.py"
    # The test patch changes test_mul's line and adds test_add; the agent's edit changes the
    # same line otherwise: the test patch would not apply on top of it.
    changed = CALC_OPS_TEST.replace("mul(2, 3) == 6", "mul(2, 4) == 8")
    adds_a_test = diff_for(path, {ops_test: changed + ADD_TEST})
    edits_it = diff_for(path, {ops_test: CALC_OPS_TEST.replace("mul(2, 3) == 6",
                                                               "mul(3, 3) == 9")})
    task = calc_task(calc_repo, test_patch=adds_a_test,
                     FAIL_TO_PASS=["tests/test_ops.py::test_add"])
    gold_and_edit = task.patch + edits_it
    result = run_task(task, FixedPatch(gold_and_edit, "gold and a test edit"), timeout=60)
    assert result.status == "resolved", (result.status, result.reason)
    assert result.tests == {"tests/test_ops.py::test_add": "passed",
                            "tests/test_ops.py::test_mul": "passed"}
    # Graded too, and unresolved: add still subtracts.
    edit_only = run_task(task, FixedPatch(edits_it, "a test edit"), timeout=60)
    assert (edit_only.status, edit_only.reason) == (
        "unresolved", "failing: tests/test_ops.py::test_add")


def test_a_hanging_test_is_killed_at_the_timeout(calc_repo, tmp_path: Path) -> None:
    path, _ = calc_repo
    from evals.examples.gitrepo import diff_for

    task = calc_task(calc_repo, test_patch=diff_for(path, HANG_TEST))
    result = run_task(task, "oracle", run_dir=tmp_path, timeout=3)
    assert (result.status, result.reason) == ("infra_error", "timeout after 3s")
    assert result.duration_s < 20


def test_empty_patch_is_unresolved_without_a_run_and_a_silent_suite_is_infra(calc_repo) -> None:
    unchanged = run_task(calc_task(calc_repo, candidates=[]), "none", timeout=60)
    assert unchanged.status == "unresolved" and unchanged.patch == ""
    assert unchanged.abstained and unchanged.tests == {} and unchanged.test_duration_s == 0
    silent = run_task(calc_task(calc_repo, test_command="true"), "oracle", timeout=60)
    assert silent.status == "infra_error" and silent.reason.startswith("suite never ran")


def test_custom_test_command_and_unbuildable_environment(calc_repo, tmp_path: Path) -> None:
    custom = calc_task(calc_repo, test_command="{python} -m pytest -rA -p no:cacheprovider {tests}")
    assert run_task(custom, "oracle", timeout=60).resolved
    needs = calc_task(calc_repo, test_requirements=["dreamer-no-such-package==9.9.9"])
    broken = run_task(needs, "oracle", run_dir=tmp_path, timeout=60)
    assert (broken.status, broken.reason) == ("infra_error", "environment failed")
    assert "dreamer-no-such-package" in (tmp_path / "calc-1" / "test_output.txt").read_text()


class Snoop(Agent):
    """A planted agent that looks everywhere for the answer: in what it is handed, and in the
    working copy's history (every ref, every object, the reflog, the remotes)."""

    name = "snoop"
    reads_workdir = True
    seen: dict[str, object] = {}

    def attempt(self, inp: AgentInput) -> Attempt:
        import subprocess

        def git(*args: str) -> str:
            return subprocess.run(["git", *args], cwd=inp.workdir, capture_output=True,
                                  text=True).stdout

        handed = inp.model_dump(mode="json")
        Snoop.seen = {
            "fields": sorted(handed), "text": json.dumps(handed),
            "commits": git("rev-list", "--all", "--reflog").split(),
            "objects": git("cat-file", "--batch-all-objects", "--batch-check"),
            "remotes": git("remote", "-v"), "head": git("rev-parse", "HEAD").strip(),
        }
        return Attempt(patch="", chosen=None, rationale="looked around")


def test_an_agent_finds_no_answer_field_and_no_later_commit(demo: DemoSuite) -> None:
    import subprocess

    from evals.workspace import git

    task = demo.tasks[0]  # acme/pricing has a later commit: the fix of this very task
    source = Path(task.source.location)
    later = git(source, "rev-list", "--all").stdout.split()
    assert len(later) > 1 and task.base_commit in later
    future = [sha for sha in later
              if subprocess.run(["git", "merge-base", "--is-ancestor", sha, task.base_commit],
                                cwd=source).returncode != 0]
    assert future, "the fixture must hold a commit after the task's base"
    run_task(task, Snoop(), permutation=0)
    seen = Snoop.seen
    assert seen["fields"] == ["candidates", "instance_id", "pack", "problem_statement", "repo",
                              "workdir"]
    text = str(seen["text"])
    for secret in (*task.FAIL_TO_PASS, *task.PASS_TO_PASS):
        assert secret not in text
    assert task.test_patch.strip() not in text
    assert "oracle" not in text and '"gold"' not in text
    assert seen["head"] == task.base_commit and seen["remotes"] == ""
    assert not set(future) & set(seen["commits"])  # type: ignore[arg-type]
    assert all(sha not in str(seen["objects"]) for sha in future)
