"""Building sessions and events from documents: what every trajectory adapter shares.

``EventLog`` numbers a session's events, applies the observation/test_result rule and builds the
Session with its fallbacks; ``records``/``single_object`` read a ``Document``; ``checked`` is
pydantic validation that fails as an ``IngestError`` at the exact place. Small conversions of
document values: timestamps, chat content parts, repository-relative paths, exit statuses, the
facts of a review comment or defect report.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from dreamer.errors import IngestError
from dreamer.ingest.base import Document, IngestContext
from dreamer.ingest.parsing import diff_paths, is_test_command, parse_test_output
from dreamer.models import Event, EventKind, Session

M = TypeVar("M", bound=BaseModel)

# --------------------------------------------------------------------------- small conversions


def to_utc(value: Any) -> datetime | None:
    """A timezone-aware UTC datetime from ISO text or epoch seconds; None when unparsable.

    A naive timestamp is taken as UTC: the formats that write them (OpenHands) log in UTC.
    """
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int | float):
            return datetime.fromtimestamp(_epoch_seconds(value), tz=UTC)
        if isinstance(value, str) and value.strip():
            return as_utc(datetime.fromisoformat(value.strip().replace("Z", "+00:00")))
    except (ValueError, OverflowError, OSError):
        return None
    return None


_LAST_EPOCH_SECOND = 4_102_444_800  # 2100-01-01: a larger count is in ms, µs or ns


def _epoch_seconds(value: float) -> float:
    """Epoch seconds from a count in seconds, milliseconds, microseconds or nanoseconds, told
    apart by size (a count past 2100 in one unit is the next finer unit)."""
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    for scale in (1, 1e3, 1e6, 1e9):
        if abs(value) / scale < _LAST_EPOCH_SECOND:
            return value / scale
    raise ValueError("too large for a timestamp")


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


# Files a reviewer or tester names: a path ending in a known source or config extension,
# optionally ``:LINE``. Not inside a URL (the look-behind refuses ``/``, ``:``, ``.``).
_MENTIONED_PATH = re.compile(
    r"(?<![\w/.:@-])(/?(?:[\w.-]+/)*[\w-][\w.-]*\.(?:py|pyi|pyx|ipynb|js|jsx|mjs|ts|tsx|go|rs|"
    r"java|kt|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|sh|sql|html|css|scss|vue|md|rst|txt|toml|"
    r"ya?ml|json|cfg|ini|conf|xml|proto|tf))(?::(\d+))?(?![\w/-]|\.\w)"
)
# A review or defect id written in the text.
_REF = re.compile(r"\b(?:REVIEW|QA|DEFECT|BUG)-\d+\b")
# ``@name`` after "from"/"by", else opening a line: a bare ``@name`` elsewhere may be a decorator.
_AUTHOR_AFTER = re.compile(r"\b(?:from|by)\s+@([A-Za-z0-9][\w-]*)", re.IGNORECASE)
_AUTHOR_OPENING = re.compile(r"^\s*@([A-Za-z0-9][\w-]*)", re.MULTILINE)


def review_data(
    text: str, *, author: Any = None, ref: Any = None, roots: list[str] | None = None
) -> dict[str, Any]:
    """The ``data`` of a ``review`` or ``qa_defect`` event read from its text.

    ``author`` and ``ref`` given by the record win over the text's ``@name`` and
    ``REVIEW-12``/``QA-7``; ``paths`` are the files the text names (made relative to the first
    of ``roots`` they lie under), ``line`` the line written with the first of them
    (``src/shop/orders.py:42``). Keys not found are left out.
    """
    data: dict[str, Any] = {}
    named = _AUTHOR_AFTER.search(text) or _AUTHOR_OPENING.search(text)
    if isinstance(author, str) and author.strip():
        data["author"] = author.strip().lstrip("@")
    elif named:
        data["author"] = named[1]
    found_ref = _REF.search(text)
    if ref is not None and str(ref).strip():
        data["ref"] = str(ref).strip()
    elif found_ref:
        data["ref"] = found_ref[0]
    mentions = list(_MENTIONED_PATH.finditer(text))
    paths = list(dict.fromkeys(relative_path(m[1], roots or []) for m in mentions))
    if paths:
        data["paths"] = paths
        if mentions[0][2] is not None:
            data["line"] = int(mentions[0][2])
    return data


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
        if self.ctx.repo:  # named on the command line: it wins over what the file says
            fields["repo"] = self.ctx.repo
            fields["metadata"] = {**(fields.get("metadata") or {}), "repo_source": "--repo"}
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
