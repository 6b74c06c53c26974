"""Local databases are created whole or not at all: a creator killed half way leaves nothing
the next run trips on, and a database another run created is never replaced."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamer.databases import create_whole


def _make(tmp: Path) -> None:
    with sqlite3.connect(tmp) as conn:
        conn.execute("create table t (x int)")
        conn.execute("insert into t values (1)")


def test_created_whole_once(tmp_path: Path) -> None:
    db = tmp_path / "mlflow.db"
    assert create_whole(db, _make)
    assert not create_whole(db, lambda tmp: pytest.fail("must not create twice"))
    with sqlite3.connect(db) as conn:
        assert conn.execute("select x from t").fetchall() == [(1,)]
    assert [p.name for p in tmp_path.iterdir()] == ["mlflow.db"]


def test_a_failed_creation_leaves_nothing(tmp_path: Path) -> None:
    db = tmp_path / "mlflow.db"

    def half(tmp: Path) -> None:
        with sqlite3.connect(tmp) as conn:
            conn.execute("create table issues (x int)")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        create_whole(db, half)
    assert list(tmp_path.iterdir()) == []


def test_a_killed_creator_leaves_only_a_temporary_file_the_next_run_removes(
    tmp_path: Path
) -> None:
    db = tmp_path / "prefect.db"
    code = ("import sqlite3, time, sys\nfrom pathlib import Path\n"
            "from dreamer.databases import create_whole\n"
            "def slow(tmp):\n    sqlite3.connect(tmp).execute('create table half (x int)')\n"
            "    print('half', flush=True)\n    time.sleep(60)\n"
            f"create_whole(Path({str(db)!r}), slow)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "half"
    proc.kill()
    proc.wait()
    time.sleep(0.1)
    assert not db.exists() and any(p.name.endswith(".creating") for p in tmp_path.iterdir())
    assert create_whole(db, _make)
    assert [p.name for p in tmp_path.iterdir()] == ["prefect.db"]
