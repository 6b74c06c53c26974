"""dreamer's store: append-only evidence, immutable bank versions and their aliases.

``open_store()`` connects to ``settings.database_url()`` (a SQLite file under ``.dreamer/`` by
default, any SQLAlchemy URL through ``DREAMER_DATABASE_URL``) and brings its schema up to date
with the Alembic migrations in ``migrations/``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from dreamer import settings
from dreamer.errors import StoreError
from dreamer.store.banks import BankStore
from dreamer.store.evidence import AddResult, EvidenceStore, IngestionRecord
from dreamer.store.locks import LockHeldError, LockStore
from dreamer.store.migrate import upgrade
from dreamer.store.watermarks import WatermarkStore

__all__ = [
    "AddResult", "BankStore", "EvidenceStore", "IngestionRecord", "LockHeldError", "LockStore",
    "Store", "open_store",
]


@dataclass
class Store:
    """The store's repositories over one database."""

    engine: Engine
    sessions: sessionmaker[DbSession]
    evidence: EvidenceStore
    banks: BankStore
    locks: LockStore
    watermarks: WatermarkStore

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()


_migrated: set[str] = set()
_migration_lock = threading.Lock()


def open_store(url: str | None = None, migrate: bool = True) -> Store:
    """Connect to the store at ``url`` (default: ``settings.database_url()``), migrated."""
    url = url or settings.database_url()
    try:
        engine = create_engine(url, future=True)
    except Exception as exc:  # invalid URL or missing driver
        raise StoreError(f"cannot open the store at {url!r}: {exc}") from exc
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    if migrate:
        # Once per database and process: Alembic's machinery is not safe to run from several
        # threads at once (flows open the store from task threads).
        with _migration_lock:
            if url not in _migrated:
                try:
                    upgrade(engine)
                except Exception as exc:
                    raise StoreError(
                        "cannot migrate the store at "
                        f"{engine.url.render_as_string(hide_password=True)}: {exc}"
                    ) from exc
                _migrated.add(url)
    factory = sessionmaker(engine, expire_on_commit=False)
    return Store(engine, factory, EvidenceStore(factory), BankStore(factory), LockStore(factory),
                 WatermarkStore(factory))


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # With WAL, NORMAL never corrupts the database and loses no commit when a process is
    # killed (only, at worst, the last commits on a power cut); FULL's fsync per commit makes
    # a batch of small transactions (an ingest of thousands of files) I/O-bound.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
