"""SWE-agent ``.traj`` files: one session per file.

Read: ``trajectory[]`` (``thought``/``response``, ``action``, ``observation``, ``state``),
from ``history[]`` the task statement and the later user turns that are not observations (a
reviewer's comment, a QA defect, a human's follow-up), ``info`` (``submission``, ``exit_status``,
``model_stats``), and where newer versions write them, ``replay_config`` (repository, base
commit, instance id) and ``trajectory[].execution_time``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from dreamer.errors import IngestError
from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import (
    EventLog,
    checked,
    content_text,
    normal_outcome,
    relative_path,
    review_data,
    single_object,
    to_utc,
)
from dreamer.ingest.parsing import swe_agent_edit_paths
from dreamer.ingest.swe_agent_config import as_dict, config_time, origin
from dreamer.models import EventKind, Session

# SWE-agent's own tools (not shell programs): recorded as the command's ``tool``.
_TOOLS = {
    "open", "goto", "scroll_up", "scroll_down", "find_file", "search_dir", "search_file",
    "str_replace_editor", "filemap", "create", "edit", "insert", "append", "submit",
}
# How SWE-agent wraps an observation into a user turn: 0.x's prompt footer, 1.x's header, the
# text it sends for a command without output.
_OBSERVATION_FOOTER = re.compile(
    r"\(Open file: [^\n]*\)\s*\(Current directory: [^\n]*\)\s*bash-\$\s*$"
)
_OBSERVATION_OPENING = re.compile(
    r"^\s*(?:OBSERVATION:|Your (?:last )?command ran successfully and did not produce any output)"
)
# An observation this short ("8.2") is taken as echoed only by the turn that answers its own
# step: anywhere else it may be a coincidence inside a human's words.
_SHORT_OBSERVATION = 32
# Compare an observation by its beginning: the history may hold it clipped to a maximum length.
_OBSERVATION_PROBE = 200
_REVIEW_AGENTS = {"review", "reviewer"}


class _Step(BaseModel):
    model_config = ConfigDict(extra="allow")

    action: StrictStr
    observation: StrictStr | None = ""
    response: StrictStr | None = ""
    thought: StrictStr | None = ""
    state: StrictStr | dict[str, Any] | None = None
    execution_time: float | None = None


class _Traj(BaseModel):
    model_config = ConfigDict(extra="allow")

    trajectory: list[_Step]
    history: list[dict[str, Any]] | None = None
    info: dict[str, Any] | None = None
    environment: StrictStr | dict[str, Any] | None = None
    replay_config: StrictStr | dict[str, Any] | None = None


def _time(value: Any, where: str) -> datetime | None:
    """``info.started_at`` / ``info.ended_at``: SWE-agent writes no wall-clock times, but a
    recorder may add them (ISO 8601 or epoch seconds; no zone means UTC)."""
    if value is None:
        return None
    when = to_utc(value)
    if when is None:
        raise IngestError(f"{where} is not an ISO 8601 time: {value!r}", where)
    return when


@dataclass(frozen=True)
class _UserTurn:
    """A later user turn of ``history[]`` that is no observation, and where it goes."""

    after_steps: int
    """How many trajectory steps came before it (its history's assistant turns before it)."""
    kind: EventKind
    text: str
    entry: dict[str, Any]


@dataclass(frozen=True)
class _HistoryReading:
    task: str | None
    """The first user message that is not part of a demonstration: the issue text."""
    turns: list[_UserTurn]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _turn_kind(entry: dict[str, Any]) -> EventKind:
    """``review``/``qa_defect`` by the entry's ``message_type`` or ``agent``, else ``message``."""
    message_type = str(entry.get("message_type") or "").lower()
    agent = str(entry.get("agent") or "").lower()
    if message_type == "review" or agent in _REVIEW_AGENTS:
        return EventKind.REVIEW
    if message_type == "qa_defect" or agent == "qa":
        return EventKind.QA_DEFECT
    return EventKind.MESSAGE


def _is_observation(text: str, own: str | None, observations: list[str]) -> bool:
    """Whether a user turn is SWE-agent's echo of a step's observation.

    It is when it has the shape of SWE-agent's observation template, or contains (whitespace
    normalised) the observation of the step it answers, ``own``, or another step's observation
    long enough not to be there by chance.
    """
    if _OBSERVATION_FOOTER.search(text) or _OBSERVATION_OPENING.match(text):
        return True
    flat = _flat(text)
    if own and own[:_OBSERVATION_PROBE] in flat:
        return True
    return any(
        len(seen) >= _SHORT_OBSERVATION and seen[:_OBSERVATION_PROBE] in flat
        for seen in observations
    )


def _read_history(history: list[dict[str, Any]] | None, steps: list[_Step]) -> _HistoryReading:
    """The task statement, and the later user turns that echo no observation, placed by the
    number of assistant turns before them (one per trajectory step)."""
    observations = [_flat(step.observation or "") for step in steps]
    task: str | None = None
    turns: list[_UserTurn] = []
    actions = 0
    for entry in history or []:
        if str(entry.get("is_demo", "")).lower() == "true":
            continue
        if entry.get("role") == "assistant":
            actions += 1
        elif entry.get("role") != "user":
            continue
        elif task is None:
            task = content_text(entry.get("content"))
        else:
            text = content_text(entry.get("content"))
            kind = _turn_kind(entry)
            own = observations[actions - 1] if 0 < actions <= len(steps) else None
            # A turn marked as a review or defect is one, whatever text it quotes.
            if kind is EventKind.MESSAGE and _is_observation(text, own, observations):
                continue
            turns.append(_UserTurn(min(actions, len(steps)), kind, text, entry))
    return _HistoryReading(task, turns)


def _add_turns(log: EventLog, turns: list[_UserTurn], after_steps: int, roots: list[str]) -> None:
    for turn in turns:
        if turn.after_steps != after_steps:
            continue
        if turn.kind is EventKind.MESSAGE:
            log.add(EventKind.MESSAGE, turn.text, role="user")
            continue
        data = review_data(turn.text, author=turn.entry.get("author"),
                           ref=turn.entry.get("id", turn.entry.get("ref")), roots=roots)
        log.add(turn.kind, turn.text, role="user", **data)


@ADAPTERS.register("swe-agent")
class SweAgentAdapter(TrajectoryAdapter):
    """SWE-agent trajectories (0.x and 1.x ``.traj`` JSON)."""

    name = "swe-agent"

    def sniff(self, doc: Document) -> float:
        value = single_object(doc)
        if not isinstance(value, dict) or not isinstance(value.get("trajectory"), list):
            return 0.0
        steps = value["trajectory"]
        first = steps[0] if steps and isinstance(steps[0], dict) else {}
        if "action" in first and ({"observation", "response", "thought"} & first.keys()):
            return 0.97
        return 0.85 if {"history", "info"} & value.keys() else 0.55

    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]:
        traj = checked(_Traj, single_object(doc))
        info = traj.info or {}
        log = EventLog(ctx, 0)
        reading = _read_history(traj.history, traj.trajectory)
        if reading.task:
            log.add(EventKind.MESSAGE, reading.task, role="user")
        # Paths a review names are made relative to the repository root: the shortest workdir.
        workdirs = {str(as_dict(step.state).get("working_dir") or "/testbed")
                    for step in traj.trajectory}
        roots = sorted(workdirs | {"/testbed"}, key=len)
        open_file: str | None = None
        submitted = False
        for index, step in enumerate(traj.trajectory):
            _add_turns(log, reading.turns, index, roots)
            state = as_dict(step.state)
            workdir = str(state.get("working_dir") or "/testbed")
            if state.get("open_file") not in (None, "n/a"):
                open_file = str(state["open_file"])
            response = step.response or step.thought or ""
            if response:
                log.add(EventKind.MESSAGE, response, role="assistant", thought=step.thought or None)
            action = step.action.strip()
            head = action.split(maxsplit=1)[0] if action else ""
            if head == "submit":
                diff = info.get("submission") or step.observation or ""
                log.add_submission(diff)
                submitted = True
                continue
            paths = swe_agent_edit_paths(action, open_file)
            if paths is not None:
                relative = [relative_path(p, [workdir, "/testbed"]) for p in paths]
                seq = log.add(EventKind.EDIT, action, role="assistant", paths=relative, tool=head)
            else:
                tool = head if head in _TOOLS else None
                seq = log.add(EventKind.COMMAND, action, role="assistant", command=action,
                              tool=tool)
            if head in {"open", "create"} and len(action.split()) > 1:
                target = action.split()[1]
                open_file = target if target.startswith("/") else f"{workdir}/{target}"
            log.add_output(step.observation or "", command=action, cause=seq)
        _add_turns(log, reading.turns, len(traj.trajectory), roots)
        if info.get("submission") and not submitted:
            log.add_submission(str(info["submission"]))  # e.g. auto-submitted on a cost limit
        outcome = normal_outcome(info.get("exit_status")) or ("submitted" if submitted else None)
        metadata = {
            "exit_status": info.get("exit_status"),
            "model_stats": as_dict(info.get("model_stats")) or info.get("model_stats"),
            "environment": traj.environment if isinstance(traj.environment, str) else None,
            "agent_version": info.get("swe_agent_version"),
        }
        found = origin(traj.replay_config, traj.environment, doc.path or ctx.source_path)
        metadata["repo_source"] = found.pop("repo_source")
        times = {key: _time(info.get(key), f"info.{key}") for key in ("started_at", "ended_at")}
        if any(times.values()):
            metadata["time_source"] = "info"
        elif (created := config_time(traj.replay_config)) is not None:
            times["started_at"] = created
            metadata["time_source"] = "replay_config.created_at"
        session = log.session(
            self.name, outcome=outcome, metadata={k: v for k, v in metadata.items() if v},
            **found,
        )
        if any(times.values()):
            session = session.model_copy(update={k: v for k, v in times.items() if v})
        return [session]
