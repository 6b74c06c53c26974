"""Database locks: one holder at a time, across threads; expired locks can be taken over."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from dreamer.store import LockHeldError, Store


def test_one_holder_at_a_time(store: Store) -> None:
    assert store.locks.acquire("promote:acme/shop", "run-1")
    assert not store.locks.acquire("promote:acme/shop", "run-2")
    assert store.locks.holder("promote:acme/shop") == "run-1"
    store.locks.release("promote:acme/shop", "run-2")  # not the holder: nothing happens
    assert store.locks.holder("promote:acme/shop") == "run-1"
    store.locks.release("promote:acme/shop", "run-1")
    assert store.locks.acquire("promote:acme/shop", "run-2")


def test_an_expired_lock_is_taken_over(store: Store) -> None:
    assert store.locks.acquire("nightly", "killed-run", ttl=timedelta(seconds=-1))
    assert store.locks.acquire("nightly", "next-run")
    assert store.locks.holder("nightly") == "next-run"


def test_concurrent_acquirers_get_exactly_one_lock(store: Store) -> None:
    barrier = threading.Barrier(8)
    won: list[str] = []

    def contend(i: int) -> None:
        barrier.wait()
        if store.locks.acquire("promote:r", f"t{i}"):
            won.append(f"t{i}")

    threads = [threading.Thread(target=contend, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1


def test_hold_raises_naming_the_holder(store: Store) -> None:
    with store.locks.hold("promote:r") as me:
        with pytest.raises(LockHeldError, match=me.split(":")[0]):
            with store.locks.hold("promote:r"):
                pass
    assert store.locks.holder("promote:r") is None


def test_a_lock_whose_holder_died_is_taken_over(store: Store) -> None:
    """A run killed while holding a lock must not block the next run for the lock's lifetime;
    a holder on another host, or alive here, keeps it."""
    import os
    import socket
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()
    here = socket.gethostname()
    assert store.locks.acquire("promote:acme/shop", f"{here}:{gone.pid}:deadbeef")
    assert store.locks.acquire("promote:acme/shop", f"{here}:{os.getpid()}:next")
    assert store.locks.holder("promote:acme/shop") == f"{here}:{os.getpid()}:next"
    assert not store.locks.acquire("promote:acme/shop", f"{here}:{os.getpid()}:third")
    assert store.locks.acquire("promote:acme/elsewhere", f"other-host:{gone.pid}:x")
    assert not store.locks.acquire("promote:acme/elsewhere", f"{here}:{os.getpid()}:y")
