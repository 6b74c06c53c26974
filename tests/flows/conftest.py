"""Flows run for real: Prefect's ephemeral API (once per session), on the committed sample."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "sample"


@pytest.fixture(scope="session")
def prefect_harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    os.environ["PREFECT_HOME"] = str(tmp_path_factory.mktemp("prefect-home"))
    from prefect.testing.utilities import prefect_test_harness

    # On the shared two-core machine under load the server took over 120 s to answer.
    with prefect_test_harness(server_startup_timeout=300):
        yield


@pytest.fixture
def nightly_config(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Writes nightly configs for the sample into the test's folder."""
    return lambda name, **fields: write_config(tmp_path, name, **fields)


def write_config(folder: Path, name: str, **fields: object) -> Path:
    """A nightly config for the sample, as a file (absolute paths), with ``fields`` changed."""
    import yaml

    base = {
        "name": name, "sources": [str(SAMPLE / "sessions")],
        "repo_roots": [str(SAMPLE / "repos")], "suite": str(SAMPLE),
        "repos": ["pytoolz/toolz"], "strategy": "default", "gate": "sample", "timeout_s": 120,
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(base | fields))
    return path


@pytest.fixture
def worse_strategy(tmp_path: Path) -> Path:
    """A strategy that forgets everything never shown to help: a clearly worse candidate."""
    path = tmp_path / "forget-everything.yaml"
    path.write_text(
        "description: forget every memory that never helped\nembedding: tfidf\nstages:\n"
        "  - name: forgetting\n    params: {idle_days: 0, decay: 0.0, dormant_below: 1.0}\n"
    )
    return path
