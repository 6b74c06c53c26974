"""Parsing test output and SWE-bench's definition of resolved."""

from __future__ import annotations

from evals.grading import grade, parse_test_output

PYTEST_RA = """\
tests/test_a.py::test_one PASSED                                         [ 25%]
tests/test_a.py::test_two FAILED                                         [ 50%]
tests/test_a.py::test_three SKIPPED (no db)                              [ 75%]
tests/test_a.py::test_four[x-1] PASSED                                   [100%]
=========================== short test summary info ============================
PASSED tests/test_a.py::test_one
PASSED tests/test_a.py::test_four[x-1]
XFAIL tests/test_a.py::test_known - flaky upstream
FAILED tests/test_a.py::test_two - AssertionError: assert 1 == 2
ERROR tests/test_a.py::test_one - RuntimeError: teardown failed
ERROR tests/test_b.py - SyntaxError: invalid syntax
"""

UNITTEST = """\
test_callable (sitemaps_tests.test_http.HTTPSitemapTests) ... ok
test_broken (sitemaps_tests.test_http.HTTPSitemapTests) ... FAIL
test_later (sitemaps_tests.test_http.HTTPSitemapTests) ... skipped 'needs i18n'
"""


def test_pytest_outcomes_with_the_worse_report_winning() -> None:
    tests = parse_test_output(PYTEST_RA)
    assert tests == {
        "tests/test_a.py::test_one": "error",  # passed, then errored in teardown
        "tests/test_a.py::test_two": "failed",
        "tests/test_a.py::test_three": "skipped",
        "tests/test_a.py::test_four[x-1]": "passed",
        "tests/test_a.py::test_known": "xfailed",
        "tests/test_b.py": "error",
    }


def test_unittest_outcomes() -> None:
    assert parse_test_output(UNITTEST) == {
        "test_callable (sitemaps_tests.test_http.HTTPSitemapTests)": "passed",
        "test_broken (sitemaps_tests.test_http.HTTPSitemapTests)": "failed",
        "test_later (sitemaps_tests.test_http.HTTPSitemapTests)": "skipped",
    }


def test_resolved_needs_every_fail_to_pass_and_pass_to_pass() -> None:
    tests = {"f1": "passed", "f2": "xfailed", "p1": "passed", "p2": "skipped"}
    assert grade(["f1", "f2"], ["p1", "p2"], tests).resolved
    broken = grade(["f1"], ["p1", "p3"], tests)  # p3 never ran: missing counts as failed
    assert not broken.resolved and broken.pass_to_pass.failure == ("p3",)
    failing = grade(["f1", "x"], [], {**tests, "x": "error"})
    assert not failing.resolved and failing.fail_to_pass.success == ("f1",)
    assert grade([], [], {}).resolved  # SWE-bench: empty lists count as all passing


def test_a_quiet_pytest_run_is_graded_from_its_totals_and_failures() -> None:
    """``pytest -q`` prints dots, the failures' short summary and the totals: when the totals
    account for exactly the tests asked for, the named failures failed and the rest passed;
    when they do not add up, nothing is inferred."""
    from evals.grading import quiet_outcomes

    asked = ["tests/t.py::a", "tests/t.py::b", "tests/t.py::c"]
    out = (".F.                                          [100%]\n"
           "=========================== short test summary info ===========================\n"
           "FAILED tests/t.py::b - assert 1 == 2\n1 failed, 2 passed in 0.12s\n")
    assert quiet_outcomes(out, asked) == {"tests/t.py::a": "passed", "tests/t.py::b": "failed",
                                          "tests/t.py::c": "passed"}
    assert quiet_outcomes("...   [100%]\n3 passed in 0.1s\n", asked) == dict.fromkeys(
        asked, "passed")
    assert quiet_outcomes("..   [100%]\n2 passed in 0.1s\n", asked) == {}  # one not collected
    assert quiet_outcomes("no tests ran in 0.01s\n", asked) == {}
