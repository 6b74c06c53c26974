"""The embedding cache: vectors by the key of their text (``dreamer.embeddings.key``), in a SQLite
file beside the store (``<home>/embeddings.db``, or ``DREAMER_EMBEDDING_CACHE``; ``off``
disables it), shared by the dream, the router and every process.

Each read or write opens, commits and closes its own connection, so no process forked meanwhile
(a dream's shard worker) inherits one. A damaged file is set aside with its reason and started
afresh: it holds only what can be embedded again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TypeVar

import numpy as np

from dreamer import settings

DIM = 384
"""The length of a vector (MiniLM's): a stored row of another length is embedded again."""

log = logging.getLogger(__name__)


def path() -> Path | None:
    """The cache's file (None: ``DREAMER_EMBEDDING_CACHE=off``)."""
    raw = os.environ.get("DREAMER_EMBEDDING_CACHE", "").strip()
    if raw.lower() == "off":
        return None
    if raw:
        return Path(raw).expanduser()
    return settings.home() / "embeddings.db"


@contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the cache, in one transaction, closed on leaving. Closed by hand: a
    ``sqlite3.Connection`` is in a reference cycle (its statement cache), so a dropped one stays
    open until a full collection, which a dream defers and a frozen heap never makes. A process
    forked meanwhile (a dream's shard worker) inherited SQLite's record of that open file, and
    its own connections to the cache read it as malformed (seen in a 10K next-night dream)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=30)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB)")
        with connection:
            yield connection
    finally:
        connection.close()


def load(keys: list[str]) -> dict[str, np.ndarray]:
    """The stored vectors of ``keys`` (those not stored are left out)."""
    where = path()
    if where is None or not keys or not where.exists():
        return {}

    def read(connection: sqlite3.Connection) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 900):
            chunk = keys[start:start + 900]
            rows = connection.execute(
                f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(chunk))})",
                chunk).fetchall()
            # a vector of another length (a cut write) is embedded again, and replaced
            found.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows
                         if len(v) == DIM * 4)
        return found

    return _use(where, read)


def save(vectors: dict[str, np.ndarray]) -> None:
    """Store ``vectors`` by key, in one transaction."""
    where = path()
    if where is None or not vectors:
        return
    rows = [(k, v.astype(np.float32).tobytes()) for k, v in vectors.items()]
    _use(where, lambda connection: connection.executemany(
        "INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows))


_T = TypeVar("_T")


def _use(path: Path, action: Callable[[sqlite3.Connection], _T]) -> _T:
    """``action`` on a connection to the cache at ``path``. A cache that SQLite finds damaged
    (not a database, malformed pages) is set aside with its reason and started afresh: it holds
    only what can be embedded again, and a nightly dream must not fail on it night after night.
    A cache that is only busy or locked is not damaged: that error is raised."""
    try:
        with _connected(path) as connection:
            return action(connection)
    except sqlite3.DatabaseError as exc:
        if not _damaged(path, exc):
            raise
        _set_aside(path, exc)
    with _connected(path) as connection:
        return action(connection)


def _damaged(path: Path, error: sqlite3.DatabaseError) -> bool:
    if isinstance(error, sqlite3.OperationalError):  # locked, busy, out of disk: not the file
        return False
    try:
        with closing(sqlite3.connect(path, timeout=30)) as connection:
            return connection.execute("PRAGMA quick_check").fetchall() != [("ok",)]
    except sqlite3.OperationalError:
        return False
    except sqlite3.DatabaseError:
        return True


def _set_aside(path: Path, error: sqlite3.DatabaseError) -> None:
    """Move the damaged cache (and its WAL files) beside itself, with a file saying why."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    aside = path.with_name(f"{path.name}.damaged-{stamp}-{os.getpid()}")
    for suffix in ("", "-wal", "-shm"):
        try:
            Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
        except FileNotFoundError:  # no WAL, or another process set it aside first
            pass
    Path(f"{aside}.reason").write_text(
        f"{path} was set aside at {stamp} UTC: SQLite reported {error!r} and its quick_check "
        "failed. It held cached vectors only: their texts are embedded again.\n",
        encoding="utf-8")
    log.warning("the embedding cache %s is damaged (%s): set aside as %s; its texts are "
                "embedded again", path, error, aside)
