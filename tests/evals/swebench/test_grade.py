"""Grading as SWE-bench grades: swebench's parsers and rules, and no grade without a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.runner import run_task
from evals.swebench.grade import judge, log_parser, parse
from evals.swebench.validate import FixedPatch
from evals.tasks import Task, load_tasks

MARKERS = (">>>>> Start Test Output", ">>>>> End Test Output")


def _row(**fields: object) -> Task:
    base = {"instance_id": "acme__lib-1", "repo": "marshmallow-code/marshmallow",
            "base_commit": "0" * 40, "version": "3.0", "harness": "swe-bench",
            "log_parser": "parse_log_marshmallow"}
    return Task.model_validate({**base, **fields})


def _log(*lines: str, code: int = 0) -> str:
    return "\n".join(["$ pip install -e .", MARKERS[0], *lines, MARKERS[1],
                      f">>>>> Test exit code: {code}"]) + "\n"


def test_ids_truncated_by_the_dataset_match_what_swebench_parses() -> None:
    # SWE-bench's parser splits on whitespace, so a parametrised id with a space is stored cut
    # at it; parsing with the same parser gives the same cut id.
    row = _row(FAIL_TO_PASS=["tests/test_fields.py::test_make_error[required-Missing"],
               PASS_TO_PASS=["tests/test_fields.py::test_plain"])
    output = _log("PASSED tests/test_fields.py::test_make_error[required-Missing data.]",
                  "PASSED tests/test_fields.py::test_plain")
    status_map, problem = parse(row, output, Path("/nonexistent"), "pytest -rA x")
    assert problem == ""
    assert status_map["tests/test_fields.py::test_make_error[required-Missing"] == "PASSED"
    grade, status = judge(row, status_map)
    assert grade.resolved and status == "RESOLVED_FULL"


def test_failures_missing_tests_and_fail_only_rows() -> None:
    row = _row(FAIL_TO_PASS=["t.py::test_new"], PASS_TO_PASS=["t.py::test_old", "t.py::gone"])
    status_map, _ = parse(row, _log("PASSED t.py::test_new", "FAILED t.py::test_old - boom"),
                          Path("/nonexistent"), "pytest -rA t.py")
    grade, status = judge(row, status_map)
    assert not grade.resolved and status == "RESOLVED_NO"
    assert grade.pass_to_pass.failure == ("t.py::test_old", "t.py::gone")  # missing = failed
    # A fail-only row only counts explicit failures.
    lenient = row.model_copy(update={"eval_type": "fail_only"})
    grade, _ = judge(lenient, {"t.py::test_new": "PASSED", "t.py::test_old": "PASSED"})
    assert grade.resolved


def test_no_verdict_is_never_a_grade(tmp_path: Path) -> None:
    row = _row(FAIL_TO_PASS=["t.py::test_new"])
    never, problem = parse(row, _log("collected 0 items", code=5), tmp_path, "pytest -rA t.py")
    assert never == {} and problem.startswith("tests never ran (pytest exit 5")
    _, problem = parse(row, _log("Traceback: boom", code=1), tmp_path, "./runtests.py")
    assert problem.startswith("suite never ran (exit 1")
    collection = _log("ImportError while importing test module 't.py'.",
                      "E   ModuleNotFoundError: No module named 'numpy'",
                      "ERROR t.py - ModuleNotFoundError: No module named 'numpy'", code=2)
    _, problem = parse(row, collection, tmp_path, "pytest -rA t.py")
    assert problem == "environment lacks module 'numpy' (a test module failed to import it)"
    # The same error on the repository's own module is the patch's doing: graded, not excused.
    (tmp_path / "lib").mkdir()
    status_map, problem = parse(row, collection.replace("numpy", "lib"), tmp_path, "pytest t.py")
    assert problem == "" and not judge(row, status_map)[0].resolved
    unknown = row.model_copy(update={"log_parser": "parse_log_nonesuch"})
    assert parse(unknown, _log("PASSED t.py::test_new"), tmp_path, "pytest")[1] == \
        "unknown parser 'parse_log_nonesuch'"


def test_the_rows_parser_is_swebench_s_own_by_name(shared_data: Path) -> None:
    from swebench.harness.log_parsers.python import parse_log_astroid, parse_log_sqlfluff

    rows = {t.instance_id: t for t in
            load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet")}
    assert log_parser(rows["sqlfluff__sqlfluff-1625"]) is parse_log_sqlfluff
    assert log_parser(rows["pylint-dev__astroid-1196"]) is parse_log_astroid
    no_name = rows["pylint-dev__astroid-1196"].model_copy(update={"log_parser": ""})
    assert log_parser(no_name) is parse_log_astroid  # the repository's parser


def test_an_empty_patch_is_unresolved_without_running(
    shared_data: Path, tmp_path: Path, _isolated_home: Path
) -> None:
    (row,) = [t for t in load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet",
                                    repos_dir=shared_data / "swe-bench" / "repos")
              if t.instance_id == "pydicom__pydicom-1139"]
    result = run_task(row, FixedPatch("", "empty"), run_dir=tmp_path)
    assert result.status == "unresolved" and result.reason.startswith("empty patch")
    assert result.test_duration_s == 0.0
    assert not (_isolated_home / "swebench").exists()  # no environment was even looked for
    report = (tmp_path / row.instance_id / "report.json").read_text()
    assert '"patch_exists": false' in report and '"resolved": false' in report


@pytest.mark.parametrize("patch", ["not a diff at all\n"])
def test_a_patch_that_does_not_apply_is_an_infrastructure_error(
    shared_data: Path, patch: str
) -> None:
    (row,) = [t for t in load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet",
                                    repos_dir=shared_data / "swe-bench" / "repos")
              if t.instance_id == "marshmallow-code__marshmallow-1343"]
    result = run_task(row, FixedPatch(patch, "garbage"))
    assert result.status == "infra_error" and result.reason == "patch did not apply"


@pytest.mark.slow
def test_a_patch_that_edits_a_test_file_is_graded_as_swebench_does(shared_data: Path) -> None:
    """SWE-bench resets the files the test patch modifies before applying it: a patch that also
    edited one of them is graded, not refused with an apply failure."""
    from evals.errors import EnvironmentBuildError
    from evals.swebench.pythons import find_python
    from evals.workspace import Workspace, git

    try:
        find_python("3.9")
    except EnvironmentBuildError as exc:
        pytest.skip(f"the row's spec needs Python 3.9: {exc}")
    (row,) = [t for t in load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet",
                                    repos_dir=shared_data / "swe-bench" / "repos")
              if t.instance_id == "marshmallow-code__marshmallow-1343"]
    with Workspace.create(row) as ws:  # the agent's edit to a line the test patch changes
        test_file = ws.path / "tests" / "test_marshalling.py"
        text = test_file.read_text()
        assert "from marshmallow import fields, Schema\n" in text
        test_file.write_text(text.replace("from marshmallow import fields, Schema\n",
                                          "from marshmallow import Schema, fields\n"))
        edit = git(ws.path, "diff").stdout
    result = run_task(row, FixedPatch(row.patch + edit, "gold and a test edit"))
    assert result.status == "resolved", (result.status, result.reason)
