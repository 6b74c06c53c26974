"""Working copies reused across a suite's attempts, made ahead and restarted in the background.

Cloning and deleting a copy per attempt cost more than the tests of small tasks: a suite keeps
one copy per task and attempt in hand (``WorkspacePool``), restarts each one at its base commit
when it comes back, and makes each task's first copy before any attempt asks for it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress

from evals.tasks import Task
from evals.workspace import Workspace


class WorkspacePool:
    """Working copies reused across attempts: at most one per task and attempt in hand (a suite
    holds two per worker: one under test, the next being readied).

    ``checkout(task)`` lends an idle copy of the task's repository, or makes one when every copy
    of the task is in use. A copy that comes back is restarted at its base commit (``git reset
    --hard`` + ``git clean -fdx``) in background threads (``workers`` of them), so the next
    attempt does not wait for it (one that asks meanwhile waits for the restart rather than
    cloning); a copy that cannot be restarted is deleted. ``prefetch(tasks, threads)`` makes
    each task's first copy ahead, in background threads, while earlier attempts run their tests.
    ``close()`` deletes them all. Cloning and deleting a copy per attempt cost more than the
    tests of small tasks.
    """

    AHEAD = 2
    """Copies per worker the prefetcher makes ahead of the attempts that take them: as many
    as a suite holds in use (bounds the disk a suite of large repositories holds before it
    needs it)."""

    def __init__(self, workers: int = 1) -> None:
        self._idle: dict[tuple[str, str, str | None], list[Workspace]] = {}
        self._all: list[Workspace] = []
        self._lock = threading.Condition()
        self._making: dict[tuple[str, str, str | None], threading.Event] = {}
        self._unclaimed: set[tuple[str, str, str | None]] = set()
        """Prefetched copies no attempt has taken yet."""
        self._unneeded: set[tuple[str, str, str | None]] = set()
        """Tasks no attempt will take a copy of: not prefetched."""
        self._restarting: dict[tuple[str, str, str | None], int] = {}
        """Copies back from an attempt and being restarted, by task."""
        # As many restarts at once as copies come back at once (a wave of ``workers`` tests).
        self._restarts = ThreadPoolExecutor(max(1, workers),
                                            thread_name_prefix="restart-workspaces")
        self._closed = False
        self._ahead: list[threading.Thread] = []
        self._workers = max(1, workers)

    @staticmethod
    def _key(task: Task) -> tuple[str, str, str | None]:
        return task.instance_id, task.base_commit, task.source.location

    @contextmanager
    def checkout(self, task: Task) -> Iterator[Workspace]:
        key = self._key(task)
        with self._lock:
            making = self._making.get(key)
        if making is not None:  # the prefetcher is making it: cheaper to wait than to clone
            making.wait()
        with self._lock:
            idle = self._idle.setdefault(key, [])
            while not idle and self._restarting.get(key) and not self._closed:
                self._lock.wait()  # a restart takes a few git calls; a new copy, a clone
            ws = idle.pop() if idle else None
            if key in self._unclaimed:
                self._unclaimed.discard(key)
                self._lock.notify_all()
        if ws is None:
            ws = Workspace.create(task)
            with self._lock:
                self._all.append(ws)
        try:
            yield ws
        finally:
            with self._lock:  # submitted under the lock: ``close`` shuts the restarts after
                if not self._closed:
                    self._restarting[key] = self._restarting.get(key, 0) + 1
                    self._restarts.submit(self._restart, key, ws)

    def _restart(self, key: tuple[str, str, str | None], ws: Workspace) -> None:
        """Put ``ws`` back at its base commit and among the idle copies (deleted if it fails)."""
        try:
            ws.restart()
        except Exception:
            restarted = False
        else:
            restarted = True
        with self._lock:
            self._restarting[key] -= 1
            if restarted:
                self._idle.setdefault(key, []).append(ws)
            else:
                self._all.remove(ws)
            self._lock.notify_all()
        if not restarted:
            ws.close()

    def prefetch(self, tasks: Sequence[Task], threads: int = 1) -> None:
        """Make the first copy of each of ``tasks`` (in that order; a task with a copy is
        skipped) in ``threads`` background threads (a suite's ``workers``: the first attempts of
        every worker need one at once), at most ``AHEAD`` per worker (or ``threads``) copies,
        made or being made, before attempts take them: a suite's first tests may need copies of
        as many tasks as it holds copies, and they need not come first in the order. A copy
        that fails is left to the attempt, which makes it again and reports the error."""
        pending = iter(tasks)
        ahead = max(self.AHEAD * self._workers, threads)

        def run() -> None:
            while True:
                with self._lock:
                    while (len(self._unclaimed) + len(self._making) >= ahead
                           and not self._closed):
                        self._lock.wait()
                    task = None if self._closed else next(pending, None)
                    if task is None:
                        return
                    key = self._key(task)
                    if key in self._idle or key in self._making or key in self._unneeded:
                        continue  # an attempt got there first, or none will take it
                    event = self._making[key] = threading.Event()
                ws: Workspace | None = None
                try:
                    with suppress(Exception):  # the attempt makes it again and reports it
                        ws = Workspace.create(task)
                finally:  # even when interrupted: an attempt may be waiting on the event
                    with self._lock:
                        if ws is not None:
                            self._all.append(ws)
                            self._idle.setdefault(key, []).append(ws)
                            self._unclaimed.add(key)
                        del self._making[key]
                        self._lock.notify_all()
                    event.set()

        with self._lock:
            if self._ahead or self._closed:
                raise RuntimeError("a pool prefetches once, before it is closed")
            self._ahead = [threading.Thread(target=run, name=f"prefetch-workspaces-{n}",
                                            daemon=True) for n in range(max(1, threads))]
        for thread in self._ahead:
            thread.start()

    def unneeded(self, tasks: Iterable[Task]) -> None:
        """``tasks`` no attempt will take a copy of: the prefetcher skips them, and a copy it
        made already no longer counts as ahead."""
        with self._lock:
            for task in tasks:
                key = self._key(task)
                self._unneeded.add(key)
                self._unclaimed.discard(key)
            self._lock.notify_all()

    def __len__(self) -> int:
        return len(self._all)

    def close(self, wait: bool = True) -> None:
        """Delete every copy; with ``wait=False`` in a background thread (the interpreter
        still waits for it at exit), so a suite's results do not wait on the deletion."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
            ahead = list(self._ahead)

        def delete() -> None:
            for thread in ahead:
                thread.join()  # it stops after the copy it is making, if any
            self._restarts.shutdown(wait=True)
            with self._lock:
                copies, self._all, self._idle = self._all, [], {}
            for ws in copies:
                ws.close()

        if wait:
            delete()
        else:
            threading.Thread(target=delete, name="delete-workspaces").start()

    def __enter__(self) -> WorkspacePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
