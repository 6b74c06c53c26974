"""MLflow's database is created once, under the store's lock, however many runs start at once
(on SQLite and on PostgreSQL); ``DREAMER_RACE_REPEAT=20`` repeats each race."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RACE_REPEAT = int(os.environ.get("DREAMER_RACE_REPEAT", "1"))

# What a run does first: open the store, then MLflow (tracking and registry).
FIRST_STEPS = """
import json
from dreamer import tracking
from dreamer.store import open_store
open_store().close()
created = tracking.ensure_database()
client = tracking.client()
experiment = tracking.experiment_id("dreamer-race", client)
run = client.create_run(experiment)
client.log_metric(run.info.run_id, "x", 1.0)
client.search_registered_models(max_results=1)
print(json.dumps({"created": created, "run": run.info.run_id}))
"""


@pytest.mark.parametrize("attempt", range(RACE_REPEAT))
@pytest.mark.parametrize("database", ["sqlite",
                                      pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_runs_starting_at_once_create_the_mlflow_database_once(  # type: ignore[no-untyped-def]
    database: str, attempt: int, postgres_database, monkeypatch: pytest.MonkeyPatch,
) -> None:
    if database == "postgresql":
        monkeypatch.setenv("DREAMER_DATABASE_URL", postgres_database())
        monkeypatch.setenv("MLFLOW_TRACKING_URI", postgres_database())
    procs = [subprocess.Popen([sys.executable, "-c", FIRST_STEPS], env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outcomes = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        outcomes.append(json.loads(out.strip().splitlines()[-1]))
    assert [o["created"] for o in outcomes].count(True) == 1, outcomes

    from dreamer import tracking
    from dreamer.store import open_store

    client = tracking.client()
    experiment = client.get_experiment_by_name("dreamer-race")
    runs = client.search_runs([experiment.experiment_id])
    assert sorted(r.info.run_id for r in runs) == sorted(o["run"] for o in outcomes)
    store = open_store()
    assert store.locks.holder(tracking.MLFLOW_DATABASE_LOCK) is None  # released
    store.close()


def test_a_database_left_half_made_by_a_killed_run_is_not_used(tmp_path: Path) -> None:
    """A killed creator leaves only its temporary file; the next run creates the database."""
    from dreamer import tracking

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    stale = tmp_path / ".mlflow.db.999999999.creating"
    stale.write_bytes(b"half")
    assert tracking.ensure_database(uri)
    assert not stale.exists()
    assert not tracking.ensure_database(uri)  # once per process
