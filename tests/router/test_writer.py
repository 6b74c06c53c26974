"""The recall-record writer: nothing is written while a recall is answered; flush writes all."""

from __future__ import annotations

import threading
import time

import pytest

from dreamer.router.writer import RecordWriter


def _call_each(batch: list) -> None:  # type: ignore[type-arg]
    """The records here are callables that write themselves."""
    for write in batch:
        write()


def test_records_wait_for_a_quiet_moment_and_flush_writes_them_at_once() -> None:
    writer = RecordWriter(_call_each, quiet_s=0.2, wait_s=30.0)
    written: list[str] = []
    with writer.busy():
        writer.submit(lambda: written.append("first"))
        time.sleep(0.3)
        assert written == []  # a recall is in progress: not written meanwhile
    with writer.busy():  # the next recall of a burst, before the quiet time has passed
        time.sleep(0.1)
        assert written == []
    deadline = time.monotonic() + 10
    while not written and time.monotonic() < deadline:
        time.sleep(0.02)
    assert written == ["first"]  # written once the server was quiet for 0.2 s

    with writer.busy():
        writer.submit(lambda: written.append("second"))
        writer.flush()  # at once, busy or not
        assert written == ["first", "second"]


def test_a_long_burst_still_writes_after_wait_s_and_errors_surface_at_flush() -> None:
    writer = RecordWriter(_call_each, quiet_s=10.0, wait_s=0.2)
    written = threading.Event()
    with writer.busy():
        writer.submit(written.set)
        assert written.wait(5)  # never quiet, but not kept waiting longer than wait_s

    def failing() -> None:
        raise RuntimeError("database is locked")

    writer.submit(failing)
    with pytest.raises(RuntimeError, match="database is locked"):
        writer.flush()
    writer.flush()  # reported once
