"""MLflow's and Prefect's local databases, created whole or not at all.

Each library creates its SQLite database by running its own migrations on first use; a run
killed in the middle leaves a half-migrated file that every later run trips on ("table issues
already exists"). So before a nightly, compare or demo run uses them, each missing database is
created in a temporary file beside it, and linked into place only once complete (a hard link
never replaces a database another run created meanwhile). A run killed while creating leaves
only its temporary file, removed by the next run. MLflow's database (SQLite or PostgreSQL) is
also created under the store's lock, so that concurrent runs create it once
(``dreamer.tracking.ensure_database``). Servers (``MLFLOW_TRACKING_URI`` over http,
``PREFECT_API_URL``) are left to their owners.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from dreamer import settings


def prepare_local_databases() -> list[Path]:
    """Create MLflow's database (any database URI, under the store's lock: see
    ``dreamer.tracking``) and Prefect's SQLite database when they do not exist yet; returns the
    SQLite files created."""
    from dreamer import tracking

    created: list[Path] = []
    uri = settings.mlflow_tracking_uri()
    if tracking.ensure_database(uri) and (path := sqlite_path(uri)) is not None:
        created.append(path)
    prefect = _prefect_path()
    if prefect is not None and create_whole(prefect, _create_prefect):
        created.append(prefect)
    return created


def create_whole(path: Path, create: Callable[[Path], None]) -> bool:
    """Create the SQLite database ``path`` with ``create`` (given a temporary path), so that
    ``path`` never exists half made. False when it existed (or another run made it first)."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
    try:
        create(tmp)
        with sqlite3.connect(tmp) as conn:  # fold a write-ahead log into the file itself
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
            leftover.unlink(missing_ok=True)


def _remove_stale(path: Path) -> None:
    """Temporary files of creators that no longer run."""
    for tmp in path.parent.glob(f".{path.name}.*.creating*"):
        pid = tmp.name.split(".creating")[0].rsplit(".", 1)[-1]
        if pid.isdigit() and not _running(int(pid)):
            tmp.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sqlite_path(url: str) -> Path | None:
    scheme, sep, rest = url.partition(":///")
    if not sep or scheme.split("+")[0] != "sqlite" or not rest or rest == ":memory:":
        return None
    return Path(rest if rest.startswith("/") else Path.cwd() / rest)


def _prefect_path() -> Path | None:
    if os.environ.get("PREFECT_API_URL"):
        return None  # a Prefect server keeps its own database
    url = os.environ.get("PREFECT_API_DATABASE_CONNECTION_URL")
    if url:
        return sqlite_path(url)
    home = os.environ.get("PREFECT_HOME")
    return Path(home).expanduser() / "prefect.db" if home else None


def create_mlflow(uri: str) -> None:
    """Run MLflow's own migrations on the database ``uri`` (tracking and model registry)."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri, registry_uri=uri)
    client.search_experiments(max_results=1)
    client.search_registered_models(max_results=1)


def _create_prefect(tmp: Path) -> None:
    prefect = Path(sys.executable).with_name("prefect")
    command = [str(prefect)] if prefect.exists() else [sys.executable, "-m", "prefect"]
    env = {**os.environ, "PREFECT_API_DATABASE_CONNECTION_URL": f"sqlite+aiosqlite:///{tmp}"}
    done = subprocess.run([*command, "server", "database", "upgrade", "-y"], env=env,
                          capture_output=True, text=True, timeout=startup_timeout())
    if done.returncode != 0:
        raise RuntimeError(f"cannot create Prefect's database: {done.stderr[-500:]}")


def startup_timeout() -> float:
    """How long creating a database may take (``DREAMER_STARTUP_TIMEOUT_S``, default 180 s)."""
    try:
        return float(os.environ.get("DREAMER_STARTUP_TIMEOUT_S", "180"))
    except ValueError:
        return 180.0

