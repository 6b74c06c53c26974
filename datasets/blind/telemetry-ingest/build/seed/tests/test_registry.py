from datetime import timedelta

import pytest

from telemetry_ingest.registry import UnknownDevice


def test_ids_are_case_insensitive(registry):
    assert "fz-3" in registry
    assert registry.get(" fz-3 ").device_id == "FZ-3"


def test_status_lifecycle(registry, t0):
    assert registry.status("FZ-3", now=t0) == "never_seen"
    registry.touch("FZ-3", t0)
    assert registry.status("FZ-3", now=t0 + timedelta(minutes=10)) == "online"
    assert registry.status("FZ-3", now=t0 + timedelta(minutes=16)) == "offline"


def test_touch_never_goes_back(registry, t0):
    registry.touch("FZ-3", t0)
    registry.touch("FZ-3", t0 - timedelta(hours=1))
    assert registry.get("FZ-3").last_seen == t0


def test_unknown_device(registry, t0):
    with pytest.raises(UnknownDevice):
        registry.touch("NOPE", t0)


def test_by_site(registry):
    assert [d.device_id for d in registry.by_site("chicago")] == ["FZ-3", "FZ-4"]
