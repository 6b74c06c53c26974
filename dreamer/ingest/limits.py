"""The limits ingest enforces, and the checks that hold a decoded document to them.

Every limit is checked before any value reaches an adapter or the database, so that no input,
however hostile, can crash a batch (a ``RecursionError`` in the decoder, Python's 4,300-digit
integer guard, a string PostgreSQL refuses): a file over a structural limit is quarantined with
the limit it broke and where; a value the store cannot hold is made safe (see ``values``).

| limit | default | environment variable | what happens beyond it |
| --- | --- | --- | --- |
| file size | 256 MiB | ``DREAMER_INGEST_MAX_BYTES`` | the file is skipped unread |
| nesting depth | 64 | ``DREAMER_INGEST_MAX_DEPTH`` | quarantined |
| integer digits | 64 | ``DREAMER_INGEST_MAX_INT_DIGITS`` | quarantined |
| events per session | 100,000 | ``DREAMER_INGEST_MAX_EVENTS`` | quarantined |
| characters of one event's text | 1,000,000 | ``DREAMER_INGEST_MAX_TEXT`` | cut, with a warning |
| characters of a name (repo, branch, task) | 255 | (the store's columns) | refused, warned |
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from dreamer.errors import IngestError


@dataclass(frozen=True)
class Limits:
    """The limits of one ingest run (read from the environment by ``Limits.from_env``)."""

    max_bytes: int = 256 * 1024 * 1024
    max_depth: int = 64
    max_int_digits: int = 64
    max_events: int = 100_000
    max_text: int = 1_000_000
    max_name: int = 255

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, overridden by ``DREAMER_INGEST_MAX_*`` variables where set."""
        names = {
            "max_bytes": "DREAMER_INGEST_MAX_BYTES",
            "max_depth": "DREAMER_INGEST_MAX_DEPTH",
            "max_int_digits": "DREAMER_INGEST_MAX_INT_DIGITS",
            "max_events": "DREAMER_INGEST_MAX_EVENTS",
            "max_text": "DREAMER_INGEST_MAX_TEXT",
        }
        values: dict[str, int] = {}
        for field, variable in names.items():
            raw = os.environ.get(variable)
            if raw is None:
                continue
            try:
                values[field] = int(raw)
            except ValueError as exc:
                from dreamer.errors import ConfigError

                raise ConfigError(f"{variable}={raw!r} is not a whole number") from exc
            if values[field] <= 0:
                from dreamer.errors import ConfigError

                raise ConfigError(f"{variable} must be positive, not {raw}")
        return cls(**values)


def int_parser(limits: Limits, text: str) -> Any:
    """A ``parse_int`` hook for ``json.loads`` that refuses integers over the digit limit.

    Python refuses 4,300 digits itself, with a ValueError that names no place; this one says
    which limit and where (found again in ``text``).
    """

    def parse(token: str) -> int:
        digits = len(token.lstrip("-"))
        if digits > limits.max_int_digits:
            raise IngestError(
                f"an integer of {digits} digits, over the limit of {limits.max_int_digits} "
                "(DREAMER_INGEST_MAX_INT_DIGITS)",
                _where(text, re.search(rf"-?\d{{{limits.max_int_digits + 1},}}", text)),
            )
        return int(token)

    return parse


def deep_nesting(text: str, limits: Limits) -> IngestError:
    """The error for a document nested deeper than Python's decoder can go, placed in ``text``.

    Called after the decoder raised RecursionError: the first place where the brackets open
    deeper than the limit is found by a scan that ignores brackets inside strings.
    """
    depth = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limits.max_depth:
                return _too_deep(limits, _position(text, index))
        elif char in "]}":
            depth -= 1
    return _too_deep(limits, None)


def check_structure(value: Any, limits: Limits, where: str = "") -> Any:
    """``value`` with lone surrogates replaced (no store can encode them), or IngestError when
    it is nested deeper than the limit. Walks iteratively: a deep value cannot overflow it."""
    if _needs_no_walk(value):
        return _clean_str(value) if isinstance(value, str) else value
    root: list[Any] = [value]
    # (container, key in container, value, depth, path)
    stack: list[tuple[Any, Any, Any, int, str]] = [(root, 0, value, 1, where or "document")]
    while stack:
        parent, key, item, depth, path = stack.pop()
        if isinstance(item, str):
            cleaned = _clean_str(item)
            if cleaned is not item:
                parent[key] = cleaned
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > limits.max_depth:
            raise _too_deep(limits, path)
        if isinstance(item, dict):
            if any(isinstance(k, str) and _dirty(k) for k in item):
                fixed = {_clean_str(k): v for k, v in item.items()}
                parent[key] = fixed
                item = fixed
            for name, child in item.items():
                if isinstance(child, str | dict | list):
                    stack.append((item, name, child, depth + 1, f"{path}.{name}"))
        else:
            for index, child in enumerate(item):
                if isinstance(child, str | dict | list):
                    stack.append((item, index, child, depth + 1, f"{path}[{index}]"))
    return root[0]


def _needs_no_walk(value: Any) -> bool:
    return not isinstance(value, dict | list)


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _dirty(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


def _clean_str(text: str) -> str:
    """``text`` with lone surrogates (``"\\ud800"`` in JSON) as U+FFFD; the same object if none."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def _too_deep(limits: Limits, where: str | None) -> IngestError:
    return IngestError(
        f"nested deeper than the limit of {limits.max_depth} levels (DREAMER_INGEST_MAX_DEPTH)",
        where,
    )


def _where(text: str, match: re.Match[str] | None) -> str | None:
    return _position(text, match.start()) if match else None


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"
