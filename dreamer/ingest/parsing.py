"""Parsing what agents ran and saw (pure functions of text).

Test-run output into per-test outcomes and a summary (pytest, unittest), whether a shell line
runs a test suite, the paths a unified diff touches, and the paths a SWE-agent editing command
changes. The event building that uses them lives in ``dreamer.ingest.building``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from dreamer.models import TestOutcome

# --------------------------------------------------------------------------- test output

_PYTEST_WORDS = "PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS"
_PYTEST_OUTCOME = {
    "PASSED": "passed",
    "FAILED": "failed",
    "ERROR": "error",
    "SKIPPED": "skipped",
    "XFAIL": "xfailed",
    "XPASS": "xpassed",
}
# `tests/test_x.py::test_a PASSED [ 50%]` (-v; `SKIPPED (reason)` too).
_PYTEST_VERBOSE = re.compile(
    rf"^(?P<id>\S+?::\S.*?)\s+(?P<word>{_PYTEST_WORDS})(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$"
)
# `FAILED tests/x.py::t - AssertionError` (-rA summary, xdist -v); `ERROR tests/x.py - ...` for
# a collection error, whose id is the module.
_PYTEST_PREFIXED = re.compile(
    rf"^(?:\[gw\d+\]\s+\[\s*\d+%\]\s+)?(?P<word>{_PYTEST_WORDS})\s+"
    r"(?P<id>\S+?(?:::\S.*?|\.py))(?:\s+-\s.*)?$"
)
_PYTEST_SUMMARY = re.compile(
    r"^=*\s*(?P<counts>(?:\d+ \w+(?:, )?)+|no tests ran) in [\d.]+\s*s\b.*?=*\s*$"
)
_SUMMARY_KEYS = {
    "passed": "passed",
    "failed": "failed",
    "error": "error",
    "errors": "error",
    "skipped": "skipped",
    "xfailed": "xfailed",
    "xpassed": "xpassed",
}

# `test_a (pkg.tests.TestX) ... ok`; Python 3.11+ prints `(pkg.tests.TestX.test_a)`.
_UNITTEST_HEAD = re.compile(r"^(?P<name>\w+) \((?P<where>[\w.]+)\)")
_UNITTEST_VERDICT = re.compile(
    r"(?:^|\.\.\. )(?P<verdict>ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$"
)
_UNITTEST_HEADER = re.compile(r"^(?P<verdict>FAIL|ERROR): (?P<name>\w+) \((?P<where>[\w.]+)\)")
_UNITTEST_RAN = re.compile(r"^Ran (?P<n>\d+) tests? in [\d.]+s")
_UNITTEST_RESULT = re.compile(r"^(?P<word>OK|FAILED)(?: \((?P<details>[^)]*)\))?\s*$")
_UNITTEST_OUTCOME = {
    "ok": "passed",
    "FAIL": "failed",
    "ERROR": "error",
    "expected failure": "xfailed",
    "unexpected success": "xpassed",
}
_UNITTEST_DETAIL_KEYS = {
    "failures": "failed",
    "errors": "error",
    "skipped": "skipped",
    "expected failures": "xfailed",
    "unexpected successes": "xpassed",
}


@dataclass
class TestRun:
    """What a test run's output says: per-test outcomes and the runner's own summary."""

    __test__ = False  # not a pytest class

    runner: str | None = None
    """``pytest`` or ``unittest``; None when nothing was recognised."""
    tests: list[TestOutcome] = field(default_factory=list)
    summary: dict[str, int] = field(default_factory=dict)
    """Counts by outcome (``passed``, ``failed``, ``error``, ...), from the summary line when the
    output has one, else counted from ``tests``."""
    has_summary: bool = False
    """True when the runner's final summary line was found (the run completed)."""

    @property
    def found(self) -> bool:
        return self.has_summary or bool(self.tests)


def _unittest_id(name: str, where: str) -> str:
    # 3.11+ appends the method to the class path; drop it so ids are stable across versions.
    if where.endswith("." + name):
        where = where[: -len(name) - 1]
    return f"{name} ({where})"


def _add(tests: dict[str, str], test_id: str, outcome: str) -> None:
    # The first verdict wins; a later failure header repeats a verdict already seen.
    tests.setdefault(test_id, outcome)


def _parse_pytest(lines: list[str]) -> TestRun:
    tests: dict[str, str] = {}
    summary: dict[str, int] = {}
    has_summary = False
    for line in lines:
        match = _PYTEST_VERBOSE.match(line) or _PYTEST_PREFIXED.match(line)
        if match:
            _add(tests, match["id"], _PYTEST_OUTCOME[match["word"]])
            continue
        found = _PYTEST_SUMMARY.match(line)
        if found and (line.startswith("=") or "passed" in line or "failed" in line):
            has_summary = True
            for number, word in re.findall(r"(\d+) (\w+)", found["counts"]):
                key = _SUMMARY_KEYS.get(word)
                if key:
                    summary[key] = summary.get(key, 0) + int(number)
    return _finish("pytest", tests, summary, has_summary)


def _parse_unittest(lines: list[str]) -> TestRun:
    tests: dict[str, str] = {}
    summary: dict[str, int] = {}
    has_summary = False
    pending: str | None = None
    ran: int | None = None
    for line in lines:
        header = _UNITTEST_HEADER.match(line)
        if header:
            verdict = "failed" if header["verdict"] == "FAIL" else "error"
            _add(tests, _unittest_id(header["name"], header["where"]), verdict)
            continue
        head = _UNITTEST_HEAD.match(line)
        if head:
            pending = _unittest_id(head["name"], head["where"])
        verdict_match = _UNITTEST_VERDICT.search(line)
        if pending and verdict_match:
            word = verdict_match["verdict"]
            outcome = "skipped" if word.startswith("skipped") else _UNITTEST_OUTCOME[word]
            _add(tests, pending, outcome)
            pending = None
        ran_match = _UNITTEST_RAN.match(line)
        if ran_match:
            ran = int(ran_match["n"])
            continue
        result = _UNITTEST_RESULT.match(line)
        if result and ran is not None:
            has_summary = True
            for part in filter(None, (result["details"] or "").split(",")):
                key, _, number = part.strip().partition("=")
                if key in _UNITTEST_DETAIL_KEYS and number.isdigit():
                    summary[_UNITTEST_DETAIL_KEYS[key]] = int(number)
            summary["passed"] = ran - sum(summary.values())
            ran = None
    return _finish("unittest", tests, summary, has_summary)


def _finish(runner: str, tests: dict[str, str], summary: dict[str, int], has: bool) -> TestRun:
    outcomes = [TestOutcome(test_id=t, outcome=o) for t, o in tests.items()]  # type: ignore[arg-type]
    if not has:
        for outcome in outcomes:
            summary[outcome.outcome] = summary.get(outcome.outcome, 0) + 1
    return TestRun(runner=runner, tests=outcomes, summary=summary, has_summary=has)


def parse_test_output(output: str) -> TestRun:
    """Parse pytest or unittest output into test outcomes and a summary.

    Whichever runner's parse finds more (a summary line first, then more tests) wins: an output
    holds one runner's report.
    """
    lines = [line.rstrip() for line in output.splitlines()]
    runs = [_parse_pytest(lines), _parse_unittest(lines)]
    best = max(runs, key=lambda run: (run.has_summary, len(run.tests)))
    return best if best.found else TestRun()


# --------------------------------------------------------------------------- test commands

_SPLIT = re.compile(r"&&|\|\||;|\||\n")
_WRAPPERS = {"sudo", "time", "env", "nice", "exec", "xvfb-run"}
_RUNNERS = {"pytest", "py.test", "tox", "nox", "nosetests", "nose2", "runtests.py", "trial"}
_PY_MODULES = {"pytest", "unittest", "tox", "nox", "nose", "nose2"}
_TEST_SUBCOMMANDS = {
    "make": {"test", "check"},
    "npm": {"test"},
    "yarn": {"test"},
    "go": {"test"},
    "cargo": {"test"},
    "django-admin": {"test"},
}


def _tokens(segment: str) -> list[str]:
    try:
        return shlex.split(segment)
    except ValueError:  # an unbalanced quote: fall back to whitespace, enough to find the runner
        return segment.split()


def _strip_prefix(tokens: list[str]) -> list[str]:
    """Drop what runs the command without being it: env assignments, sudo, timeout N, uv run."""
    while tokens:
        head = tokens[0]
        if ("=" in head and not head.startswith("-")) or head in _WRAPPERS:
            tokens = tokens[1:]
        elif head == "timeout" and len(tokens) > 1:
            tokens = tokens[2:]
        elif head in {"uv", "poetry", "pipenv", "hatch", "pdm", "rye"} and tokens[1:2] == ["run"]:
            tokens = tokens[2:]
        else:
            break
    return tokens


def is_test_command(command: str) -> bool:
    """True when a shell line runs a test suite (pytest, unittest, tox, Django's runner, ...)."""
    for segment in _SPLIT.split(command):
        tokens = _strip_prefix(_tokens(segment.strip()))
        if not tokens:
            continue
        exe = tokens[0].rsplit("/", 1)[-1]
        rest = tokens[1:]
        if exe in _RUNNERS or exe.startswith("pytest"):
            return True
        if exe == "test" and tokens[0].endswith("bin/test"):  # sympy's bin/test
            return True
        if exe == "manage.py" and "test" in rest[:1]:
            return True
        if exe in _TEST_SUBCOMMANDS and rest:
            # `npm run test` names the script after `run`; `make test`, `go test` directly.
            sub = rest[1] if rest[0] == "run" and len(rest) > 1 else rest[0]
            if sub in _TEST_SUBCOMMANDS[exe]:
                return True
        if re.fullmatch(r"python[\d.]*", exe) and rest:
            if rest[0] == "-m" and len(rest) > 1 and rest[1].split(".")[0] in _PY_MODULES:
                return True
            script = rest[0].rsplit("/", 1)[-1]
            if script in {"runtests.py", "run_tests.py"} or (
                script in {"manage.py", "setup.py"} and rest[1:2] == ["test"]
            ):
                return True
    return False


# --------------------------------------------------------------------------- diffs and edits


def diff_paths(diff: str) -> list[str]:
    """The files a unified (git) diff touches, in order of appearance, without duplicates."""
    paths: list[str] = []
    old: str | None = None
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            match = re.match(r"diff --git a/(.+?) b/(.+)$", line)
            if match:
                paths.append(match[2])
        elif line.startswith("--- "):
            old = line[4:].split("\t")[0].strip()
        elif line.startswith("+++ "):
            new = line[4:].split("\t")[0].strip()
            chosen = old if new == "/dev/null" and old else new
            paths.append(re.sub(r"^[ab]/", "", chosen))
    return list(dict.fromkeys(p for p in paths if p and p != "/dev/null"))


_SWE_EDIT = re.compile(r"^(?:edit|insert|append)\s+\d+(?::\d+)?\b|^edit\s*$|^edit\s")
_NAMED_FILE = re.compile(r"^[\w./-]*[A-Za-z_][\w-]*\.[A-Za-z0-9]+$")
_EDITOR_WRITES = {"create", "str_replace", "insert", "undo_edit", "append"}


def swe_agent_edit_paths(action: str, open_file: str | None) -> list[str] | None:
    """The files a SWE-agent editing command changes; None when ``action`` is not an edit.

    ``edit 10:12`` (and ``insert``/``append``) edit the open file, ``edit PATH`` edits ``PATH``,
    ``create f`` creates ``f``, and
    ``str_replace_editor create|str_replace|insert|undo_edit PATH`` edits ``PATH``. An edit of the
    open file with no file open gives ``[]``.
    """
    first_line = action.strip().split("\n", 1)[0].strip()
    named = _tokens(first_line)
    if len(named) == 2 and named[0] == "edit" and _NAMED_FILE.match(named[1]):
        return [named[1]]  # ``edit PATH``: some recorders name the file instead of a line range
    if _SWE_EDIT.match(first_line):
        return [open_file] if open_file and open_file != "n/a" else []
    tokens = _tokens(first_line)
    if len(tokens) >= 2 and tokens[0] == "create":
        return [tokens[1]]
    if len(tokens) >= 3 and tokens[0] in {"str_replace_editor", "edit_file"} and (
        tokens[1] in _EDITOR_WRITES
    ):
        return [tokens[2]]
    return None
