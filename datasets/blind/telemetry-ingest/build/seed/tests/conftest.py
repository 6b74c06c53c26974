from datetime import datetime, timedelta, timezone

import pytest

from telemetry_ingest.models import Reading
from telemetry_ingest.registry import DeviceRegistry

T0 = datetime(2025, 8, 4, 10, 0, 0, tzinfo=timezone.utc)


def reading(device="FZ-3", metric="temperature", value=20.0, unit="C", ts=T0, received_at=None, seq=None):
    return Reading(
        device_id=device,
        metric=metric,
        value=value,
        unit=unit,
        ts=ts,
        received_at=received_at or ts + timedelta(seconds=2),
        seq=seq,
    )


@pytest.fixture
def t0():
    return T0


@pytest.fixture
def registry():
    reg = DeviceRegistry()
    reg.register("FZ-3", site="chicago", name="freezer room 3")
    reg.register("FZ-4", site="chicago", name="freezer room 4")
    reg.register("HB-1", site="hamburg", name="dock 1")
    return reg
