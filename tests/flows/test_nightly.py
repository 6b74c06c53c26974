"""The nightly loop end to end on the sample: promote a better bank, reject a worse one with its
reasons, roll back, and never promote twice when two runs race."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dreamer.promotion import registry_alias
from dreamer.store import open_store
from dreamer.store.schema import GateDecisionRow

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
pytestmark = pytest.mark.skipif(not SAMPLE.is_dir(), reason="the committed sample is absent")


def test_nightly_promotes_then_rejects_a_worse_candidate(
    prefect_harness: None, nightly_config, worse_strategy: Path  # type: ignore[no-untyped-def]
) -> None:
    from flows.nightly_dream_flow import nightly_dream

    good = nightly_config("good")
    (first,) = nightly_dream(config_ref=str(good))
    assert first["promoted"], first["reasons"]
    store = open_store()
    production = store.banks.alias("production", "pytoolz/toolz")
    assert production == first["candidate"]
    assert registry_alias("pytoolz/toolz") == production
    from dreamer import tracking

    gate_run = tracking.client().get_run(first["mlflow_run"])
    assert gate_run.data.metrics["promoted"] == 1.0
    assert gate_run.data.params["candidate"] == first["candidate"]

    worse = nightly_config("worse", strategy=str(worse_strategy))
    (second,) = nightly_dream(config_ref=str(worse))
    assert not second["promoted"]
    assert any(r.startswith("regressions: loses") for r in second["reasons"])
    assert store.banks.alias("production", "pytoolz/toolz") == production
    with store.sessions() as db:
        rows = db.query(GateDecisionRow).order_by(GateDecisionRow.id).all()
        assert [(r.candidate, r.passed, r.promoted) for r in rows] == [
            (first["candidate"], True, True), (second["candidate"], False, False)]
        assert rows[1].reasons == second["reasons"]

    # Force the worse bank in, then roll back: store and MLflow return to the good bank.
    from typer.testing import CliRunner

    from dreamer.cli import app

    runner = CliRunner()
    forced = runner.invoke(app, ["promote", second["candidate"], "--repo", "pytoolz/toolz",
                                 "--force", "--reason", "test of rollback"])
    assert forced.exit_code == 0, forced.output
    assert registry_alias("pytoolz/toolz") == second["candidate"]
    back = runner.invoke(app, ["rollback", "--repo", "pytoolz/toolz", "--json"])
    assert back.exit_code == 0, back.output
    assert json.loads(back.stdout)["production"] == production
    assert store.banks.alias("production", "pytoolz/toolz") == production
    assert registry_alias("pytoolz/toolz") == production


RACE_REPEAT = int(os.environ.get("DREAMER_RACE_REPEAT", "1"))
"""How many times each race runs (``DREAMER_RACE_REPEAT=20`` to hunt for flakiness)."""


@pytest.mark.parametrize("attempt", range(RACE_REPEAT))
@pytest.mark.parametrize("database", ["sqlite",
                                      pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_two_nightly_runs_at_once_promote_at_most_once(  # type: ignore[no-untyped-def]
    database: str, attempt: int, tmp_path: Path, nightly_config, postgres_database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two `dreamer nightly` processes on a fresh home (fresh store, fresh MLflow database):
    both create the databases and reach the gate; exactly one promotes, neither crashes."""
    if database == "postgresql":  # the store and MLflow each on their own fresh database
        monkeypatch.setenv("DREAMER_DATABASE_URL", postgres_database())
        monkeypatch.setenv("MLFLOW_TRACKING_URI", postgres_database())
    config = nightly_config("race", permutations=1)
    procs = []
    for i in range(2):
        env = {**os.environ, "PREFECT_HOME": str(tmp_path / f"p{i}"),
               "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_LOGGING_LEVEL": "ERROR"}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "dreamer.cli", "nightly", "--config", str(config), "--json"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    done = []
    try:
        for i, proc in enumerate(procs):
            out, err = proc.communicate(timeout=900)
            (tmp_path / f"nightly-{i}.err").write_text(err)  # kept for a repeated run's autopsy
            done.append((proc.returncode, out, err))
    finally:  # a failed or stuck run never leaves the other one running
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    results = []
    for code, out, err in done:
        assert code == 0, err[-3000:]
        results.append(json.loads(out)[0])
    promoted = [r for r in results if r["promoted"]]
    assert len(promoted) == 1, results
    refused = next(r for r in results if not r["promoted"])
    assert refused["reasons"], refused
    store = open_store()
    moves = store.banks.history("production", "pytoolz/toolz")
    assert len(moves) == 1 and moves[0].to_bank == promoted[0]["candidate"]
    with store.sessions() as db:
        decisions = [(r.passed, r.promoted) for r in db.query(GateDecisionRow)]
    assert len(decisions) == 2 and [p for _, p in decisions].count(True) == 1, decisions
    assert registry_alias("pytoolz/toolz") == promoted[0]["candidate"]
    store.close()
