"""The cyclic garbage collector around bulk work: a dream, a bank read or written, a suite.

A full collection walks every object the process tracks. With a large bank in memory that is
about a second (a 100K dream: 18 of them took 21.8 s of a 107 s dream), and 0.17 s in a suite's
process (a test slot idle meanwhile). What these runs allocate is freed by reference counting,
and they make no cycles worth collecting before they end. A server (``dreamer mcp``) settles
for good what it loaded before its recalls (``settle``).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def long_lived() -> Iterator[Callable[[], None]]:
    """Yields ``keep``: called at any point, it exempts what the process holds then from the
    collector until the block ends (a dream calls it between stages). What exists on entry is
    exempt from the start, and young collections run ten times less often meanwhile.

    A cycle made meanwhile waits for the end of the block. Where objects are frozen already
    (the application's own ``gc.freeze``, or another thread's block), nothing is changed:
    unfreezing would undo theirs."""
    if gc.get_freeze_count():
        yield lambda: None
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    # Young collections ten times rarer: the stages allocate millions of short-lived tuples.
    gc.set_threshold(thresholds[0] * 10, *thresholds[1:])
    try:
        yield gc.freeze
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection in the block (a bank read or written: the memories and rows made
    hold no cycles, and the collections their allocations set off took about half of it, 100K
    memories: get 10.7-13.3 -> 7.0-7.1 s, put 8.9-10.3 -> 4.7-4.9 s). Process-wide: another
    thread's cycles wait for the end of the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def settle() -> None:
    """Exempt what the process holds now from the collector for good (``gc.freeze``): a
    long-running server calls it once it has loaded its model and built its indexes, which it
    holds until it exits. Otherwise the full collections that follow start-up walk them all,
    holding the interpreter: measured in ``dreamer mcp`` with a bank of 1,000 memories, 95-275 ms
    each on an AMX machine, the last ones while the first recalls were answered; 0.5 s beside a
    100K bank's index, in the recall it fell in. What is frozen and later dropped (an index
    evicted from the router's cache) is still freed by reference counting; only cycles among
    such objects are never collected."""
    gc.freeze()
