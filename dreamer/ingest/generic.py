"""dreamer's own session format (``dreamer-session/1``), for any agent without an adapter.

A JSONL file: a ``session`` record, then one ``event`` record per event; each further ``session``
record starts a new session. Validation is strict (unknown fields, wrong types, naive
timestamps, data keys the event kind does not have, a ``cause`` that is not an earlier event):
the first fault raises IngestError at ``line N``. The format is documented in
``docs/trajectory-formats.md``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from dreamer.errors import IngestError
from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import EventLog, checked, records
from dreamer.ingest.parsing import diff_paths
from dreamer.models import EventKind, Session, TestOutcome

FORMAT = "dreamer-session/1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SessionRecord(_Strict):
    """Starts a session: where and when it ran, and how it ended."""

    type: Literal["session"]
    format: Literal["dreamer-session/1"]
    repo: StrictStr | None = None
    """``owner/name`` of the repository worked on."""
    branch: StrictStr | None = None
    commit: StrictStr | None = None
    """The commit the session started from."""
    commit_end: StrictStr | None = None
    """The commit it ended at, when it committed."""
    task_id: StrictStr | None = None
    started_at: AwareDatetime | None = None
    ended_at: AwareDatetime | None = None
    outcome: StrictStr | None = None
    """``submitted``, ``resolved``, ``failed``, or the agent's own exit status."""
    metadata: dict[str, Any] = {}
    """Anything else worth keeping (agent name, model, cost)."""


class EventRecord(_Strict):
    """One event of the current session; ``data`` is checked against the kind's keys."""

    type: Literal["event"]
    kind: EventKind
    role: StrictStr | None = None
    text: StrictStr = ""
    timestamp: AwareDatetime | None = None
    data: dict[str, Any] = {}


class _CommandData(_Strict):
    command: StrictStr | None = None
    tool: StrictStr | None = None


class _ObservationData(_Strict):
    exit_code: StrictInt | None = None
    cause: StrictInt | None = None
    is_error: StrictBool | None = None


class _TestResultData(_Strict):
    command: StrictStr | None = None
    exit_code: StrictInt | None = None
    runner: StrictStr | None = None
    tests: list[TestOutcome] | None = None
    summary: dict[str, StrictInt] | None = None
    cause: StrictInt | None = None


class _EditData(_Strict):
    paths: list[StrictStr] | None = None
    diff: StrictStr | None = None
    tool: StrictStr | None = None


class _SubmissionData(_Strict):
    diff: StrictStr | None = None
    paths: list[StrictStr] | None = None


class _ReviewData(_Strict):
    author: StrictStr | None = None
    ref: StrictStr | None = None
    paths: list[StrictStr] | None = None
    line: StrictInt | None = None


class _MessageData(_Strict):
    thought: StrictStr | None = None


_DATA: dict[EventKind, type[_Strict]] = {
    EventKind.MESSAGE: _MessageData,
    EventKind.COMMAND: _CommandData,
    EventKind.OBSERVATION: _ObservationData,
    EventKind.TEST_RESULT: _TestResultData,
    EventKind.EDIT: _EditData,
    EventKind.SUBMISSION: _SubmissionData,
    EventKind.REVIEW: _ReviewData,
    EventKind.QA_DEFECT: _ReviewData,
}


def _event_data(event: EventRecord, seq: int, where: str) -> dict[str, Any]:
    data = checked(_DATA[event.kind], event.data, f"{where}.data").model_dump(
        mode="json", exclude_none=True
    )
    cause = data.get("cause")
    if cause is not None and not 0 <= cause < seq:
        raise IngestError(f"cause {cause} is not an earlier event of this session (seq {seq})",
                          f"{where}.data.cause")
    if event.kind is EventKind.SUBMISSION and "diff" in data and "paths" not in data:
        data["paths"] = diff_paths(data["diff"])
    return data


@ADAPTERS.register("dreamer")
class DreamerSessionAdapter(TrajectoryAdapter):
    """dreamer's generic JSONL session format."""

    name = "dreamer"

    def sniff(self, doc: Document) -> float:
        items = records(doc)
        first = items[0][0] if items else None
        if not isinstance(first, dict) or first.get("type") != "session":
            return 0.0
        return 1.0 if str(first.get("format", "")).startswith("dreamer-session/") else 0.4

    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]:
        sessions: list[Session] = []
        header: SessionRecord | None = None
        log: EventLog | None = None
        for raw, where in records(doc):
            kind = raw.get("type") if isinstance(raw, dict) else None
            if kind == "session":
                if header is not None and log is not None:
                    sessions.append(self._finish(header, log))
                header = checked(SessionRecord, raw, where)
                log = EventLog(ctx, len(sessions))
            elif kind == "event":
                if log is None:
                    raise IngestError("an event before any session record", where)
                event = checked(EventRecord, raw, where)
                seq = len(log.events)
                log.add(event.kind, event.text, role=event.role, timestamp=event.timestamp,
                        **_event_data(event, seq, where))
            else:
                raise IngestError(f"record type must be 'session' or 'event', not {kind!r}", where)
        if header is None or log is None:
            raise IngestError("no session record", "document")
        sessions.append(self._finish(header, log))
        return sessions

    def _finish(self, header: SessionRecord, log: EventLog) -> Session:
        return log.session(
            self.name, repo=header.repo, branch=header.branch, commit_start=header.commit,
            commit_end=header.commit_end, task_id=header.task_id, started_at=header.started_at,
            ended_at=header.ended_at, outcome=header.outcome, metadata=dict(header.metadata),
        )
