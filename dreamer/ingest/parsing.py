"""What the trajectory adapters share.

Text parsing (pure functions): test-run output into outcomes, test-command detection, paths from
a unified diff, paths of SWE-agent editing commands, timestamps, content parts, repository-
relative paths. Session building: ``EventLog`` (numbering events, the observation/test_result
rule, the Session with its fallbacks), ``records``/``single_object`` (reading a ``Document``)
and ``checked`` (pydantic validation that fails as an ``IngestError`` at the exact place).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from dreamer.errors import IngestError
from dreamer.ingest.base import Document, IngestContext
from dreamer.models import Event, EventKind, Session, TestOutcome

M = TypeVar("M", bound=BaseModel)

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
_EDITOR_WRITES = {"create", "str_replace", "insert", "undo_edit", "append"}


def swe_agent_edit_paths(action: str, open_file: str | None) -> list[str] | None:
    """The files a SWE-agent editing command changes; None when ``action`` is not an edit.

    ``edit 10:12`` (and ``insert``/``append``) edit the open file, ``create f`` creates ``f``, and
    ``str_replace_editor create|str_replace|insert|undo_edit PATH`` edits ``PATH``. An edit of the
    open file with no file open gives ``[]``.
    """
    first_line = action.strip().split("\n", 1)[0].strip()
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


# --------------------------------------------------------------------------- small conversions


def to_utc(value: Any) -> datetime | None:
    """A timezone-aware UTC datetime from ISO text or epoch seconds; None when unparsable.

    A naive timestamp is taken as UTC: the formats that write them (OpenHands) log in UTC.
    """
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int | float):
            seconds = value / 1000 if value > 1e11 else value  # epoch milliseconds
            return datetime.fromtimestamp(seconds, tz=UTC)
        if isinstance(value, str) and value.strip():
            return as_utc(datetime.fromisoformat(value.strip().replace("Z", "+00:00")))
    except (ValueError, OverflowError, OSError):
        return None
    return None


def as_utc(moment: datetime | None) -> datetime | None:
    """``moment`` in UTC; a naive one is taken to be UTC already."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def content_text(content: Any) -> str:
    """The text of chat content: a string, or a list of parts ``{type: text, text: ...}``."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
        ]
        return "\n".join(texts)
    if isinstance(content, dict):
        return str(content.get("text", ""))
    return str(content)


def relative_path(path: str, roots: list[str]) -> str:
    """``path`` relative to the first of ``roots`` it lies under; unchanged otherwise."""
    for root in roots:
        root = root.rstrip("/")
        if root and path.startswith(root + "/"):
            return path[len(root) + 1 :]
    return path


# --------------------------------------------------------------------------- building sessions


def records(doc: Document) -> list[tuple[Any, str]]:
    """A JSONL document's records with where each is (``line N``).

    A one-record file may reach an adapter decoded as JSON, and some tools write a JSON array of
    records instead of lines: both are read as records too (``[i]`` as their place).
    """
    if doc.kind == "jsonl" and isinstance(doc.value, list):
        lines = doc.lines or tuple(range(1, len(doc.value) + 1))
        return [(record, f"line {line}") for record, line in zip(doc.value, lines, strict=False)]
    if isinstance(doc.value, list):
        return [(record, f"[{i}]") for i, record in enumerate(doc.value)]
    return [(doc.value, "line 1")]


def single_object(doc: Document) -> Any:
    """A JSON document's value; a JSONL document of one record gives that record."""
    if doc.kind == "jsonl" and isinstance(doc.value, list) and len(doc.value) == 1:
        return doc.value[0]
    return doc.value


class EventLog:
    """Builds one session's events in order, and the Session around them."""

    def __init__(self, ctx: IngestContext, ordinal: int) -> None:
        self.ctx = ctx
        self.ordinal = ordinal
        self.session_id = Session.make_id(ctx.raw_sha256, ordinal)
        self.events: list[Event] = []

    def add(
        self,
        kind: EventKind,
        text: str = "",
        *,
        role: str | None = None,
        timestamp: datetime | None = None,
        **data: Any,
    ) -> int:
        """Append an event (None-valued data keys are left out); return its seq."""
        seq = len(self.events)
        clean = {key: value for key, value in data.items() if value is not None}
        self.events.append(
            Event(session_id=self.session_id, seq=seq, kind=kind, role=role, text=text,
                  timestamp=as_utc(timestamp), data=clean)
        )
        return seq

    def add_output(
        self,
        output: str,
        *,
        command: str | None,
        cause: int | None,
        exit_code: int | None = None,
        is_error: bool | None = None,
        role: str = "environment",
        timestamp: datetime | None = None,
    ) -> int:
        """Append a command's output: a ``test_result`` when it reports a test run, else an
        ``observation``.

        The rule: the output becomes a ``test_result`` (in place of the observation, with the
        same text) when it holds a test runner's final summary line, or when the command is a
        test run and at least one per-test outcome was parsed. Everything else is an observation.
        """
        run = parse_test_output(output)
        if run.has_summary or (run.tests and command is not None and is_test_command(command)):
            return self.add(
                EventKind.TEST_RESULT, output, role=role, timestamp=timestamp, command=command,
                exit_code=exit_code, runner=run.runner, cause=cause, summary=run.summary,
                tests=[test.model_dump() for test in run.tests],
            )
        return self.add(
            EventKind.OBSERVATION, output, role=role, timestamp=timestamp, exit_code=exit_code,
            cause=cause, is_error=is_error,
        )

    def add_submission(self, diff: str, *, role: str = "assistant",
                       timestamp: datetime | None = None) -> int:
        """Append the final patch as a ``submission`` event with the paths it touches."""
        return self.add(EventKind.SUBMISSION, diff, role=role, timestamp=timestamp, diff=diff,
                        paths=diff_paths(diff))

    def session(self, source_format: str, **fields: Any) -> Session:
        """The Session of these events. Fields the file did not give fall back to the context."""
        stamps = [event.timestamp for event in self.events if event.timestamp is not None]
        defaults: dict[str, Any] = {
            "repo": self.ctx.repo,
            "branch": self.ctx.branch,
            "commit_start": self.ctx.commit,
            "task_id": self.ctx.task_id,
            "started_at": min(stamps, default=None),
            "ended_at": max(stamps, default=None),
        }
        for key, value in defaults.items():
            if fields.get(key) is None:
                fields[key] = value
        fields["started_at"] = as_utc(fields["started_at"])
        fields["ended_at"] = as_utc(fields["ended_at"])
        return Session(
            id=self.session_id, source_format=source_format, raw_sha256=self.ctx.raw_sha256,
            ordinal=self.ordinal, source_path=self.ctx.source_path, events=tuple(self.events),
            **fields,
        )


def normal_outcome(exit_status: Any) -> str | None:
    """An agent's exit status as a session outcome: ``submitted`` normalised, others verbatim."""
    if not isinstance(exit_status, str) or not exit_status.strip():
        return None
    status = exit_status.strip()
    return "submitted" if status.lower() == "submitted" else status


# How pydantic names the member of a union that failed, inside an error's location.
_UNION_TAG = re.compile(r"^(?:str|int|float|bool|none|[a-z-]+\[.*\]|function-.*)$")


def checked(model: type[M], value: Any, where: str = "") -> M:
    """Validate ``value`` as ``model``; a failure raises IngestError at the exact place.

    Pydantic's error location (``("trajectory", 3, "action")``) becomes ``trajectory[3].action``
    below ``where``.
    """
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        error = exc.errors()[0]
        place = where
        for part in error["loc"]:
            if isinstance(part, str) and _UNION_TAG.match(part):
                break  # a union member's tag (``str``, ``list[any]``): the field is the place
            place += f"[{part}]" if isinstance(part, int) else (f".{part}" if place else str(part))
        reason = f"{error['msg']} (got {_short(error.get('input'))})"
        raise IngestError(reason, place or "document") from exc


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
