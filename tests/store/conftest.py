"""The store's tests run on SQLite and on the local PostgreSQL server (skipped, with the reason,
only when no server answers)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dreamer.store import Store, open_store

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _postgres_url() -> Iterator[str]:
    from sqlalchemy import create_engine, text

    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("select 1"))
    except Exception as exc:
        admin.dispose()
        pytest.skip(f"no PostgreSQL server answers at 127.0.0.1:5432 ({type(exc).__name__})")
    name = f"dreamer_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = open_store(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s.close()
        return
    for url in _postgres_url():
        s = open_store(url)
        yield s
        s.close()
