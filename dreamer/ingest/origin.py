"""Where and when a session ran, when its file does not say it outright.

Adapters read what their format states (SWE-agent's ``info`` and ``replay_config``, Claude
Code's ``timestamp`` and ``cwd``, ...). For what is still missing, ``complete_origin`` looks at
what the session itself shows, in this order, and records which source it used in
``metadata["time_source"]`` / ``metadata["repo_source"]``:

- **time**: the first ``git log`` or ``date`` output among the observations; else the file's
  modification time, which is never earlier than the session (a file is written while or after
  its session runs), stated as the source ``file-mtime`` with a ``no_time`` warning;
- **repository**: the task id when it is a SWE-bench or SWE-smith instance id
  (``owner__repo-123``, ``owner__repo.1a2b3c4d.pr_56``); ``git remote`` output; the working
  directory the observations show (``(Current directory: /shop-orders)``, ``pwd``, ``cd``);
  else a ``no_repo`` warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

from dreamer.ingest.values import IngestWarning, plausible_time, repo_name_problem
from dreamer.models import EventKind, Session

# SWE-bench: ``astropy__astropy-12907``; the SWE-agent test repository: ``...-i1``.
_SWE_BENCH = re.compile(r"^(?P<owner>[\w.-]+?)__(?P<name>[\w.-]+?)-(?P<num>[A-Za-z]*\d+)$")
# SWE-smith: ``getmoto__moto.694ce1f4.pr_5420``, ``pandas-dev__pandas.95280573.lm_rewrite__x``.
_SWE_SMITH = re.compile(
    r"^(?P<owner>[\w-][\w.-]*?)__(?P<name>[\w-][\w-]*(?:\.[\w-]+)*?)\.(?P<commit>[0-9a-f]{7,40})"
    r"\.(?P<rest>[\w.-]+)$"
)
_REMOTE = re.compile(
    r"(?:github\.com|gitlab\.com|bitbucket\.org)[/:](?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?/?"
    r"(?:\s|$)"
)
# Working directories that name no repository: containers' and agents' defaults.
_GENERIC_DIRS = {"testbed", "workspace", "repo", "app", "src", "code", "project", "work",
                 "root", "home", "tmp", "", "/"}
_CURRENT_DIR = re.compile(r"\(Current directory: (?P<dir>/[^)\n]*)\)")
_GIT_DATE = re.compile(r"^(?:Date|AuthorDate|CommitDate):\s+(?P<date>.+?)\s*$", re.MULTILINE)
_DATE_OUTPUT = re.compile(
    r"^\s*(?P<date>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|"
    r"Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2} (?:[A-Z]{2,5}|[+-]\d{4}) \d{4})\s*$", re.MULTILINE
)
_ISO = re.compile(r"^\s*(?P<date>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?"
                  r"(?:Z|[+-]\d{2}:?\d{2}))\s*$", re.MULTILINE)
_ZONES = {"UTC": "+0000", "GMT": "+0000", "Z": "+0000"}


@dataclass(frozen=True)
class InstanceOrigin:
    """What an instance id says: the repository, and (SWE-smith) the commit."""

    repo: str
    commit: str | None = None


def instance_origin(task_id: str | None) -> InstanceOrigin | None:
    """The repository (and commit) a SWE-bench or SWE-smith instance id names, or None."""
    if not task_id:
        return None
    smith = _SWE_SMITH.match(task_id)
    if smith:
        return InstanceOrigin(f"{smith['owner']}/{smith['name']}", smith["commit"])
    bench = _SWE_BENCH.match(task_id)
    if bench:
        return InstanceOrigin(f"{bench['owner']}/{bench['name']}")
    return None


def repo_from_url(url: str | None) -> str | None:
    """``owner/name`` from a GitHub, GitLab or Bitbucket URL (https or ssh), or None."""
    if not url:
        return None
    found = _REMOTE.search(url.strip() + " ")
    return found["repo"] if found else None


def repo_from_dir(path: str | None) -> str | None:
    """A repository named by a working directory: its last part, unless it is a container's
    default (``/testbed``, ``/workspace``); an instance-id folder gives ``owner/name``."""
    if not path:
        return None
    name = PurePosixPath(path.strip().rstrip("/")).name
    if name.lower() in _GENERIC_DIRS or name.startswith("."):
        return None
    found = instance_origin(name)
    if found:
        return found.repo
    return name if repo_name_problem(name) is None else None


def parse_shown_time(text: str) -> datetime | None:
    """A time as ``git log`` (``Date:   Tue Mar 5 14:22:01 2024 +0100``), ``date`` (``Tue Mar  5
    13:22:01 UTC 2024``) or ``date -I...``/``--format=%cI`` print it; None when there is none."""
    for found in _GIT_DATE.finditer(text):
        moment = _strptime(found["date"], ("%a %b %d %H:%M:%S %Y %z", "%Y-%m-%d %H:%M:%S %z"))
        if moment is None:
            moment = _iso(found["date"])
        if moment is not None:
            return moment
    for found in _DATE_OUTPUT.finditer(text):
        parts = found["date"].split()
        zone = _ZONES.get(parts[4], parts[4] if re.match(r"[+-]\d{4}$", parts[4]) else None)
        if zone is None:
            continue  # a zone abbreviation other than UTC is ambiguous (CST, IST)
        moment = _strptime(" ".join([*parts[:4], zone, parts[5]]), ("%a %b %d %H:%M:%S %z %Y",))
        if moment is not None:
            return moment
    for found in _ISO.finditer(text):
        moment = _iso(found["date"])
        if moment is not None:
            return moment
    return None


def _strptime(text: str, formats: tuple[str, ...]) -> datetime | None:
    for fmt in formats:
        try:
            return datetime.strptime(" ".join(text.split()), fmt).astimezone(UTC)
        except ValueError:
            continue
    return None


def _iso(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo else None


def shown_time(session: Session) -> tuple[datetime, str] | None:
    """The first time a ``git log`` or ``date`` command's output shows: (time, source)."""
    commands = {e.seq: e.data.get("command") or e.text for e in session.events
                if e.kind is EventKind.COMMAND}
    for event in session.events:
        if event.kind not in (EventKind.OBSERVATION, EventKind.TEST_RESULT):
            continue
        command = str(commands.get(event.data.get("cause", -1), "") or "")
        if re.search(r"\bgit\s+(?:log|show)\b", command):
            source = "git-log"
        elif re.search(r"(?:^|[;&|]\s*)date\b", command.strip()):
            source = "date"
        else:
            continue
        moment = parse_shown_time(event.text)
        if moment is not None and plausible_time(moment):
            return moment, source
    return None


def shown_repo(session: Session) -> tuple[str, str] | None:
    """The repository the session's own output shows: (repo, source)."""
    commands = {e.seq: str(e.data.get("command") or e.text) for e in session.events
                if e.kind is EventKind.COMMAND}
    for event in session.events:
        if event.kind is not EventKind.OBSERVATION:
            continue
        command = commands.get(event.data.get("cause", -1), "")
        if re.search(r"\bgit\s+(?:remote|config)\b", command):
            found = repo_from_url(event.text)
            if found:
                return found, "git-remote"
    cwd = session.metadata.get("cwd")
    directories: list[str] = [cwd] if isinstance(cwd, str) else []
    for event in session.events:
        if event.kind in (EventKind.OBSERVATION, EventKind.TEST_RESULT):
            directories += [m["dir"] for m in _CURRENT_DIR.finditer(event.text)]
            command = commands.get(event.data.get("cause", -1), "")
            if command.strip() == "pwd" and event.text.strip().startswith("/"):
                directories.append(event.text.strip().splitlines()[0])
    for directory in directories:
        found = repo_from_dir(directory)
        if found:
            return found, "working-directory"
    return None


def complete_origin(
    session: Session, mtime: datetime | None
) -> tuple[Session, list[IngestWarning]]:
    """``session`` with a time and a repository wherever its events show them, and a warning
    for each that is still unknown (see the module docstring for the order)."""
    metadata: dict[str, Any] = dict(session.metadata)
    update: dict[str, Any] = {}
    warnings: list[IngestWarning] = []
    if session.started_at is None and session.ended_at is None:
        found = shown_time(session)
        if found is not None:
            update["started_at"] = found[0]
            metadata.setdefault("time_source", found[1])
        elif mtime is not None and plausible_time(mtime):
            update["started_at"] = update["ended_at"] = mtime
            metadata["time_source"] = "file-mtime"
            warnings.append(IngestWarning(
                "no_time", "no time in the file or its output; using the file's modification "
                f"time {mtime.isoformat(timespec='seconds')} (never earlier than the session)"))
        else:
            warnings.append(IngestWarning("no_time", "no time in the file or its output"))
    if session.repo is None:
        instance = instance_origin(session.task_id)
        shown = shown_repo(session)
        if instance is not None:
            update["repo"] = instance.repo
            metadata.setdefault("repo_source", "task-id")
        elif shown is not None:
            update["repo"] = shown[0]
            metadata.setdefault("repo_source", shown[1])
        else:
            warnings.append(IngestWarning(
                "no_repo", "no repository in the file, its task id or its output; "
                "pass --repo to name it"))
    if not session.events:
        warnings.append(IngestWarning("empty_session", "the session has no events"))
    if update or metadata != session.metadata:
        session = session.model_copy(update=update | {"metadata": metadata})
    return session, warnings


def with_native_id(session: Session) -> Session:
    """``session`` with ``metadata["native_id"]``: the id its agent gave it, by which a later,
    longer copy of the same log is recognised as a new version (``dreamer.store.versions``).

    Claude Code's ``sessionId``; OpenHands' session id where the file carries one; for
    SWE-agent and mini-swe-agent, the task id and the file's name (a trajectory is rewritten in
    place as the run goes); dreamer's format, ``metadata.session_id``.
    """
    meta = session.metadata
    native: str | None = None
    if session.source_format == "claude-code" and meta.get("session_id"):
        native = f"claude-code:{meta['session_id']}"
    elif session.source_format in ("openhands", "dreamer") and meta.get("session_id"):
        native = f"{session.source_format}:{meta['session_id']}"
    elif session.source_format in ("swe-agent", "mini-swe-agent") and session.source_path:
        name = PurePosixPath(session.source_path.replace("\\", "/")).name
        native = f"{session.source_format}:{session.task_id or ''}:{name}:{session.ordinal}"
    if native is None or not isinstance(native, str):
        return session
    return session.model_copy(update={"metadata": {**meta, "native_id": native[:255]}})
