"""Secrets out of normalised events: redaction at ingest.

A key printed by ``cat .env`` is evidence that a key was there, not something to keep in the
store's events, where every later step (extraction, a language model, ``dreamer show``) would
read it. Every string of a session's events and metadata goes through the same redaction as
memories (``dreamer.extract.secrets``: detect-secrets' detectors plus shell assignments, flags
and bearer headers); each secret becomes a typed placeholder (``<REDACTED:AWS_KEY>``). The
verbatim file stays in the evidence store unchanged, as evidence; ``dreamer show session
--raw`` reads it back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from dreamer.extract.secrets import redact
from dreamer.models import Event, Session

# Keys whose values are never free text and never secrets: ids, numbers, test outcomes.
_SKIPPED_KEYS = frozenset({"cause", "exit_code", "tests", "summary", "line", "seq",
                           "sidechain_seqs", "rejected_tool_calls", "forks", "event_count"})


def redact_session(session: Session) -> Session:
    """``session`` with secrets replaced in every event's text and data and in its metadata;
    ``metadata["redacted"]`` counts what was replaced, by type."""
    found: Counter[str] = Counter()
    events = tuple(_event(event, found) for event in session.events)
    metadata = _value(session.metadata, found)
    if found:
        metadata["redacted"] = dict(sorted(found.items()))
    if not found:
        return session
    return session.model_copy(update={"events": events, "metadata": metadata})


def _event(event: Event, found: Counter[str]) -> Event:
    text = _text(event.text, found)
    data = _value(event.data, found)
    if text is event.text and data == event.data:
        return event
    return event.model_copy(update={"text": text, "data": data})


def _text(text: str, found: Counter[str]) -> str:
    if not text:
        return text
    result = redact(text)
    if not result.found:
        return text
    found.update(result.found)
    return result.text


def _value(value: Any, found: Counter[str]) -> Any:
    if isinstance(value, str):
        return _text(value, found)
    if isinstance(value, dict):
        return {k: (v if k in _SKIPPED_KEYS else _value(v, found)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_value(v, found) for v in value]
    return value
