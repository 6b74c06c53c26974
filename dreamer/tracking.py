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
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
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


def lm_metrics(usage: Mapping[str, Any] | None) -> dict[str, float]:
    """A run's LM figures as MLflow metrics: calls, failures, fallbacks, tokens, cost (0 for a
    model litellm does not price; :func:`lm_params` marks it)."""
    if not usage:
        return {}
    keys = ("calls", "failures", "fallbacks", "failure_rate", "prompt_tokens",
            "completion_tokens", "total_tokens", "cost_usd")
    return {f"lm_{key}": float(usage.get(key) or 0) for key in keys}


def lm_params(usage: Mapping[str, Any] | None) -> dict[str, str]:
    """The model and whether its cost is known (``lm_priced``; ``lm_unpriced_models`` names the
    models whose tokens count 0 in ``lm_cost_usd``)."""
    if not usage:
        return {}
    return {"lm_model": str(usage.get("model")), "lm_priced": str(bool(usage.get("priced", True))),
            "lm_unpriced_models": ",".join(usage.get("unpriced_models") or ()) or "none"}


def log_lm_run(kind: str, usage: Mapping[str, Any], params: Mapping[str, object],
               metrics: Mapping[str, float] | None = None, status: str = "FINISHED") -> str:
    """Record a run that called an LM (``kind``: extract, dream) as a finished MLflow run in
    experiment ``dreamer-<kind>``: its params, its metrics and the LM's calls, failures,
    tokens and cost. Returns the run id."""
    from mlflow.entities import Metric, Param

    c = client()
    run = c.create_run(experiment_id(f"dreamer-{kind}", c), run_name=f"{kind}-lm",
                       tags={"dreamer.kind": kind})
    rid = run.info.run_id
    now = int(time.time() * 1000)
    values = {**(metrics or {}), **lm_metrics(usage)}
    c.log_batch(rid, metrics=[Metric(k, float(v), now, 0) for k, v in values.items()],
                params=[Param(k, str(v)[:500])
                        for k, v in {**params, **lm_params(usage)}.items()])
    c.set_terminated(rid, status=status)
    return str(rid)


@contextmanager
def dspy_autologged(run_id: str | None) -> Iterator[dict[str, str]]:
    """MLflow's DSPy autologging (``mlflow.dspy.autolog``) into the run ``run_id`` while inside:
    a ``Teleprompter.compile`` logs its arguments as params, the compiled program's state
    (``best_model.json``), the train and validation sets and the LM's settings as artifacts;
    each ``dspy.Evaluate`` (MIPRO's) a nested run with its score. Traces stay off (a dream makes
    hundreds of calls). Autologging configures DSPy's callbacks globally, which only the thread
    that first configured DSPy may do: elsewhere it is skipped and the yielded dict says why
    (also set as the run's ``dspy_autolog`` tag). None: nothing is logged."""
    state: dict[str, str] = {}
    if run_id is None:
        yield state
        return
    import dspy
    import mlflow

    saved = {"callbacks": list(dspy.settings.callbacks),
             "track_usage": dspy.settings.track_usage}
    mlflow.set_tracking_uri(settings.mlflow_tracking_uri())
    try:
        mlflow.dspy.autolog(log_compiles=True, log_evals=True, log_traces=False,
                            log_traces_from_compile=False, log_traces_from_eval=False,
                            silent=True)
        state["dspy_autolog"] = "on"
    except Exception as exc:  # DSPy refuses a global configure from this thread
        state["dspy_autolog"] = f"off: {type(exc).__name__}: {exc}"[:250]
    try:
        if state["dspy_autolog"] == "on":
            with mlflow.start_run(run_id=run_id):
                yield state
        else:
            yield state
    finally:
        if state["dspy_autolog"] == "on":
            mlflow.dspy.autolog(disable=True, silent=True)
            dspy.settings.configure(**saved)
        client().set_tag(run_id, "dspy_autolog", state["dspy_autolog"])
