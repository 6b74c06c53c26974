"""Helpers for the adapter tests: decode a file as the driver does and run one adapter on it."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import dreamer.ingest.adapters  # noqa: F401  (registers every adapter)
from dreamer.ingest.base import ADAPTERS, Document, IngestContext
from dreamer.ingest.driver import decode
from dreamer.models import Session, sha256_bytes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trajectories"
"""This project's own small trajectory files, one folder per format."""


def load(path: Path) -> Document:
    """Decode a file exactly as the ingest driver does."""
    return decode(path.read_bytes(), str(path))


def run_adapter(path: Path, name: str, **ctx: str) -> list[Session]:
    """Parse ``path`` with the adapter registered as ``name``."""
    data = path.read_bytes()
    context = IngestContext(raw_sha256=sha256_bytes(data), source_path=str(path), **ctx)
    return ADAPTERS.get(name)().parse(decode(data, str(path)), context)


@pytest.fixture
def trajectories(shared_data: Path) -> Path:
    """The real public trajectories (skips when ``../shared/data`` is absent)."""
    return shared_data / "trajectories"


@pytest.fixture
def parse() -> Callable[..., list[Session]]:
    """``parse(path, adapter_name, **context)``: the sessions one adapter reads from a file."""
    return run_adapter


@pytest.fixture
def fixtures() -> Path:
    """This project's own trajectory fixtures."""
    return FIXTURES


@pytest.fixture
def load_doc() -> Callable[[Path], Document]:
    return load


@pytest.fixture(scope="session")
def hostile() -> ModuleType:
    """``tests/ingest/hostile.py``, the hostile set's generator (a script, not a package)."""
    if "hostile_set" in sys.modules:  # test_fuzz.py loads it at import, for its strategies
        return sys.modules["hostile_set"]
    spec = importlib.util.spec_from_file_location("hostile_set", Path(__file__).with_name(
        "hostile.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
