"""Test-wide settings: offline, quiet, and nothing written outside tmp folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Set before any test module imports litellm, datasets, prefect or mlflow.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("DSPY_CACHEDIR", "/tmp/dreamer-tests-dspy-cache")

SHARED_DATA = Path(os.environ.get("DREAMER_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")
"""The real public data beside the project (``../shared/data``, or ``DREAMER_SHARED_DATA``);
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
