"""MLflow access shared by every part of dreamer: one client, experiments whose artifacts live
under ``DREAMER_HOME`` (never in the working directory), imported lazily."""

from __future__ import annotations

import os
from typing import Any

from dreamer import settings


def client() -> Any:
    """An ``MlflowClient`` on ``settings.mlflow_tracking_uri()``.

    Through the client, with explicit run ids, logging works from any thread (the fluent API's
    active run belongs to one thread).
    """
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    from mlflow.tracking import MlflowClient

    return MlflowClient(tracking_uri=settings.mlflow_tracking_uri())


def experiment_id(name: str, mlflow_client: Any = None) -> str:
    """The id of experiment ``name``, created with its artifacts under ``DREAMER_HOME``."""
    c = mlflow_client or client()
    found = c.get_experiment_by_name(name)
    if found is not None:
        return str(found.experiment_id)
    location = (settings.home() / "mlartifacts" / name).as_uri()
    try:
        return str(c.create_experiment(name, artifact_location=location))
    except Exception:  # created concurrently by another run
        found = c.get_experiment_by_name(name)
        if found is None:
            raise
        return str(found.experiment_id)
