"""The store's Alembic migrations form one line: one head, and a fresh database reaches it."""

from __future__ import annotations

from sqlalchemy import create_engine, inspect, text

from dreamer.store import Store
from dreamer.store.migrate import alembic_config


def _script():  # type: ignore[no-untyped-def]
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(create_engine("sqlite://")))


def test_the_migrations_have_exactly_one_head() -> None:
    heads = _script().get_heads()
    assert len(heads) == 1, f"several Alembic heads, add a merge revision: {heads}"


def test_a_fresh_database_migrates_to_that_head(store: Store) -> None:
    (head,) = _script().get_heads()
    with store.engine.connect() as conn:
        versions = [row[0] for row in conn.execute(text("select version_num from alembic_version"))]
    assert versions == [head]
    tables = set(inspect(store.engine).get_table_names())
    assert {"sessions", "banks", "aliases", "locks", "gate_decisions",
            "session_versions"} <= tables


def test_a_database_at_the_three_old_heads_upgrades_to_the_merge(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from dreamer.store import open_store
    from dreamer.store.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    for old_head in ("0002_locks", "0002_router", "0004_live_logs"):
        upgrade(engine, old_head)
    with engine.connect() as conn:
        assert len(list(conn.execute(text("select version_num from alembic_version")))) == 3
    engine.dispose()
    store = open_store(url)
    (head,) = _script().get_heads()
    with store.engine.connect() as conn:
        rows = conn.execute(text("select version_num from alembic_version"))
        assert [r[0] for r in rows] == [head]
    store.close()


def test_processes_opening_a_fresh_store_at_once_migrate_it_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Each open_store runs Alembic; concurrent first opens wait for one another."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    code = "import sys; from dreamer.store import open_store; open_store(sys.argv[1]).close()"
    procs = [subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE,
                              text=True) for _ in range(3)]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
