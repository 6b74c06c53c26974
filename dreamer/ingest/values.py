"""Values made safe for the store: a normalised session is checked before it is written.

What a trajectory says is data, and data can be hostile: a repository name of 100,000
characters, a NUL inside an edit path, ``../../etc/passwd`` as a file the agent "edited", a
timestamp in the year 2508. ``safe_session`` returns the session with every such value refused
or repaired, and one ``IngestWarning`` for each, so nothing is silently changed: names and
paths that break the rules are left out (the event's text keeps what was written), text is repaired
(NUL and unpaired surrogates become U+FFFD; text over the limit is cut), implausible times are
dropped. A session over the event limit is refused whole (``IngestError``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dreamer.errors import IngestError
from dreamer.ingest.limits import Limits
from dreamer.models import Event, Session

EARLIEST = datetime(1990, 1, 1, tzinfo=UTC)
"""No agent session is older than this: an earlier time is a misread number."""
FUTURE_SLACK = timedelta(days=2)
"""How far past now a clock may be wrong before its time is refused."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_UNSAFE_TEXT = re.compile(r"[\x00\ud800-\udfff]")
_ROLE_WIDTH = 32
_WIDTHS = {"repo": 255, "branch": 255, "task_id": 255, "commit_start": 64, "commit_end": 64,
           "outcome": 64}


@dataclass(frozen=True)
class IngestWarning:
    """Something ingest refused or repaired in one session, said plainly."""

    code: str
    """``no_time``, ``no_repo``, ``empty_session``, ``refused_name``, ``refused_path``,
    ``implausible_time``, ``text_cut``, ``text_repaired``, ``refused_role``, ..."""
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def repo_name_problem(name: str, width: int = 255) -> str | None:
    """Why ``name`` cannot be a repository name, or None when it can.

    A repository name is ``owner/name`` or ``name`` (a local path's last part): printable, no
    spaces, no ``..`` part, not absolute, not a home path, at most ``width`` characters.
    """
    if not name.strip():
        return "it is empty"
    if len(name) > width:
        return f"it is {len(name)} characters long (the limit is {width})"
    if _CONTROL.search(name) or _UNSAFE_TEXT.search(name):
        return "it holds a control character (NUL, newline, ...)"
    if name.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", name):
        return "it is an absolute or home path"
    if any(part in {"..", "."} for part in re.split(r"[\\/]", name)):
        return "it has a '..' or '.' part"
    if re.search(r"\s", name):
        return "it holds whitespace"
    return None


def repo_path_problem(path: str) -> str | None:
    """Why ``path`` cannot be stored as a repository-relative file path, or None."""
    if not path or not path.strip():
        return "it is empty"
    if _CONTROL.search(path) or _UNSAFE_TEXT.search(path):
        return "it holds a control character"
    if len(path) > 4096:
        return f"it is {len(path)} characters long"
    if path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        return "it is absolute (outside the repository)"
    if ".." in re.split(r"[\\/]", path):
        return "it climbs out of the repository ('..')"
    return None


def plausible_time(moment: datetime | None, now: datetime | None = None) -> bool:
    """Whether ``moment`` can be when a session ran: after 1990, not past tomorrow."""
    if moment is None:
        return True
    now = now or datetime.now(UTC)
    return EARLIEST <= moment <= now + FUTURE_SLACK


def safe_session(session: Session, limits: Limits) -> tuple[Session, list[IngestWarning]]:
    """``session`` with its values made safe for the store, and what was changed."""
    if len(session.events) > limits.max_events:
        raise IngestError(
            f"session {session.ordinal} has {len(session.events)} events, over the limit of "
            f"{limits.max_events} (DREAMER_INGEST_MAX_EVENTS)", f"session {session.ordinal}"
        )
    warnings: list[IngestWarning] = []
    update: dict[str, Any] = {}
    for field, width in _WIDTHS.items():
        value = getattr(session, field)
        if value is None:
            continue
        problem = (repo_name_problem(value, width) if field == "repo"
                   else _name_problem(value, width))
        if problem:
            update[field] = None
            warnings.append(
                IngestWarning("refused_name", f"{field} {_shown(value)} refused: {problem}"))
    now = datetime.now(UTC)
    for field in ("started_at", "ended_at"):
        value = getattr(session, field)
        if not plausible_time(value, now):
            update[field] = None
            warnings.append(IngestWarning(
                "implausible_time",
                f"{field} {value} refused: not between {EARLIEST.year} and now"))
    events, counts = _safe_events(session.events, limits, now)
    warnings += [IngestWarning(code, f"{n} event(s): {_EVENT_NOTES[code]}")
                 for code, n in sorted(counts.items())]
    metadata = _safe_json(session.metadata)
    update["events"] = events
    update["metadata"] = metadata
    return session.model_copy(update=update), warnings


_EVENT_NOTES = {
    "text_cut": "text over the limit was cut (the verbatim file keeps it)",
    "text_repaired": "NUL or unpaired surrogate characters became U+FFFD",
    "refused_path": "file paths outside the repository (absolute, '..', control characters) "
                    "were left out of data.paths",
    "refused_role": "a role that is not a short name was left out",
    "implausible_time": "timestamps before 1990 or in the future were left out",
}


def _safe_events(events: tuple[Event, ...], limits: Limits,
                 now: datetime) -> tuple[tuple[Event, ...], dict[str, int]]:
    counts: dict[str, int] = {}

    def note(code: str) -> None:
        counts[code] = counts.get(code, 0) + 1

    out: list[Event] = []
    for event in events:
        update: dict[str, Any] = {}
        text = event.text
        if _UNSAFE_TEXT.search(text):
            text = _UNSAFE_TEXT.sub("\ufffd", text)
            note("text_repaired")
        if len(text) > limits.max_text:
            cut = len(text) - limits.max_text
            text = text[: limits.max_text] + f"\n[… {cut} characters cut at ingest]"
            note("text_cut")
        if text is not event.text:
            update["text"] = text
        if event.role is not None and (len(event.role) > _ROLE_WIDTH
                                       or _CONTROL.search(event.role)
                                       or _UNSAFE_TEXT.search(event.role)):
            update["role"] = None
            note("refused_role")
        if not plausible_time(event.timestamp, now):
            update["timestamp"] = None
            note("implausible_time")
        data = _safe_json(event.data)
        paths = data.get("paths")
        if isinstance(paths, list):
            kept = [p for p in paths if isinstance(p, str) and repo_path_problem(p) is None]
            if len(kept) != len(paths):
                note("refused_path")
                data["paths"] = kept
        if data != event.data:
            update["data"] = data
        out.append(event.model_copy(update=update) if update else event)
    return tuple(out), counts


def _safe_json(value: Any) -> Any:
    """A JSON value with NUL and unpaired surrogates replaced and non-finite numbers as None
    (PostgreSQL's JSON refuses ``Infinity`` and ``\\u0000`` in text)."""
    if isinstance(value, str):
        return _UNSAFE_TEXT.sub("\ufffd", value) if _UNSAFE_TEXT.search(value) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {_safe_json(str(k)): _safe_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_safe_json(v) for v in value]
    return value


def _name_problem(value: str, width: int) -> str | None:
    if len(value) > width:
        return f"it is {len(value)} characters long (the limit is {width})"
    if _CONTROL.search(value) or _UNSAFE_TEXT.search(value):
        return "it holds a control character (NUL, newline, ...)"
    if not value.strip():
        return "it is empty"
    return None


def _shown(value: str) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "...'"
