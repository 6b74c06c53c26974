"""Claude Code session logs (JSONL): one Session per ``sessionId`` in the file.

Records form a tree through ``parentUuid``; they are put in order by walking it from its roots,
siblings by timestamp. Read: ``user``/``assistant`` records' ``message.content`` (a string or
parts: ``text``, ``thinking``, ``tool_use``, ``tool_result``), ``system`` records, ``summary``
records (into metadata), ``cwd``, ``gitBranch``, ``version``, ``isSidechain``. Other record and
part types are counted in ``Session.metadata["skipped"]``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr

from dreamer.errors import IngestError
from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import EventLog, checked, content_text, records, relative_path, to_utc
from dreamer.models import EventKind, Session

_EDIT_TOOLS = {"Edit", "MultiEdit", "Write", "NotebookEdit"}
_REJECTED = re.compile(r"doesn't want to (?:proceed|take this action)|tool use was rejected")
_EXIT_CODE = re.compile(r"^Exit code (-?\d+)\b")


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: StrictStr | None = None
    uuid: StrictStr | None = None
    parentUuid: StrictStr | None = None  # noqa: N815 - the format's own field names
    sessionId: StrictStr | None = None  # noqa: N815
    timestamp: StrictStr | None = None
    isSidechain: StrictBool | None = None  # noqa: N815
    cwd: StrictStr | None = None
    gitBranch: StrictStr | None = None  # noqa: N815
    version: StrictStr | None = None
    message: dict[str, Any] | None = None


def _tree_order(items: list[tuple[int, _Record]]) -> tuple[list[_Record], int]:
    """Records in conversation order (depth first from the roots) and the number of forks."""
    uuids = {record.uuid for _, record in items if record.uuid}
    children: dict[str | None, list[tuple[int, _Record]]] = defaultdict(list)
    for index, record in items:
        parent = record.parentUuid if record.parentUuid in uuids else None
        children[parent].append((index, record))

    def key(item: tuple[int, _Record]) -> tuple[datetime, int]:
        stamp = to_utc(item[1].timestamp)
        return (stamp or datetime.max.replace(tzinfo=UTC), item[0])

    ordered: list[_Record] = []
    stack = sorted(children[None], key=key, reverse=True)
    while stack:
        _, record = stack.pop()
        ordered.append(record)
        if record.uuid:
            stack.extend(sorted(children.get(record.uuid, []), key=key, reverse=True))
    forks = sum(1 for parent, kids in children.items() if parent is not None and len(kids) > 1)
    return ordered, forks


def _result_diff(result: dict[str, Any], path: str | None) -> str | None:
    """A unified diff from an Edit/Write ``toolUseResult``: its ``structuredPatch`` hunks, or a
    created file's ``content`` as all-added lines."""
    name = path or str(result.get("filePath") or "file")
    hunks = result.get("structuredPatch")
    body: list[str] = []
    if isinstance(hunks, list) and hunks:
        for hunk in hunks:
            if not isinstance(hunk, dict) or not isinstance(hunk.get("lines"), list):
                continue
            numbers = [hunk.get(k) for k in ("oldStart", "oldLines", "newStart", "newLines")]
            if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                continue
            body.append("@@ -{},{} +{},{} @@".format(*numbers))
            body += [str(line) for line in hunk["lines"]]
        old = f"a/{name}"
    elif result.get("type") == "create" and isinstance(result.get("content"), str):
        lines = result["content"].splitlines()
        body = [f"@@ -0,0 +1,{len(lines)} @@", *(f"+{line}" for line in lines)]
        old = "/dev/null"
    if not body:
        return None
    return "\n".join([f"--- {old}", f"+++ b/{name}", *body]) + "\n"


def _tool_text(name: str, tool_input: dict[str, Any]) -> str:
    if name == "Bash":
        return str(tool_input.get("command", ""))
    return json.dumps(tool_input, ensure_ascii=False, sort_keys=True)


class _SessionBuilder:
    """Turns one session's ordered records into events."""

    def __init__(self, log: EventLog) -> None:
        self.log = log
        self.tool_seqs: dict[str, tuple[int, str, str]] = {}  # tool_use id -> (seq, name, text)
        self.skipped: Counter[str] = Counter()
        self.sidechain: list[int] = []
        self.rejected: list[int] = []
        self.cwd: str | None = None

    def add(self, record: _Record) -> None:
        start = len(self.log.events)
        stamp = to_utc(record.timestamp)
        self.cwd = record.cwd or self.cwd
        message = record.message or {}
        content = message.get("content")
        if record.type == "system":
            text = (record.model_extra or {}).get("content") or content_text(content)
            self.log.add(EventKind.MESSAGE, str(text), role="system", timestamp=stamp)
        elif isinstance(content, str):
            self.log.add(EventKind.MESSAGE, content, role=record.type, timestamp=stamp)
        elif isinstance(content, list):
            result = (record.model_extra or {}).get("toolUseResult")
            for part in content:
                self._part(part, record.type or "user", stamp, result)
        else:
            self.skipped[f"{record.type}:no-content"] += 1
        if record.isSidechain:
            self.sidechain.extend(range(start, len(self.log.events)))

    def _part(self, part: Any, role: str, stamp: datetime | None, result: Any = None) -> None:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" or isinstance(part, str):
            self.log.add(EventKind.MESSAGE, content_text([part]), role=role, timestamp=stamp)
        elif kind == "thinking":
            thought = str(part.get("thinking", ""))
            self.log.add(EventKind.MESSAGE, thought, role=role, timestamp=stamp, thought=thought)
        elif kind == "tool_use":
            self._tool_use(part, stamp)
        elif kind == "tool_result":
            self._tool_result(part, stamp)
            self._edit_diff(part, result)
        else:
            self.skipped[f"part:{kind}"] += 1

    def _tool_use(self, part: dict[str, Any], stamp: datetime | None) -> None:
        name = str(part.get("name", ""))
        raw_input = part.get("input")
        tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
        text = _tool_text(name, tool_input)
        if name in _EDIT_TOOLS:
            path = tool_input.get("file_path") or tool_input.get("notebook_path")
            paths = [relative_path(str(path), [self.cwd or ""])] if path else []
            seq = self.log.add(EventKind.EDIT, text, role="assistant", timestamp=stamp,
                               paths=paths, tool=name)
        elif name == "Bash":
            seq = self.log.add(EventKind.COMMAND, text, role="assistant", timestamp=stamp,
                               command=text)
        else:
            seq = self.log.add(EventKind.COMMAND, text, role="assistant", timestamp=stamp,
                               tool=name)
        self.tool_seqs[str(part.get("id"))] = (seq, name, text)

    def _edit_diff(self, part: dict[str, Any], result: Any) -> None:
        """Give an Edit/Write event the diff its record's ``toolUseResult`` reports."""
        cause = self.tool_seqs.get(str(part.get("tool_use_id")))
        if cause is None or cause[1] not in _EDIT_TOOLS or not isinstance(result, dict):
            return
        event = self.log.events[cause[0]]
        paths = event.data.get("paths") or []
        diff = _result_diff(result, paths[0] if paths else None)
        if diff:
            self.log.events[cause[0]] = event.model_copy(update={"data": {**event.data,
                                                                          "diff": diff}})

    def _tool_result(self, part: dict[str, Any], stamp: datetime | None) -> None:
        cause = self.tool_seqs.get(str(part.get("tool_use_id")))
        output = content_text(part.get("content"))
        is_error = part.get("is_error") is True
        code = _EXIT_CODE.match(output) if cause and cause[1] == "Bash" else None
        if is_error and cause and _REJECTED.search(output):
            self.rejected.append(cause[0])
        self.log.add_output(
            output, command=cause[2] if cause and cause[1] == "Bash" else None,
            cause=cause[0] if cause else None, exit_code=int(code[1]) if code else None,
            is_error=is_error or None, role="tool", timestamp=stamp,
        )


@ADAPTERS.register("claude-code")
class ClaudeCodeAdapter(TrajectoryAdapter):
    """Claude Code ``~/.claude/projects/*/<session>.jsonl`` logs."""

    name = "claude-code"

    def sniff(self, doc: Document) -> float:
        items = [r for r, _ in records(doc) if isinstance(r, dict)]
        sessions = [r for r in items if "sessionId" in r and "uuid" in r and "type" in r]
        if sessions and any(r.get("type") in {"user", "assistant"} for r in sessions):
            return 0.95
        if items and all(r.get("type") == "summary" and "leafUuid" in r for r in items):
            return 0.6
        return 0.0

    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]:
        grouped: dict[str, list[tuple[int, _Record]]] = {}
        summaries: list[dict[str, Any]] = []
        loose: Counter[str] = Counter()
        seen: set[str] = set()
        for index, (raw, where) in enumerate(records(doc)):
            if not isinstance(raw, dict):
                raise IngestError("a record must be a JSON object", where)
            record = checked(_Record, raw, where)
            if record.type == "summary":
                summaries.append(raw)
            elif record.sessionId is None:
                loose[str(record.type)] += 1
            elif record.uuid is None or record.uuid not in seen:  # resumed logs repeat records
                grouped.setdefault(record.sessionId, []).append((index, record))
                seen.add(record.uuid or "")
        if not grouped:
            raise IngestError("no user or assistant records with a sessionId", "document")
        return [
            self._session(session_id, items, ctx, ordinal, summaries, loose if ordinal == 0 else {})
            for ordinal, (session_id, items) in enumerate(grouped.items())
        ]

    def _session(self, session_id: str, items: list[tuple[int, _Record]], ctx: IngestContext,
                 ordinal: int, summaries: list[dict[str, Any]], loose: Any) -> Session:
        ordered, forks = _tree_order(items)
        builder = _SessionBuilder(EventLog(ctx, ordinal))
        skipped: Counter[str] = Counter(loose)
        for record in ordered:
            if record.type in {"user", "assistant", "system"}:
                builder.add(record)
            else:
                skipped[str(record.type)] += 1
        skipped.update(builder.skipped)
        uuids = {record.uuid for record in ordered}
        titles = [s.get("summary") for s in summaries if s.get("leafUuid") in uuids]
        branches = [r.gitBranch for r in ordered if r.gitBranch]
        cwd = builder.cwd
        metadata = {
            "session_id": session_id,
            "cwd": cwd,
            "version": next((r.version for r in ordered if r.version), None),
            "summaries": titles or ([s.get("summary") for s in summaries] if ordinal == 0 else []),
            "sidechain_seqs": builder.sidechain,
            "rejected_tool_calls": builder.rejected,
            "forks": forks,
            "skipped": dict(skipped),
        }
        return builder.log.session(
            self.name, branch=branches[-1] if branches else None,
            metadata={k: v for k, v in metadata.items() if v},
        )
