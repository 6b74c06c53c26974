"""The scale-out path end to end, as a user runs it: `dreamer stack up` on loopback, `dreamer
nightly --deploy`, a run triggered through the Prefect API and picked up by the worker, then the
gate's decision in PostgreSQL, the registered bank in the MLflow server (loaded back as a pyfunc
model and queried), the bank's vectors in the Chroma server; `dreamer stack down` leaves no
process behind. The comparison flow is deployed beside it (`dreamer compare --deploy`), its
parameters from the config's ``compare`` section. The README's scale-out section is these
commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
# `make test` runs it on its own after the two-worker run (`-m stack`): its four servers and
# the worker's nightly run need the machine's two cores.
pytestmark = [pytest.mark.stack, pytest.mark.postgres,
              pytest.mark.skipif(not SAMPLE.is_dir(), reason="the committed sample is absent")]

USER_ENV_DROPPED = ("MLFLOW_TRACKING_URI", "DREAMER_DATABASE_URL", "PREFECT_API_URL",
                    "PREFECT_HOME", "DREAMER_CHROMA_URL")
"""What a user starting the stack has not set; nor any ``DREAMER_ROUTER_*`` that another test
of this worker left behind (``DREAMER_ROUTER_EMBEDDINGS=0`` made the stack's worker build no
vectors: its Chroma check failed in the two-worker suite)."""


def dreamer(*args: str, env: dict[str, str], timeout: float = 300) -> str:
    done = subprocess.run([sys.executable, "-m", "dreamer.cli", *args], env=env, text=True,
                          capture_output=True, timeout=timeout)
    assert done.returncode == 0, f"dreamer {' '.join(args)}: {done.stderr[-3000:]}"
    return done.stdout


def test_stack_up_deploy_run_and_down(tmp_path: Path, nightly_config,  # type: ignore[no-untyped-def]
                                      postgres_database, monkeypatch: pytest.MonkeyPatch) -> None:
    postgres_database()  # skips when no PostgreSQL server answers
    prefix = f"dreamer_stack_{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items()
           if k not in USER_ENV_DROPPED and not k.startswith("DREAMER_ROUTER_")}
    config = nightly_config("stack", permutations=1,
                            compare={"strategies": ["none", "default"], "budgets": [0, "all"],
                                     "agents": ["selector"]})
    up = json.loads(dreamer("stack", "up", "--prefix", prefix, "--json", env=env))
    stack_file = Path(env["DREAMER_HOME"]) / "stack" / "stack.json"
    pids = [s["pid"] for s in json.loads(stack_file.read_text())["services"]]
    try:
        assert set(up["ui"]) == {"prefect-server", "mlflow-server", "chroma-server"}
        assert all(url.startswith("http://127.0.0.1:") for url in up["ui"].values())
        deployment = json.loads(dreamer("nightly", "--deploy", "--config", str(config),
                                        "--json", env=env))
        assert deployment["cron"] == "0 3 * * *"
        compare = json.loads(dreamer("compare", "--deploy", "--config", str(config), "--json",
                                     env=env))

        for key, value in up["env"].items():  # this test now talks to the stack, as a user
            monkeypatch.setenv(key, value)
        from prefect.client.orchestration import get_client
        from prefect.deployments import run_deployment
        from prefect.settings import PREFECT_API_URL, temporary_settings

        # A Prefect settings context (another test's harness in this worker) outranks the
        # environment: name the stack's API explicitly.
        with temporary_settings(updates={PREFECT_API_URL: up["env"]["PREFECT_API_URL"]}):
            flow_run = run_deployment(deployment["name"], timeout=0)
            with get_client(sync_client=True) as client:
                deadline = time.monotonic() + 600
                while not (state := client.read_flow_run(flow_run.id).state).is_final():
                    assert time.monotonic() < deadline, "the worker did not finish the run"
                    time.sleep(2)
                assert state.is_completed(), state
                keys = {a.key for a in client.read_artifacts()}
                # The comparison is deployed too, to the same pool, with the config's sweep.
                registered = client.read_deployment_by_name(compare["name"])
                (schedule,) = registered.schedules
        assert registered.work_pool_name == "dreamer" and schedule.schedule.cron == "0 4 * * 0"
        assert registered.parameters["config_ref"] == str(config)
        assert registered.parameters["strategies"] == ["none", "default"]
        assert registered.parameters["budgets"] == [0, None]
        assert registered.parameters["agents"] == ["selector"]
        assert {"nightly-gate", "nightly-summary"} <= keys

        from dreamer.store import open_store
        from dreamer.store.schema import GateDecisionRow

        store = open_store()
        assert store.engine.dialect.name == "postgresql"
        with store.sessions() as db:
            (decision,) = db.query(GateDecisionRow).all()
        assert decision.repo == "pytoolz/toolz" and decision.promoted, decision.reasons
        store.close()

        import mlflow

        from dreamer.promotion import model_name

        (tmp_path / "model").mkdir()  # else MLflow downloads the model into a new folder of /tmp
        model = mlflow.pyfunc.load_model(f"models:/{model_name('pytoolz/toolz')}@production",
                                         dst_path=str(tmp_path / "model"))
        assert model.metadata.metadata["bank_id"] == decision.candidate
        (answer,) = model.predict(["get an item by index from a sequence with a default"])
        assert answer["bank"] == decision.candidate and answer["memories"]
        gate_runs = mlflow.search_runs(experiment_names=["dreamer-nightly"], output_format="list")
        assert [r.data.params["candidate"] for r in gate_runs] == [decision.candidate]

        from urllib.parse import urlparse

        import chromadb

        where = urlparse(up["env"]["DREAMER_CHROMA_URL"])
        chroma = chromadb.HttpClient(host=where.hostname, port=where.port)
        counts = {c.name: c.count() for c in chroma.list_collections()}
        assert any(name.startswith(decision.candidate) and n > 0 for name, n in counts.items())
    finally:
        stopped = json.loads(dreamer("stack", "down", "--json", env=env))["stopped"]
        _drop(prefix)
    assert set(stopped) == {"prefect-server", "prefect-worker", "mlflow-server", "chroma-server"}
    for pid in pids:  # each service ran as its own process group: none of it is left
        with pytest.raises(ProcessLookupError):
            os.killpg(pid, 0)


def _drop(prefix: str) -> None:
    from sqlalchemy import create_engine, text

    admin = create_engine("postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for suffix in ("store", "mlflow"):
            conn.execute(text(f'DROP DATABASE IF EXISTS "{prefix}_{suffix}" WITH (FORCE)'))
    admin.dispose()
