"""Test-wide settings: offline, quiet, and nothing written outside tmp folders."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from dreamer.store import Store

# Set before any test module imports litellm, datasets, prefect or mlflow.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("DSPY_CACHEDIR", "/tmp/dreamer-tests-dspy-cache")
# The ONNX export of the packaged model (dreamer/onnx_model.py): made once per machine, not in ~.
os.environ.setdefault("DREAMER_MODEL_CACHE", "/tmp/dreamer-tests-model-cache")

SHARED_DATA = Path(os.environ.get("DREAMER_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")
"""The real public data beside the project (``../shared/data``, or ``$DREAMER_SHARED_DATA``);
tests skip when absent."""


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own DREAMER_HOME, so no test touches ./.dreamer or another test."""
    home = tmp_path_factory.mktemp("dreamer-home")
    monkeypatch.setenv("DREAMER_HOME", str(home))
    monkeypatch.delenv("DREAMER_DATABASE_URL", raising=False)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{home / 'mlflow.db'}")
    return home


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the real public data folder {SHARED_DATA} is absent")
    return SHARED_DATA


# The store's tests run on SQLite and on the local PostgreSQL server (skipped, with the reason,
# only when no server answers): any test module gets both by asking for ``store``.
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


@pytest.fixture
def postgres_database() -> Iterator[Callable[[], str]]:
    """Makes fresh PostgreSQL databases (their URLs), dropped after the test; skips when no
    server answers."""
    made: list[Iterator[str]] = []

    def make() -> str:
        database = _postgres_url()
        url = next(database)
        made.append(database)
        return url

    yield make
    for database in made:
        next(database, None)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    from dreamer.store import open_store

    if request.param == "sqlite":
        s = open_store(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s.close()
        return
    for url in _postgres_url():
        s = open_store(url)
        yield s
        s.close()
