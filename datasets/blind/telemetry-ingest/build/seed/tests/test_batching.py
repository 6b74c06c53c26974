from datetime import timedelta

import pytest
from conftest import reading

from telemetry_ingest.batching import Batcher
from telemetry_ingest.dedup import DedupFilter


def test_batch_by_size(t0):
    b = Batcher(max_size=2)
    assert b.add(reading(), t0) == []
    ready = b.add(reading(device="FZ-4"), t0)
    assert len(ready) == 1 and len(ready[0]) == 2
    assert len(b) == 0


def test_batch_by_age(t0):
    b = Batcher(max_size=100, max_age=timedelta(seconds=5))
    b.add(reading(), t0)
    assert b.poll(t0 + timedelta(seconds=4)) == []
    assert len(b.poll(t0 + timedelta(seconds=5))[0]) == 1


def test_bad_size():
    with pytest.raises(ValueError):
        Batcher(max_size=0)


def test_dedup_capacity(t0):
    d = DedupFilter(capacity=2)
    first = reading(ts=t0)
    assert d.seen(first) is False
    assert d.seen(first) is True
    d.seen(reading(ts=t0 + timedelta(seconds=1)))
    d.seen(reading(ts=t0 + timedelta(seconds=2)))
    assert d.seen(first) is False
