from pathlib import Path

import pytest

from irrigation.zones import load_zones

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def zones():
    return load_zones(ROOT / "data" / "zones.json")
