"""A read-only view of one session shaped for extraction: runs, edits, reviews and defects.

Adapters record what the trajectory says and no more, so much is optional: an exit code may sit on
the observation that answers a command (``cause``), a test run may carry parsed outcomes or only
its output. This view pairs commands with their results and decides, once, whether a run
succeeded, failed, or ran nothing (all skipped, no tests collected).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from dreamer.extract.citations import Hunk, parse_diff
from dreamer.extract.remarks import Remark, remark
from dreamer.extract.shell_edits import runs_a_program, shell_hunks
from dreamer.extract.template import issue_part, world_text
from dreamer.models import Event, EventKind, Session

RunStatus = Literal["ok", "failed", "ineffective", "unknown"]

_FAILED_LINE = re.compile(r"^(?:FAILED|ERROR)\s+(\S+?)(?:\s+-\s+(.*))?$", re.MULTILINE)
_PASSED_LINE = re.compile(r"^(\S+::\S+)\s+PASSED", re.MULTILINE)
_ERROR_TEXT = re.compile(
    r"Traceback \(most recent call last\)|^\w*(?:Error|Exception):|command not found|"
    r"No such file or directory|^fatal:|^error:|^E\s{3}",
    re.MULTILINE,
)
_NOTHING_RAN = re.compile(
    r"no tests ran|collected 0 items|^\s*=+\s*\d+ skipped(?: in [\d.]+s)?\s*=+",
    re.MULTILINE | re.IGNORECASE,
)
_DIFF = re.compile(r"^\+\+\+ |^@@ -\d", re.MULTILINE)
_HEAD_COMMAND = re.compile(r"\bgit\s+(?:log\b.*-1|log\b.*-n\s*1|rev-parse\s+HEAD|show\b.*-s)")
_HEAD = re.compile(r"^[0-9a-f]{40}\b")
_TEST_COMMAND = re.compile(
    r"\b(pytest|tox|nox|unittest)\b|\bmake\s+[\w-]*(test|integration|contract|check)", re.I
)


@dataclass(frozen=True)
class Run:
    """A command and what came back: the unit of "this failed, then that worked"."""

    seq: int
    result_seq: int
    command: str
    output: str
    exit_code: int | None
    failed_tests: tuple[str, ...]
    passed_tests: tuple[str, ...]
    status: RunStatus
    is_test: bool
    failure_lines: tuple[str, ...] = ()
    """``FAILED id - message`` lines of the output, for excerpts."""


@dataclass(frozen=True)
class Edit:
    """A change to files: its paths and, when the trajectory shows it, its diff hunks."""

    seq: int
    paths: tuple[str, ...]
    hunks: tuple[Hunk, ...]
    """Its own diff's hunks, or the final patch's hunks for its paths when it has no diff."""
    added: tuple[str, ...] = ()
    """The lines this edit wrote: its own diff's added lines, or the text of the edit command."""
    own: bool = True
    """Whether ``hunks`` are the edit's own (its diff, or the diff shown in answer to it); False
    when they were borrowed from the final patch for its paths."""
    shell: bool = False
    """A shell command that wrote files (``sed -i``, a Python script, a redirection, a
    generator whose output shows its diff): it may run tests after writing, in one line."""


def _test_ids(event: Event, outcome: set[str]) -> tuple[str, ...]:
    tests = event.data.get("tests") or []
    return tuple(t["test_id"] for t in tests if isinstance(t, dict) and t.get("outcome") in outcome)


def _status(
    exit_code: int | None,
    failed: tuple[str, ...],
    passed: tuple[str, ...],
    summary: dict[str, int],
    output: str,
) -> RunStatus:
    broken = sum(summary.get(key, 0) for key in ("failed", "error", "errors"))
    if failed or broken > 0:
        return "failed"
    if passed or summary.get("passed", 0) > 0:
        return "ok"
    if exit_code == 5 or _NOTHING_RAN.search(output) or (summary and set(summary) <= {"skipped"}):
        return "ineffective"
    if exit_code is not None:
        return "ok" if exit_code == 0 else "failed"
    return "failed" if _ERROR_TEXT.search(output) else "unknown"


@dataclass
class SessionView:
    """Extraction's reading of a session. Build it once per session."""

    session: Session
    events: dict[int, Event] = field(init=False)

    def __post_init__(self) -> None:
        self.events = {e.seq: e for e in self.session.events}

    @cached_property
    def runs(self) -> list[Run]:
        """Every command with its result, and every test run reported on its own, in order."""
        answered: dict[int, Event] = {}
        ordered = self.session.events
        for i, event in enumerate(ordered):
            if event.kind not in (EventKind.OBSERVATION, EventKind.TEST_RESULT):
                continue
            cause = event.data.get("cause")
            if isinstance(cause, int) and cause in self.events:
                answered.setdefault(cause, event)
            elif i > 0 and ordered[i - 1].kind is EventKind.COMMAND:
                answered.setdefault(ordered[i - 1].seq, event)
        runs: list[Run] = []
        used: set[int] = set()
        for event in ordered:
            if event.kind is EventKind.COMMAND:
                result = answered.get(event.seq)
                command = str(event.data.get("command") or event.text).strip()
                runs.append(self._run(event.seq, command, result))
                if result is not None:
                    used.add(result.seq)
            elif event.kind is EventKind.TEST_RESULT and event.seq not in used:
                runs.append(self._run(event.seq, str(event.data.get("command") or ""), event))
        return runs

    def _run(self, seq: int, command: str, result: Event | None) -> Run:
        if result is None:
            return Run(seq, seq, command, "", None, (), (), "unknown", False)
        data = result.data
        output = result.text or ""
        exit_code = data.get("exit_code") if isinstance(data.get("exit_code"), int) else None
        failed = _test_ids(result, {"failed", "error"})
        passed = _test_ids(result, {"passed", "xpassed"})
        lines = tuple(m.group(0).strip() for m in _FAILED_LINE.finditer(output))
        if not failed:
            failed = tuple(
                dict.fromkeys(
                    m.group(1)
                    for m in _FAILED_LINE.finditer(output)
                    if "::" in m.group(1) or m.group(1).endswith(".py")
                )
            )
        if not passed:
            passed = tuple(dict.fromkeys(_PASSED_LINE.findall(output)))
        raw = data.get("summary")
        summary = {str(k): _count(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
        is_test = result.kind is EventKind.TEST_RESULT or bool(_TEST_COMMAND.search(command))
        status = _status(exit_code, failed, passed, summary, output)
        return Run(
            seq, result.seq, command, output, exit_code, failed, passed, status, is_test, lines
        )

    @cached_property
    def edits(self) -> list[Edit]:
        """Every edit, with diff hunks when known (else the final patch's hunks for its paths).

        An edit's own diff comes first, then the diff the environment showed in answer to it
        (its paths then win over the adapter's guess from the open file), then the final patch.
        """
        submitted = self.submission_hunks
        shown = self._answers
        edits = []
        for event in self.session.events:
            if event.kind is not EventKind.EDIT:
                continue
            hunks = tuple(parse_diff(str(event.data.get("diff") or "")))
            if not hunks:
                hunks = structured_edit(event)
            if not hunks and (answer := shown.get(event.seq)) is not None:
                hunks = tuple(parse_diff(answer.text)) if _DIFF.search(answer.text) else ()
            paths = tuple(dict.fromkeys(h.path for h in hunks)) or tuple(
                str(p) for p in event.data.get("paths") or ()
            )
            added = tuple(line for h in hunks for line in h.added) or _edit_text(event.text)
            own = bool(hunks)
            if not hunks:
                hunks = tuple(h for h in submitted if h.path in paths)
            edits.append(Edit(event.seq, paths, hunks, added, own))
        edits += self._shell_edits(shown)
        return sorted(edits, key=lambda e: e.seq)

    def _shell_edits(self, shown: dict[int, Event]) -> list[Edit]:
        """Commands that wrote files (``dreamer.extract.shell_edits``); one that ran a program
        and showed a unified diff (``python -m gen && git diff``) wrote what the diff shows."""
        edits = []
        for event in self.session.events:
            if event.kind is not EventKind.COMMAND:
                continue
            command = str(event.data.get("command") or event.text)
            hunks = shell_hunks(command)
            if not hunks and (answer := shown.get(event.seq)) is not None \
                    and _DIFF.search(answer.text) and runs_a_program(command):
                hunks = tuple(parse_diff(answer.text))
            if hunks:
                paths = tuple(dict.fromkeys(h.path for h in hunks))
                added = tuple(line for h in hunks for line in h.added)
                edits.append(Edit(event.seq, paths, hunks, added, True, shell=True))
        return edits

    @cached_property
    def _answers(self) -> dict[int, Event]:
        """The observation that answers each event that has one, by the answered event's seq."""
        return {
            cause: e
            for e in reversed(self.session.events)
            if e.kind is EventKind.OBSERVATION and isinstance(cause := e.data.get("cause"), int)
        }

    @cached_property
    def commits(self) -> tuple[str, ...]:
        """Commits to read cited lines at, most likely first: the session's end and start, then
        the HEAD the session printed before its first edit (SWE-agent logs carry no commits;
        their first ``git log -1`` / ``git rev-parse HEAD`` output is the base commit)."""
        found = [c for c in (self.session.commit_end, self.session.commit_start) if c]
        first_edit = min((e.seq for e in self.edits), default=None)
        for run in self.runs:
            if first_edit is not None and run.seq > first_edit:
                break
            if _HEAD_COMMAND.search(run.command) and (head := _HEAD.match(run.output.strip())):
                found.append(head.group(0))
                break
        return tuple(dict.fromkeys(found))

    @cached_property
    def task_seq(self) -> int | None:
        """The task statement: the first user message (it holds the framework's template)."""
        for event in self.session.events:
            if event.kind is EventKind.MESSAGE and event.role == "user" and event.text.strip():
                return event.seq
        return None

    def world(self, event: Event) -> str:
        """What ``event`` says without the agent framework's fixed template (``template``)."""
        return world_text(event.text, task=event.seq == self.task_seq)

    @cached_property
    def submission_hunks(self) -> tuple[Hunk, ...]:
        """The hunks of the last submitted patch (or of ``info.submission`` kept as metadata)."""
        for event in reversed(self.session.events):
            if event.kind is EventKind.SUBMISSION and event.data.get("diff"):
                return tuple(parse_diff(str(event.data["diff"])))
        return ()

    @cached_property
    def submission_seq(self) -> int | None:
        for event in reversed(self.session.events):
            if event.kind is EventKind.SUBMISSION:
                return event.seq
        return None

    @cached_property
    def remarks(self) -> list[Remark]:
        """Reviews and QA defects, whether the adapter typed them or they came as user turns."""
        found = []
        for event in self.session.events:
            said = remark(event, task=event.seq == self.task_seq) or self._follow_up(event)
            if said is not None:
                found.append(said)
        return found

    def _follow_up(self, event: Event) -> Remark | None:
        """A user's turn after the agent had changed code and run the tests, that made it change
        code again: a correction of finished work, whatever its wording ("Review from Marco:
        ...", "one more thing: ..."), read as a review."""
        if event.kind is not EventKind.MESSAGE or event.role != "user" \
                or event.seq == self.task_seq or not event.text.strip():
            return None
        before = any(e.seq < event.seq for e in self.edits) and any(
            r.seq < event.seq and r.is_test and r.status in ("ok", "failed") for r in self.runs)
        after = any(e.seq > event.seq for e in self.edits)
        if not (before and after):
            return None
        body = world_text(event.text)
        if len(body) < 20 or body.lstrip().startswith(("<", "[Request interrupted")):
            return None  # a tool's result or an interruption, not someone's comment
        return Remark(event.seq, "review", None, None, None, None, None, body.strip())

    def edits_between(self, after: int, before: int) -> list[Edit]:
        """Edits after event ``after`` and before event ``before``; a shell command that wrote
        files and then ran something (``sed -i ... && pytest``) wrote before it ran."""
        return [e for e in self.edits
                if after < e.seq < before or (e.shell and e.seq == before)]

    @property
    def problem(self) -> str:
        """The task as first stated: the first user message, cut to its issue text."""
        seq = self.task_seq
        return _issue_text(self.events[seq].text) if seq is not None else ""


_NEW_STR = re.compile(r"--new_str\s+(['\"])(?P<text>.*?)\1", re.DOTALL)


def _edit_text(action: str) -> tuple[str, ...]:
    """The new text of an agent's edit command (SWE-agent ``edit``/``insert``, ``str_replace``)."""
    if match := _NEW_STR.search(action):
        return tuple(match.group("text").splitlines())
    first, _, rest = action.partition("\n")
    for end in ("end_of_edit", "end_of_insert", "end_of_append"):
        if end in rest:
            return tuple(rest.rsplit(end, 1)[0].splitlines())
    return ()


def structured_edit(event: Event) -> tuple[Hunk, ...]:
    """The change an edit tool call describes by its arguments (Claude Code's ``Edit``,
    ``MultiEdit`` and ``Write``, the ``str_replace_editor``'s old and new strings kept as JSON):
    the old text removed and the new text added, in the file it names. Line numbers are not in
    the call (``new_start`` 0); citing the hunk locates its lines in the file."""
    import json

    text = event.text.strip()
    if isinstance(event.data.get("new_str"), str):
        # The adapter kept the editor call's strings (OpenHands' ``str_replace_editor``).
        call = {"old_str": event.data.get("old_str"), "new_str": event.data["new_str"]}
    elif not text.startswith("{"):
        return ()
    else:
        try:
            call = json.loads(text)
        except ValueError:
            return ()
    if not isinstance(call, dict):
        return ()
    paths = [str(p) for p in event.data.get("paths") or ()]
    path = paths[0] if paths else str(call.get("file_path") or call.get("path") or "")
    if not path:
        return ()
    edits = call.get("edits")
    changes: list[object] = edits if isinstance(edits, list) else [call]
    hunks = []
    for change in changes:
        if not isinstance(change, dict):
            continue
        old = change.get("old_string", change.get("old_str"))
        new = change.get("new_string", change.get("new_str", change.get("content")))
        if not isinstance(new, str):
            continue
        removed = tuple(old.splitlines()) if isinstance(old, str) else ()
        added = tuple(new.splitlines())
        hunks.append(Hunk(path, 0, len(removed), 0, len(added), added, removed, added,
                          tuple(range(len(added))), removed))
    return tuple(hunks)


def _count(value: object) -> int:
    """A count from an adapter's summary; anything not a number counts as 0."""
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return 0


def _issue_text(text: str) -> str:
    text = issue_part(text) or text
    text = re.sub(
        r"^\s*(please solve this issue:?|github issue:?|task:)\s*", "", text.strip(), flags=re.I
    )
    text = re.sub(r"^\s*(github issue:?)\s*", "", text, flags=re.I)
    return " ".join(text.split())
