"""Where dreamer keeps its state: everything under one project directory by default.

``DREAMER_HOME`` moves the whole directory (default ``./.dreamer``); ``DREAMER_DATABASE_URL``
points the store at any SQLAlchemy URL (PostgreSQL at scale).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, ParamSpec

from dreamer.errors import ConfigError

TEXTS_CACHED = 1 << 18
"""Distinct texts each per-text cache keeps (token counts, code names, polarity, settings):
more than the texts of a 100K bank, because a stage reads every memory in turn, and an LRU cache
smaller than one pass keeps nothing for the next (at 65,536 entries a 100K dream re-read every
text in every stage)."""

_P = ParamSpec("_P")


def names_cache(read: Callable[_P, frozenset[str]]) -> Callable[_P, frozenset[str]]:
    """``read`` (the names a text states) cached for ``TEXTS_CACHED`` texts, each kept as a
    tuple of interned strings and handed out as a frozenset: a frozenset of 5 to 18 names takes
    728 bytes, a tuple of ten 120, and a name met in many texts (a path) is kept once. A 100K
    dream keeps about a million such entries."""

    def keep(*args: Any, **kwargs: Any) -> tuple[str, ...]:
        return tuple(sys.intern(name) for name in read(*args, **kwargs))

    kept: Callable[..., tuple[str, ...]] = lru_cache(maxsize=TEXTS_CACHED)(keep)

    @wraps(read)
    def cached(*args: _P.args, **kwargs: _P.kwargs) -> frozenset[str]:
        return frozenset(kept(*args, **kwargs))

    return cached


def home() -> Path:
    """The project directory for dreamer's state; created on first use."""
    path = Path(os.environ.get("DREAMER_HOME", ".dreamer")).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    """The store's SQLAlchemy URL: ``DREAMER_DATABASE_URL`` or a SQLite file under ``home()``."""
    url = os.environ.get("DREAMER_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{home() / 'dreamer.db'}"


def mlflow_tracking_uri() -> str:
    """``MLFLOW_TRACKING_URI`` or an MLflow SQLite store under ``home()``."""
    return os.environ.get("MLFLOW_TRACKING_URI") or f"sqlite:///{home() / 'mlflow.db'}"


def chroma_path() -> Path:
    """The persistent Chroma directory used by the embedded vector store."""
    return home() / "chroma"


def choice(variable: str, options: tuple[str, ...]) -> str:
    """The value of ``variable``, one of ``options`` (lower case; unset or empty: the first),
    or a ConfigError naming what it may be."""
    raw = os.environ.get(variable, "").strip().lower() or options[0]
    if raw not in options:
        raise ConfigError(f"{variable} must be {', '.join(options[:-1])} or {options[-1]}, "
                          f"not {raw!r}")
    return raw


def count(variable: str) -> int | None:
    """The whole number >= 1 that ``variable`` sets (None: unset or empty), or a ConfigError
    naming it."""
    raw = os.environ.get(variable, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ConfigError(f"{variable} must be a whole number >= 1, not {raw!r}")
    return value
