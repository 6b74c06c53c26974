"""Reading stored sessions back for people: what is missing in each, and its unredacted events.

``session_problems`` lists why a session may be silently useless downstream: no time (``as_of``
filters drop memories without one), no repository (its memories go to the ``*`` bank), and
whatever ingest refused or repaired in it (``metadata["warnings"]``). ``unredacted`` reads a
session's events again from its verbatim file, for ``dreamer show session --raw``.
"""

from __future__ import annotations

from typing import Any

from dreamer.errors import IngestError, NotFoundError
from dreamer.models import Session
from dreamer.store import Store


def session_problems(session: Session) -> list[dict[str, str]]:
    """The session's warnings, plus ``no_time`` / ``no_repo`` when it has none (sessions
    stored before ingest recorded warnings)."""
    found: list[dict[str, str]] = [dict(w) for w in session.metadata.get("warnings", ())
                                   if isinstance(w, dict)]
    codes = {w.get("code") for w in found}
    if session.started_at is None and session.ended_at is None and "no_time" not in codes:
        found.append({"code": "no_time", "message": "the session has no time"})
    if session.repo is None and "no_repo" not in codes:
        found.append({"code": "no_repo", "message": "the session has no repository"})
    return found


def unredacted(store: Store, session: Session) -> Session:
    """``session`` with the events its verbatim file holds, secrets included.

    The file is parsed again by the adapter that read it first; the values ingest made safe
    for the store (NUL, over-long text) are made safe again, nothing else is changed.
    """
    import dreamer.ingest.adapters  # noqa: F401  (registers every adapter)
    from dreamer.ingest.base import ADAPTERS, IngestContext
    from dreamer.ingest.driver import decode
    from dreamer.ingest.limits import Limits
    from dreamer.ingest.values import safe_session

    sha = _latest_file(store, session)
    data = store.evidence.raw(sha)
    context = IngestContext(raw_sha256=sha, source_path=session.source_path or "")
    try:
        parsed = ADAPTERS.get(session.source_format)().parse(
            decode(data, session.source_path or "", Limits.from_env()), context)
    except (IngestError, KeyError) as exc:
        raise IngestError(f"the verbatim file {sha} cannot be read again: {exc}") from exc
    ordinal = _ordinal(store, session, sha)
    if ordinal >= len(parsed):
        raise NotFoundError(f"the verbatim file {sha} holds no session {ordinal}")
    safe, _ = safe_session(parsed[ordinal], Limits.from_env())
    events = tuple(e.model_copy(update={"session_id": session.id}) for e in safe.events)
    return session.model_copy(update={"events": events})


def _latest_file(store: Store, session: Session) -> str:
    versions: list[Any] = session.metadata.get("versions") or []
    return str(versions[-1]["sha256"]) if versions else session.raw_sha256


def _ordinal(store: Store, session: Session, sha: str) -> int:
    versions: list[Any] = session.metadata.get("versions") or []
    for version in versions:
        if version.get("sha256") == sha:
            return int(version.get("ordinal", session.ordinal))
    return session.ordinal
