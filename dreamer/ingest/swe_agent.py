"""SWE-agent ``.traj`` files: one session per file.

Read: ``trajectory[]`` (``thought``/``response``, ``action``, ``observation``, ``state``),
the task statement from ``history[]``, ``info`` (``submission``, ``exit_status``,
``model_stats``), and where newer versions write them, ``replay_config`` (repository, base
commit, instance id) and ``trajectory[].execution_time``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import PurePath
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.parsing import (
    EventLog,
    checked,
    content_text,
    normal_outcome,
    relative_path,
    single_object,
    swe_agent_edit_paths,
)
from dreamer.models import EventKind, Session

# `owner__repo-123.traj`, SWE-bench's instance id; the test repository's ids end in `i1`.
_INSTANCE = re.compile(r"^(?P<owner>[\w.-]+?)__(?P<name>[\w.-]+)-(?P<num>[A-Za-z]*\d+)$")
# SWE-agent's own tools (not shell programs): recorded as the command's ``tool``.
_TOOLS = {
    "open", "goto", "scroll_up", "scroll_down", "find_file", "search_dir", "search_file",
    "str_replace_editor", "filemap", "create", "edit", "insert", "append", "submit",
}


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


def _as_dict(value: Any) -> dict[str, Any]:
    """A field that versions write either as a dict or as its JSON (or Python repr) text."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{"):
        for load in (json.loads, ast.literal_eval):
            try:
                loaded = load(value)
            except (ValueError, SyntaxError):
                continue
            if isinstance(loaded, dict):
                return loaded
    return {}


def _origin(traj: _Traj, path: str) -> dict[str, str | None]:
    """Repository, base commit and task id: from ``replay_config``, else the file's name."""
    config = _as_dict(traj.replay_config)
    env = _as_dict(config.get("env")) or _as_dict(traj.environment)
    repo_cfg = _as_dict(env.get("repo"))
    url = str(repo_cfg.get("github_url") or repo_cfg.get("repo_name") or "")
    found = re.search(r"github\.com[/:]([\w.-]+/[\w.-]+?)(?:\.git)?/?$", url)
    problem = _as_dict(config.get("problem_statement"))
    task_id = problem.get("id")
    stem = PurePath(path).name.split(".")[0]
    instance = _INSTANCE.match(str(task_id or stem))
    repo = found[1] if found else (f"{instance['owner']}/{instance['name']}" if instance else None)
    if task_id is None and instance:
        task_id = stem
    commit = repo_cfg.get("base_commit")
    return {"repo": repo, "task_id": task_id, "commit_start": commit}


def _task_statement(history: list[dict[str, Any]] | None) -> str | None:
    """The first user message that is not part of a demonstration: the issue text."""
    for message in history or []:
        if message.get("role") == "user" and str(message.get("is_demo", "")).lower() != "true":
            return content_text(message.get("content"))
    return None


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
        statement = _task_statement(traj.history)
        if statement:
            log.add(EventKind.MESSAGE, statement, role="user")
        open_file: str | None = None
        submitted = False
        for step in traj.trajectory:
            state = _as_dict(step.state)
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
        if info.get("submission") and not submitted:
            log.add_submission(str(info["submission"]))  # e.g. auto-submitted on a cost limit
        outcome = normal_outcome(info.get("exit_status")) or ("submitted" if submitted else None)
        metadata = {
            "exit_status": info.get("exit_status"),
            "model_stats": _as_dict(info.get("model_stats")) or info.get("model_stats"),
            "environment": traj.environment if isinstance(traj.environment, str) else None,
            "agent_version": info.get("swe_agent_version"),
        }
        origin = _origin(traj, doc.path or ctx.source_path)
        session = log.session(
            self.name, outcome=outcome, metadata={k: v for k, v in metadata.items() if v},
            **origin,
        )
        return [session]
