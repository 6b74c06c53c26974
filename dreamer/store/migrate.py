"""Schema migrations with Alembic, run programmatically when the store opens.

Several processes may open a fresh store at once (two nightly runs, a flow's workers): each
upgrade runs under a database-wide lock, so one migrates and the others then find the schema
current. On PostgreSQL that lock is a transaction-scoped advisory lock (DDL is transactional, so
the waiter sees the finished schema); on a SQLite file, a lock file beside the database (SQLite
runs DDL outside the transaction that Alembic opens, so the database cannot serialise it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).with_name("migrations")
PG_MIGRATION_LOCK = 0x6472_6D72  # "drmr": the advisory lock key of dreamer's migrations


def alembic_config(engine: Engine):  # type: ignore[no-untyped-def]
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return config


def upgrade(engine: Engine, revision: str = "heads") -> None:
    """Bring the database behind ``engine`` to ``revision`` (the head by default)."""
    from alembic import command

    config = alembic_config(engine)
    with _file_lock(engine), engine.begin() as connection:
        _advisory_lock(connection)
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    from filelock import FileLock

    path = Path(database).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path.with_name(f".{path.name}.migrate.lock"))):
        yield


def _advisory_lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("select pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
