"""Per-test outcomes parsed from test output, and SWE-bench's definition of resolved.

Parsing reads pytest's ``-rA`` short summary (``PASSED tests/t.py::test_a``, ``FAILED id - msg``,
``ERROR id``, ``XFAIL id``, ``XPASS id``), pytest's verbose lines (``tests/t.py::test_a PASSED``)
and unittest/Django's verbose lines (``test_a (pkg.mod.Class) ... ok``). When the same test is
reported twice, the worse outcome wins (a test that passed but errored in teardown errored).
Quiet pytest output (``-q``: dots and totals) is read only where its totals account for exactly
the tests asked for (``quiet_outcomes``).

Grading, as SWE-bench defines it: a test *succeeds* when its outcome is ``passed`` or ``xfailed``;
it *fails* when its outcome is ``failed`` or ``error``, or when it is missing from the output; a
``skipped`` test counts as neither. A task is resolved when no FAIL_TO_PASS test and no
PASS_TO_PASS test fails (SWE-bench's ``FULL`` status: both success rates are 1, an empty list
counting as 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
_SEVERITY = {"passed": 0, "xpassed": 1, "skipped": 1, "xfailed": 1, "failed": 2, "error": 3}
_SUMMARY = {
    "PASSED": "passed", "FAILED": "failed", "ERROR": "error", "SKIPPED": "skipped",
    "XFAIL": "xfailed", "XPASS": "xpassed",
}
_SUMMARY_LINE = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S.*?)(?: - .*)?$")
_VERBOSE_LINE = re.compile(
    r"^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?(?:\s+\[\s*\d+%\])?\s*$"
)
_UNITTEST_LINE = re.compile(
    r"^(\w+ \([\w.]+\)) \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$"
)
_UNITTEST = {"ok": "passed", "FAIL": "failed", "ERROR": "error", "expected failure": "xfailed",
             "unexpected success": "xpassed"}


def parse_test_output(output: str) -> dict[str, str]:
    """Test id -> outcome (one of ``OUTCOMES``) for every test the output reports."""
    found: dict[str, str] = {}
    for raw in output.splitlines():
        line = raw.rstrip()
        hit = _SUMMARY_LINE.match(line)
        if hit:
            _record(found, hit.group(2).strip(), _SUMMARY[hit.group(1)])
            continue
        hit = _VERBOSE_LINE.match(line)
        if hit:
            _record(found, hit.group(1).strip(), _SUMMARY[hit.group(2)])
            continue
        hit = _UNITTEST_LINE.match(line)
        if hit:
            word = hit.group(2)
            outcome = "skipped" if word.startswith("skipped") else _UNITTEST[word]
            _record(found, hit.group(1), outcome)
    return found


def _record(found: dict[str, str], test_id: str, outcome: str) -> None:
    old = found.get(test_id)
    if old is None or _SEVERITY[outcome] > _SEVERITY[old]:
        found[test_id] = outcome


def succeeded(test_id: str, tests: dict[str, str]) -> bool:
    return tests.get(test_id) in ("passed", "xfailed")


def failed(test_id: str, tests: dict[str, str]) -> bool:
    return test_id not in tests or tests[test_id] in ("failed", "error")


class TestSplit(BaseModel):
    """Which tests of one list succeeded and which failed (skipped tests are in neither)."""

    __test__ = False
    model_config = ConfigDict(frozen=True, extra="forbid")

    success: tuple[str, ...] = ()
    failure: tuple[str, ...] = ()


class Grade(BaseModel):
    """The verdict on one task's test outcomes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    resolved: bool
    fail_to_pass: TestSplit
    pass_to_pass: TestSplit


def split(test_ids: Iterable[str], tests: dict[str, str]) -> TestSplit:
    ids = list(test_ids)
    return TestSplit(
        success=tuple(t for t in ids if succeeded(t, tests)),
        failure=tuple(t for t in ids if failed(t, tests)),
    )


def grade(fail_to_pass: Iterable[str], pass_to_pass: Iterable[str], tests: dict[str, str]) -> Grade:
    """Resolved when every FAIL_TO_PASS and every PASS_TO_PASS test succeeds (none fails)."""
    f2p, p2p = split(fail_to_pass, tests), split(pass_to_pass, tests)
    return Grade(resolved=not f2p.failure and not p2p.failure, fail_to_pass=f2p, pass_to_pass=p2p)


def swe_bench_report(
    instance_id: str, patch: str, applied: bool, grade_: Grade | None, extra: dict[str, object]
) -> dict[str, object]:
    """``report.json`` in SWE-bench's shape (keyed by instance id), with dreamer's fields added."""
    entry: dict[str, object] = {
        "patch_is_None": patch is None,
        "patch_exists": bool(patch),
        "patch_successfully_applied": applied,
        "resolved": bool(grade_ and grade_.resolved),
    }
    if grade_ is not None:
        entry["tests_status"] = {
            "FAIL_TO_PASS": grade_.fail_to_pass.model_dump(mode="json"),
            "PASS_TO_PASS": grade_.pass_to_pass.model_dump(mode="json"),
            "FAIL_TO_FAIL": {"success": [], "failure": []},
            "PASS_TO_FAIL": {"success": [], "failure": []},
        }
    entry.update(extra)
    return {instance_id: entry}


_QUIET_SUMMARY = re.compile(r"^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|"
                            r"deselected|warnings?)(?:, )?)+) in [\d.]+s", re.MULTILINE)
_QUIET_FAILED = re.compile(r"^(FAILED|ERROR) (\S+::\S+)", re.MULTILINE)


def quiet_outcomes(output: str, ids: list[str]) -> dict[str, str]:
    """Per-test outcomes of a quiet pytest run (``-q``: dots, the short summary of failures and
    the totals), when they account for exactly the tests asked for: the ones the summary names
    ``FAILED``/``ERROR`` failed, every other one passed. Empty when the totals do not add up
    (a test not collected, or not a pytest run)."""
    asked = list(dict.fromkeys(ids))
    found = _QUIET_SUMMARY.findall(output)
    if not asked or not found:
        return {}
    counts: dict[str, int] = {}
    for part in found[-1].split(", "):
        number, _, kind = part.partition(" ")
        counts[kind.rstrip("s") if kind.startswith("error") else kind] = int(number)
    bad = {test: ("failed" if kind == "FAILED" else "error")
           for kind, test in _QUIET_FAILED.findall(output)}
    ran = counts.get("passed", 0) + counts.get("failed", 0) + counts.get("error", 0)
    if ran != len(asked) or not set(bad) <= set(asked) or \
            len(bad) != counts.get("failed", 0) + counts.get("error", 0):
        return {}
    return {test: bad.get(test, "passed") for test in asked}
