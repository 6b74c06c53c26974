"""OpenHands event streams.

Read: actions (``action``, ``args``, ``source``) and observations (``observation``, ``content``,
``extras``, ``cause`` = the id of the action answered), as a JSON list or JSONL of events; also
evaluation records that wrap a stream (``{"history": [...]}`` or ``{"events": [...]}``, with
``instance_id``, ``instance.repo``, ``instance.base_commit``, ``test_result.git_patch``), one
session per record, and the early ``[[action, observation], ...]`` pair lists.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import EventLog, checked, records, relative_path, to_utc
from dreamer.models import EventKind, Session

_EDITS = {"write", "edit"}
_TOOL_COMMANDS = {"read", "browse", "browse_interactive", "delegate", "call_tool_mcp", "mcp"}
_ERRORS = {"error", "user_rejected"}
_ROOTS = ["/workspace", "/testbed"]


def _edit_strings(event: _Event, args: dict[str, Any]) -> tuple[str | None, str | None]:
    """What an edit replaced and wrote: the action's own ``old_str``/``new_str``/``file_text``
    (``content`` for a ``write``), else the same keys in the editor tool call it was made from
    (``tool_call_metadata``, where OpenHands keeps the model's function call)."""
    call: dict[str, Any] = {}
    metadata = getattr(event, "tool_call_metadata", None)
    if isinstance(metadata, dict):
        try:
            calls = metadata["model_response"]["choices"][0]["message"]["tool_calls"]
            found = json.loads(calls[0]["function"]["arguments"])
            call = found if isinstance(found, dict) else {}
        except (KeyError, IndexError, TypeError, ValueError):
            call = {}
    merged = {**call, **{k: v for k, v in args.items() if v not in (None, "")}}
    old = merged.get("old_str")
    new = merged.get("new_str", merged.get("file_text", merged.get("content")))
    return (old if isinstance(old, str) else None, new if isinstance(new, str) else None)


class _Event(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: int | None = None
    timestamp: StrictStr | None = None
    source: StrictStr | None = None
    message: StrictStr | None = None
    action: StrictStr | None = None
    observation: StrictStr | None = None
    args: dict[str, Any] | None = None
    extras: dict[str, Any] | None = None
    content: StrictStr | None = None
    cause: int | None = None


def _looks_like_event(value: Any) -> bool:
    # Other formats' messages carry an ``action`` too (SWE-agent's history): OpenHands' actions
    # come with ``args``, its observations with ``extras``/``cause``/``content``.
    if not isinstance(value, dict):
        return False
    if "action" in value:
        return isinstance(value.get("args"), dict) or value.get("source") in {"user", "agent"}
    return "observation" in value and bool({"extras", "cause", "content"} & value.keys())


def _stream_of(value: Any) -> list[Any] | None:
    """The event list a wrapper record holds, or None when ``value`` is not a wrapper."""
    if isinstance(value, dict):
        for key in ("history", "events"):
            if isinstance(value.get(key), list):
                return list(value[key])
    return None


def _flatten(events: list[Any]) -> list[Any]:
    # Early versions stored the history as [action, observation] pairs.
    flat: list[Any] = []
    for item in events:
        flat.extend(item if isinstance(item, list) else [item])
    return flat


def _workdirs(events: Any) -> list[str]:
    """The working directories command outputs report (``extras.metadata.working_dir``), the
    deepest first (a path under both ``/w`` and ``/w/repo`` is relative to the repository)."""
    seen: list[str] = []
    for raw in events:
        extras = raw.get("extras") if isinstance(raw, dict) else None
        metadata = extras.get("metadata") if isinstance(extras, dict) else None
        workdir = metadata.get("working_dir") if isinstance(metadata, dict) else None
        if isinstance(workdir, str) and workdir and workdir not in seen:
            seen.append(workdir)
    return sorted(seen, key=lambda d: (-len(d.rstrip("/")), d))


def _role(source: str | None) -> str:
    return {"agent": "assistant", "user": "user"}.get(source or "", source or "assistant")


@ADAPTERS.register("openhands")
class OpenHandsAdapter(TrajectoryAdapter):
    """OpenHands event streams (JSON list, JSONL, or wrapped in evaluation records)."""

    name = "openhands"

    def sniff(self, doc: Document) -> float:
        items = [record for record, _ in records(doc)]
        wrapped = [_stream_of(item) for item in items]
        if items and all(stream is not None for stream in wrapped):
            inner = [event for stream in wrapped for event in _flatten(stream or [])]
            return 0.85 if inner and any(_looks_like_event(e) for e in inner) else 0.0
        flat = _flatten(items)
        hits = sum(_looks_like_event(item) for item in flat)
        return 0.9 if flat and hits / len(flat) >= 0.6 else 0.0

    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]:
        items = records(doc)
        if items and all(_stream_of(item) is not None for item, _ in items):
            sessions = []
            for ordinal, (item, where) in enumerate(items):
                stream = _flatten(_stream_of(item) or [])
                placed = [(event, f"{where}.history[{i}]") for i, event in enumerate(stream)]
                sessions.append(self._session(placed, ctx, ordinal, wrapper=item))
            return sessions
        flat: list[tuple[Any, str]] = []
        for item, where in items:
            pairs = item if isinstance(item, list) else [item]
            flat.extend((event, where if len(pairs) == 1 else f"{where}[{j}]")
                        for j, event in enumerate(pairs))
        return [self._session(flat, ctx, 0, wrapper=None)]

    def _session(
        self, events: list[tuple[Any, str]], ctx: IngestContext, ordinal: int, wrapper: Any
    ) -> Session:
        log = EventLog(ctx, ordinal)
        by_id: dict[int, int] = {}  # OpenHands event id -> seq of the event made from it
        commands: dict[int, str] = {}  # seq -> the command line, for test detection
        skipped: Counter[str] = Counter()
        # Every working directory the stream's command outputs report, known before the first
        # event: a file the agent edits before its first command is relative to it too.
        roots = list(dict.fromkeys([*_workdirs(raw for raw, _ in events), *_ROOTS]))
        finished = False
        for raw, where in events:
            event = checked(_Event, raw, where)
            stamp = to_utc(event.timestamp)
            args = event.args or {}
            extras = event.extras or {}
            if event.action is not None:
                seq = self._action(log, event, args, stamp, roots, commands, skipped)
                finished |= event.action == "finish"
            elif event.observation is not None:
                seq = self._observation(log, event, extras, stamp, by_id, commands, skipped)
            else:
                skipped["unknown"] += 1
                seq = None
            if seq is not None and event.id is not None:
                by_id[event.id] = seq
        fields: dict[str, Any] = {"outcome": "finished" if finished else None}
        if isinstance(wrapper, dict):
            found = wrapper.get("instance")
            instance: dict[str, Any] = found if isinstance(found, dict) else {}
            patch = (wrapper.get("test_result") or {}).get("git_patch")
            if isinstance(patch, str) and patch.strip():
                log.add_submission(patch)
                fields["outcome"] = "submitted"
            fields.update(repo=instance.get("repo"), commit_start=instance.get("base_commit"),
                          task_id=wrapper.get("instance_id") or instance.get("instance_id"))
        metadata = {"skipped": dict(skipped)} if skipped else {}
        return log.session(self.name, metadata=metadata, **fields)

    @staticmethod
    def _action(log: EventLog, event: _Event, args: dict[str, Any], stamp: Any,
                roots: list[str], commands: dict[int, str], skipped: Counter[str]) -> int | None:
        kind = event.action or ""
        role = _role(event.source)
        thought = args.get("thought")
        if kind in {"message", "finish", "think", "reject"}:
            text = args.get("content") or args.get("final_thought") or event.message or ""
            if kind == "think":
                text = thought or text
            return log.add(EventKind.MESSAGE, str(text), role=role, timestamp=stamp,
                           thought=thought if kind != "think" and thought else None)
        if thought:
            log.add(EventKind.MESSAGE, str(thought), role=role, timestamp=stamp, thought=thought)
        if kind in {"run", "run_ipython"}:
            line = str(args.get("command") or args.get("code") or "")
            seq = log.add(EventKind.COMMAND, line, role=role, timestamp=stamp, command=line,
                          tool="ipython" if kind == "run_ipython" else None)
            commands[seq] = line
            return seq
        if kind in _EDITS:
            path = str(args.get("path", ""))
            old, new = _edit_strings(event, args)
            return log.add(EventKind.EDIT, event.message or path, role=role, timestamp=stamp,
                           paths=[relative_path(path, roots)] if path else [], tool=kind,
                           old_str=old, new_str=new)
        if kind in _TOOL_COMMANDS:
            target = args.get("path") or args.get("url") or args.get("browser_actions") or ""
            return log.add(EventKind.COMMAND, str(target or event.message or ""), role=role,
                           timestamp=stamp, tool=args.get("name") or kind)
        skipped[f"action:{kind}"] += 1  # system prompts, recalls, condensations, state changes
        return None

    @staticmethod
    def _observation(log: EventLog, event: _Event, extras: dict[str, Any], stamp: Any,
                     by_id: dict[int, int], commands: dict[int, str],
                     skipped: Counter[str]) -> int | None:
        kind = event.observation or ""
        if kind in {"agent_state_changed", "null", "recall", "think", "condense", "system"}:
            skipped[f"observation:{kind}"] += 1
            return None
        cause = by_id.get(event.cause) if event.cause is not None else None
        found = extras.get("metadata")
        metadata: dict[str, Any] = found if isinstance(found, dict) else {}
        code = metadata.get("exit_code", extras.get("exit_code"))
        command = extras.get("command") if kind == "run" else None
        if command is None and cause is not None:
            command = commands.get(cause)
        return log.add_output(
            event.content if event.content is not None else (event.message or ""),
            command=command if isinstance(command, str) else None, cause=cause,
            exit_code=code if isinstance(code, int) else None,
            is_error=True if kind in _ERRORS else None, timestamp=stamp,
        )
