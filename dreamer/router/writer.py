"""Writing what recalls did, in the background, when the server is not answering one.

A recall's records (the memories it served, each check of a cited line) are a few milliseconds
of inserts. Written by a thread at once, they compete for the interpreter with the next recall
of a burst; so the writer waits until no recall has been in progress for ``quiet_s``, and
writes everything pending then, in one call of ``write`` (one transaction), at the latest once
``most`` records are waiting or the oldest has waited ``wait_s``. ``flush()`` writes what is
pending now and raises the first error.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class RecordWriter:
    """One background thread writing recall records between recalls."""

    def __init__(self, write: Callable[[list[Any]], None], quiet_s: float = 0.05,
                 wait_s: float = 2.0, most: int = 64) -> None:
        """``write`` writes a batch of submitted records at once (one transaction for a
        burst)."""
        self.quiet_s, self.wait_s, self.most = quiet_s, wait_s, most
        self._write = write
        self._cond = threading.Condition()
        self._queue: list[tuple[float, Any]] = []
        self._busy = 0
        self._last = 0.0
        """When the last recall ended (monotonic)."""
        self._writing = 0
        self._flushing = 0
        self._errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="dreamer-recall-records",
                                        daemon=True)
        self._thread.start()

    @contextmanager
    def busy(self) -> Iterator[None]:
        """Held while a recall is answered: nothing is written meanwhile."""
        with self._cond:
            self._busy += 1
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._last = time.monotonic()
                self._cond.notify_all()

    def submit(self, item: Any) -> None:
        """Queue a record for the next batch."""
        with self._cond:
            self._queue.append((time.monotonic(), item))
            self._cond.notify_all()

    def flush(self) -> None:
        """Write everything submitted so far; raise the first error of any write since the
        last flush."""
        with self._cond:
            self._flushing += 1
            self._cond.notify_all()
            try:
                while self._queue or self._writing:
                    self._cond.wait(0.1)
            finally:
                self._flushing -= 1
            errors, self._errors = self._errors, []
        if errors:
            raise errors[0]

    def _due(self) -> float | None:
        """0 when the pending writes should go now, else how long to wait (None: nothing)."""
        if not self._queue:
            return None
        now = time.monotonic()
        if self._flushing or len(self._queue) >= self.most \
                or now - self._queue[0][0] >= self.wait_s:
            return 0.0
        if self._busy:
            return max(0.0, self._queue[0][0] + self.wait_s - now)
        return max(0.0, self._last + self.quiet_s - now)

    def _run(self) -> None:
        while True:
            with self._cond:
                while (due := self._due()) is None or due > 0:
                    self._cond.wait(due)
                batch, self._queue = self._queue, []
                self._writing += 1
            try:
                self._write([item for _, item in batch])
            except BaseException as exc:  # noqa: BLE001 (raised at flush)
                with self._cond:
                    self._errors.append(exc)
            finally:
                with self._cond:
                    self._writing -= 1
                    self._cond.notify_all()
