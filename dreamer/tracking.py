"""MLflow access shared by every part of dreamer: one client, experiments whose artifacts live
under ``DREAMER_HOME`` (never in the working directory), imported lazily.

MLflow creates its database (SQLite by default, PostgreSQL on a stack) by running its own
migrations on first use, which is not safe from several processes at once ("table
_alembic_tmp_experiments already exists"). So the first ``client()`` of a process creates it under
the store's ``mlflow-database`` lock: one run creates it, the others wait and then find it
complete. A tracking server (``http://``) owns its database and is left alone.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from dreamer import settings

MLFLOW_DATABASE_LOCK = "mlflow-database"
_ready: set[str] = set()
_ready_lock = threading.Lock()


def client() -> Any:
    """An ``MlflowClient`` on ``settings.mlflow_tracking_uri()``, its database created first.

    Through the client, with explicit run ids, logging works from any thread (the fluent API's
    active run belongs to one thread).
    """
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    from mlflow.tracking import MlflowClient

    uri = settings.mlflow_tracking_uri()
    ensure_database(uri)
    return MlflowClient(tracking_uri=uri)


def is_database_uri(uri: str) -> bool:
    """Whether ``uri`` is a database MLflow opens itself (rather than a server or a folder)."""
    scheme = uri.partition(":")[0].split("+")[0].lower()
    return scheme in ("sqlite", "postgresql", "mysql", "mssql")


def ensure_database(uri: str | None = None) -> bool:
    """Create MLflow's database at ``uri`` (default: the tracking URI) unless it is complete,
    once per process, under the store's lock. True when this call created it."""
    uri = uri or settings.mlflow_tracking_uri()
    if not is_database_uri(uri):
        return False
    with _ready_lock:
        if uri in _ready:
            return False
        from dreamer.databases import startup_timeout
        from dreamer.store import open_store

        store = open_store()
        try:
            with store.locks.wait(MLFLOW_DATABASE_LOCK, timeout_s=startup_timeout()):
                created = _create(uri)
        finally:
            store.close()
        _ready.add(uri)
        return created


def _create(uri: str) -> bool:
    from dreamer.databases import create_mlflow, create_whole, sqlite_path

    path = sqlite_path(uri)
    if path is not None:
        # Whole or not at all: a run killed while creating leaves no half-migrated file.
        return create_whole(path, lambda tmp: create_mlflow(f"sqlite:///{tmp}"))
    from sqlalchemy import create_engine, inspect

    engine = create_engine(uri)
    try:
        existed = inspect(engine).has_table("experiments")
    finally:
        engine.dispose()
    create_mlflow(uri)
    return not existed


def experiment_id(name: str, mlflow_client: Any = None) -> str:
    """The id of experiment ``name``, created with its artifacts under ``DREAMER_HOME``."""
    c = mlflow_client or client()
    found = c.get_experiment_by_name(name)
    if found is not None:
        return str(found.experiment_id)
    # A tracking server keeps artifacts where it was told (and serves them); a local store keeps
    # them under DREAMER_HOME.
    local = is_database_uri(settings.mlflow_tracking_uri())
    location = (settings.home() / "mlartifacts" / name).as_uri() if local else None
    try:
        return str(c.create_experiment(name, artifact_location=location))
    except Exception:  # created concurrently by another run
        found = c.get_experiment_by_name(name)
        if found is None:
            raise
        return str(found.experiment_id)
