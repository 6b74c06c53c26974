"""mini-swe-agent trajectories: one session per file.

Two shapes: the early one, a bare JSON list of chat messages, and the current ``.traj.json``
dict (``info``, ``messages``, ``trajectory_format: mini-swe-agent-1*``). The assistant's command
is ``extra.actions[].command`` where written, else its single fenced ``bash`` /
``mswea_bash_command`` block; the reply to it carries ``extra.returncode`` or
``<returncode>N</returncode><output>...</output>``.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import (
    EventLog,
    checked,
    content_text,
    normal_outcome,
    single_object,
    to_utc,
)
from dreamer.models import EventKind, Session

_FENCE = re.compile(r"```(?:bash|mswea_bash_command|sh)\s*\n(.*?)\n?```", re.DOTALL)
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d+)\s*</returncode>")
_OUTPUT = re.compile(r"<output>\n?(.*?)</output>", re.DOTALL)
# The command that ends a run; what it prints is the submission.
_SUBMIT = re.compile(r"COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT")
_PATCH = re.compile(r"^(?:diff --git |--- |\+\+\+ |@@ -\d)", re.MULTILINE)


class _Message(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: StrictStr
    content: StrictStr | list[Any] | None = None
    extra: dict[str, Any] | None = None
    tool_call_id: StrictStr | None = None
    timestamp: float | StrictStr | None = None


class _Traj(BaseModel):
    model_config = ConfigDict(extra="allow")

    messages: list[Any]
    info: dict[str, Any] | None = None
    trajectory_format: StrictStr | None = None


def _actions(message: _Message, text: str) -> list[tuple[str, str | None]]:
    """(command, tool_call_id) pairs the assistant asked to run.

    mini-swe-agent runs a text response's command only when it holds exactly one fenced block;
    otherwise it answers with a format error, and nothing ran.
    """
    extra = message.extra or {}
    listed = extra.get("actions")
    if isinstance(listed, list) and listed:
        return [
            (str(a.get("command", "")), a.get("tool_call_id"))
            for a in listed
            if isinstance(a, dict) and a.get("command")
        ]
    blocks = _FENCE.findall(text)
    return [(blocks[0].strip(), None)] if len(blocks) == 1 else []


def _reply(message: _Message, text: str) -> tuple[str, int | None]:
    """The output and return code of an observation message."""
    extra = message.extra or {}
    code = extra.get("returncode")
    if not isinstance(code, int):
        found = _RETURNCODE.search(text)
        code = int(found[1]) if found else None
    raw = extra.get("raw_output")
    if isinstance(raw, str):
        return raw, code
    output = _OUTPUT.search(text)
    return (output[1] if output else text), code


def _someones_words(message: _Message, text: str, command: str, submission: object) -> bool:
    """Whether a user turn after the submit command is a person's words, not its output: the
    submission is what the command printed (a patch, or nothing: ``info.submission``), while an
    interactive run's next turn is whatever the user typed at the exit prompt (a review)."""
    if not _SUBMIT.search(command) or message.role != "user" or message.tool_call_id:
        return False
    if (message.extra or {}).get("returncode") is not None or _RETURNCODE.search(text):
        return False
    body = text.strip()
    return bool(body) and body != str(submission or "").strip() and not _PATCH.search(body)


@ADAPTERS.register("mini-swe-agent")
class MiniSweAgentAdapter(TrajectoryAdapter):
    """mini-swe-agent trajectories, early (a list of messages) and current (``.traj.json``)."""

    name = "mini-swe-agent"

    def sniff(self, doc: Document) -> float:
        value = single_object(doc)
        if isinstance(value, dict):
            if str(value.get("trajectory_format", "")).startswith("mini-swe-agent"):
                return 1.0
            info = value.get("info")
            if isinstance(value.get("messages"), list) and isinstance(info, dict) and (
                {"mini_version", "exit_status", "submission"} & info.keys()
            ):
                return 0.8
            return 0.0
        if not isinstance(value, list) or len(value) < 2:
            return 0.0
        if not all(isinstance(m, dict) and {"role", "content"} <= m.keys() for m in value):
            return 0.0
        texts = [content_text(m.get("content")) for m in value]
        if any("<returncode>" in t or "mswea_bash_command" in t for t in texts):
            return 0.9
        return 0.6 if any(_FENCE.search(t) for t in texts) else 0.3

    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]:
        value = single_object(doc)
        if isinstance(value, list):
            traj, prefix = _Traj(messages=value), ""
        else:
            traj, prefix = checked(_Traj, value), "messages"
        info = traj.info or {}
        log = EventLog(ctx, 0)
        pending: deque[tuple[int, str, str | None]] = deque()  # (seq, command, tool_call_id)
        submitted_output: str | None = None
        exit_extra: dict[str, Any] = {}
        skipped = 0
        for i, raw in enumerate(traj.messages):
            message = checked(_Message, raw, f"{prefix}[{i}]")
            extra = message.extra or {}
            text = content_text(message.content)
            stamp = to_utc(message.timestamp if message.timestamp is not None
                           else extra.get("timestamp"))
            if message.role == "assistant":
                thought = (message.model_extra or {}).get("reasoning_content")
                log.add(EventKind.MESSAGE, text, role="assistant", timestamp=stamp, thought=thought)
                for command, call_id in _actions(message, text):
                    seq = log.add(EventKind.COMMAND, command, role="assistant", timestamp=stamp,
                                  command=command)
                    pending.append((seq, command, call_id))
            elif message.role in {"user", "tool"} and pending and not _someones_words(
                    message, text, pending[0][1], info.get("submission")):
                seq, command, _ = self._take(pending, message.tool_call_id)
                output, code = _reply(message, text)
                if _SUBMIT.search(command):
                    submitted_output = output
                    continue
                log.add_output(output, command=command, cause=seq, exit_code=code, timestamp=stamp)
            elif message.role == "user":
                log.add(EventKind.MESSAGE, text, role="user", timestamp=stamp)
            elif message.role == "exit":
                exit_extra = extra
            else:
                skipped += 1  # the system prompt (a template, not evidence) and unknown roles
        submission = info.get("submission") or exit_extra.get("submission") or submitted_output
        if submission:
            log.add_submission(str(submission))
        status = info.get("exit_status") or exit_extra.get("exit_status")
        outcome = normal_outcome(status) or ("submitted" if submitted_output is not None else None)
        metadata = {
            "exit_status": status,
            "model_stats": info.get("model_stats"),
            "mini_version": info.get("mini_version"),
            "trajectory_format": traj.trajectory_format or "early (message list)",
            "messages_skipped": skipped,
        }
        return [log.session(self.name, outcome=outcome,
                            metadata={k: v for k, v in metadata.items() if v})]

    @staticmethod
    def _take(
        pending: deque[tuple[int, str, str | None]], call_id: str | None
    ) -> tuple[int, str, str | None]:
        """The command an observation answers: by tool-call id when given, else the oldest."""
        for item in pending:
            if call_id is not None and item[2] == call_id:
                pending.remove(item)
                return item
        return pending.popleft()
