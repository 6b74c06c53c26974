"""Test-output parsing, test-command detection, diff and edit paths, timestamps."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamer.ingest.building import to_utc
from dreamer.ingest.parsing import (
    diff_paths,
    is_test_command,
    parse_test_output,
    swe_agent_edit_paths,
)

PYTEST_VERBOSE = """\
============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0 -- /usr/bin/python
collecting ... collected 5 items

tests/test_fields.py::test_timedelta PASSED                              [ 20%]
tests/test_fields.py::test_rounding[0.5-1] FAILED                        [ 40%]
tests/test_fields.py::test_rounding[a b-2] PASSED                        [ 60%]
tests/test_fields.py::test_slow SKIPPED (needs network)                  [ 80%]
tests/test_fields.py::test_known_bug XFAIL (issue 12)                    [100%]

=================================== FAILURES ===================================
____________________________ test_rounding[0.5-1] _____________________________
E       assert 0 == 1
=========================== short test summary info ============================
FAILED tests/test_fields.py::test_rounding[0.5-1] - assert 0 == 1
============= 1 failed, 2 passed, 1 skipped, 1 xfailed in 0.31s ===============
"""

PYTEST_RA = """\
tests/test_a.py ..F                                                      [ 60%]
tests/test_b.py E.                                                       [100%]

==================================== ERRORS ====================================
___________________________ ERROR at setup of test_db __________________________
=========================== short test summary info ============================
PASSED tests/test_a.py::test_one
PASSED tests/test_a.py::test_two
PASSED tests/test_b.py::test_ok
FAILED tests/test_a.py::TestX::test_three - AssertionError: boom - really
ERROR tests/test_b.py::test_db - ConnectionRefusedError: [Errno 111]
=============== 1 failed, 3 passed, 1 error, 2 warnings in 1.02s ===============
"""

PYTEST_QUIET = "..F.\nFAILED tests/test_x.py::test_c - KeyError: 'k'\n1 failed, 3 passed in 0.05s\n"

PYTEST_COLLECTION_ERROR = """\
==================================== ERRORS ====================================
_____________________ ERROR collecting tests/test_broken.py ____________________
ImportError while importing test module '/repo/tests/test_broken.py'.
=========================== short test summary info ============================
ERROR tests/test_broken.py - ModuleNotFoundError: No module named 'yaml'
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.12s ===============================
"""

PYTEST_XDIST = """\
[gw0] [ 50%] PASSED tests/test_x.py::test_a
[gw1] [100%] FAILED tests/test_x.py::test_b
========================= 1 failed, 1 passed in 0.90s ==========================
"""

UNITTEST_310 = """\
test_clean (forms_tests.tests.FormsTestCase) ... ok
test_errors (forms_tests.tests.FormsTestCase) ... FAIL
test_io (forms_tests.tests.FormsTestCase) ... ERROR
test_later (forms_tests.tests.FormsTestCase) ... skipped 'not ready'
test_known (forms_tests.tests.FormsTestCase) ... expected failure

======================================================================
ERROR: test_io (forms_tests.tests.FormsTestCase)
----------------------------------------------------------------------
OSError: disk full

======================================================================
FAIL: test_errors (forms_tests.tests.FormsTestCase)
----------------------------------------------------------------------
AssertionError: 1 != 2

----------------------------------------------------------------------
Ran 5 tests in 0.012s

FAILED (failures=1, errors=1, skipped=1, expected failures=1)
"""

UNITTEST_311 = """\
test_a (pkg.tests.TestX.test_a) ... ok
test_b (pkg.tests.TestX.test_b)
Docstring line of test_b. ... ok

----------------------------------------------------------------------
Ran 2 tests in 0.001s

OK
"""

# Django's runner without -v: only the failure headers name tests.
DJANGO_QUIET = """\
Creating test database for alias 'default'...
.F..s
======================================================================
FAIL: test_save (model_fields.tests.SaveTests.test_save)
----------------------------------------------------------------------
AssertionError: None is not true

----------------------------------------------------------------------
Ran 5 tests in 0.210s

FAILED (failures=1, skipped=1)
Destroying test database for alias 'default'...
"""


def outcomes(output: str) -> dict[str, str]:
    return {t.test_id: t.outcome for t in parse_test_output(output).tests}


def test_pytest_verbose_ids_and_summary() -> None:
    run = parse_test_output(PYTEST_VERBOSE)
    assert run.runner == "pytest" and run.has_summary
    assert outcomes(PYTEST_VERBOSE) == {
        "tests/test_fields.py::test_timedelta": "passed",
        "tests/test_fields.py::test_rounding[0.5-1]": "failed",
        "tests/test_fields.py::test_rounding[a b-2]": "passed",
        "tests/test_fields.py::test_slow": "skipped",
        "tests/test_fields.py::test_known_bug": "xfailed",
    }
    assert run.summary == {"failed": 1, "passed": 2, "skipped": 1, "xfailed": 1}


def test_pytest_short_summary_with_messages() -> None:
    run = parse_test_output(PYTEST_RA)
    assert outcomes(PYTEST_RA) == {
        "tests/test_a.py::test_one": "passed",
        "tests/test_a.py::test_two": "passed",
        "tests/test_b.py::test_ok": "passed",
        "tests/test_a.py::TestX::test_three": "failed",
        "tests/test_b.py::test_db": "error",
    }
    assert run.summary == {"failed": 1, "passed": 3, "error": 1}


def test_pytest_quiet_collection_error_and_xdist() -> None:
    assert parse_test_output(PYTEST_QUIET).summary == {"failed": 1, "passed": 3}
    assert outcomes(PYTEST_QUIET) == {"tests/test_x.py::test_c": "failed"}
    broken = parse_test_output(PYTEST_COLLECTION_ERROR)
    assert outcomes(PYTEST_COLLECTION_ERROR) == {"tests/test_broken.py": "error"}
    assert broken.summary == {"error": 1}
    assert outcomes(PYTEST_XDIST) == {
        "tests/test_x.py::test_a": "passed",
        "tests/test_x.py::test_b": "failed",
    }


def test_unittest_verbose_before_python_311() -> None:
    run = parse_test_output(UNITTEST_310)
    assert run.runner == "unittest"
    assert outcomes(UNITTEST_310) == {
        "test_clean (forms_tests.tests.FormsTestCase)": "passed",
        "test_errors (forms_tests.tests.FormsTestCase)": "failed",
        "test_io (forms_tests.tests.FormsTestCase)": "error",
        "test_later (forms_tests.tests.FormsTestCase)": "skipped",
        "test_known (forms_tests.tests.FormsTestCase)": "xfailed",
    }
    assert run.summary == {"failed": 1, "error": 1, "skipped": 1, "xfailed": 1, "passed": 1}


def test_unittest_311_ids_are_normalised_and_docstrings_skipped() -> None:
    run = parse_test_output(UNITTEST_311)
    assert outcomes(UNITTEST_311) == {
        "test_a (pkg.tests.TestX)": "passed",
        "test_b (pkg.tests.TestX)": "passed",
    }
    assert run.summary == {"passed": 2} and run.has_summary


def test_django_quiet_run_names_only_its_failures() -> None:
    run = parse_test_output(DJANGO_QUIET)
    assert outcomes(DJANGO_QUIET) == {"test_save (model_fields.tests.SaveTests)": "failed"}
    assert run.summary == {"failed": 1, "skipped": 1, "passed": 3}


def test_plain_output_is_not_a_test_run() -> None:
    for text in ["", "hello world\n", "Found 3 matches for 'test' in /repo\n", "5 files in 2s"]:
        run = parse_test_output(text)
        assert not run.found and run.runner is None


@pytest.mark.parametrize(
    "command",
    [
        "pytest",
        "pytest -x tests/test_a.py::test_b",
        "cd /testbed && python -m pytest tests/",
        "python3.11 -m pytest -rA",
        "PYTHONPATH=src timeout 300 uv run pytest -q",
        "tox -e py311",
        "python -m unittest discover -s tests",
        "python -m unittest tests.test_calc",
        "./manage.py test app.tests",
        "python manage.py test",
        "python tests/runtests.py forms_tests",
        "bin/test sympy/core/tests/test_basic.py",
        "poetry run pytest",
        "npm test",
        "npm run test",
        "go test ./...",
        "make test",
        "git stash && pytest tests; git stash pop",
    ],
)
def test_test_commands_are_recognised(command: str) -> None:
    assert is_test_command(command)


@pytest.mark.parametrize(
    "command",
    [
        "ls tests",
        "cat tests/pytest.ini",
        "grep -rn pytest .",
        "python reproduce.py",
        "pip install pytest",
        "open tests/test_calc.py",
        "find_file test_fields.py",
        "echo 'run pytest later'",
        "python -c 'import unittest'",
    ],
)
def test_other_commands_are_not_test_runs(command: str) -> None:
    assert not is_test_command(command)


def test_diff_paths_cover_modified_new_deleted_and_renamed_files() -> None:
    diff = """\
diff --git a/src/app.py b/src/app.py
index 1..2 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1 +1 @@
-a
+b
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1 @@
+hi
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/lib/a.py b/lib/b.py
similarity index 100%
rename from lib/a.py
rename to lib/b.py
"""
    assert diff_paths(diff) == ["src/app.py", "docs/new.md", "old.txt", "lib/b.py"]
    assert diff_paths("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-1\n+2\n") == ["x.py"]
    assert diff_paths("no diff here") == []


def test_swe_agent_edit_commands() -> None:
    assert swe_agent_edit_paths("edit 10:12\nx = 1\nend_of_edit", "/repo/a.py") == ["/repo/a.py"]
    assert swe_agent_edit_paths("edit 3:3\nx\nend_of_edit", None) == []
    assert swe_agent_edit_paths("create reproduce.py\n", None) == ["reproduce.py"]
    assert swe_agent_edit_paths(
        "str_replace_editor str_replace /testbed/src/m.py --old_str 'a' --new_str 'b'", None
    ) == ["/testbed/src/m.py"]
    inserted = swe_agent_edit_paths("str_replace_editor insert /testbed/m.py --insert_line 3", None)
    assert inserted == ["/testbed/m.py"]
    for action in ["str_replace_editor view /testbed/m.py", "open m.py 20", "ls -F", "python e.py"]:
        assert swe_agent_edit_paths(action, "/repo/a.py") is None


def test_timestamps_become_aware_utc() -> None:
    assert to_utc("2025-06-10T12:36:23.208Z") == datetime(2025, 6, 10, 12, 36, 23, 208000, UTC)
    assert to_utc("2025-01-27T23:16:50") == datetime(2025, 1, 27, 23, 16, 50, tzinfo=UTC)
    assert to_utc("2025-05-01T08:00:00+02:00") == datetime(2025, 5, 1, 6, 0, tzinfo=UTC)
    assert to_utc(1736936400) == datetime(2025, 1, 15, 10, 20, tzinfo=UTC)
    assert to_utc(1736936400000) == datetime(2025, 1, 15, 10, 20, tzinfo=UTC)
    assert to_utc("yesterday") is None and to_utc(None) is None and to_utc(True) is None


def test_swe_agent_edit_naming_a_file_edits_that_file() -> None:
    from dreamer.ingest.parsing import swe_agent_edit_paths

    assert swe_agent_edit_paths("edit shop/holds.py\n-old\n+new", "/repo/shop/warehouse.py") == [
        "shop/holds.py"]
    assert swe_agent_edit_paths("edit 10:12\nnew line", "/repo/shop/warehouse.py") == [
        "/repo/shop/warehouse.py"]
