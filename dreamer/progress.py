"""Progress of the long steps (dream stages, evaluation attempts, corpus build), through one
small hook: a step calls ``step = progress.start("evaluate", total)`` and ``step.advance()``.

Where the events go:

- to every listener added with ``listen()`` (tests, a UI);
- inside a Prefect flow or task run, to its run logger (so the lines appear in the flow's logs,
  at most about every tenth of the way, and at the end);
- otherwise, on a terminal, to a Rich progress bar on stderr (one bar per step);
- otherwise nowhere (a pipe gets no bar noise).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """``step`` has ``completed`` of ``total`` units done (``total`` None: unknown)."""

    step: str
    completed: int
    total: int | None
    detail: str = ""

    @property
    def done(self) -> bool:
        return self.total is not None and self.completed >= self.total


Listener = Callable[[Event], None]
_listeners: list[Listener] = []
_lock = threading.Lock()


@contextmanager
def listen(listener: Listener) -> Iterator[None]:
    """Send every progress event to ``listener`` for the block."""
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


class Step:
    """One step's counter; thread-safe (evaluation attempts finish on several threads)."""

    def __init__(self, name: str, total: int | None) -> None:
        self.name, self.total, self.completed = name, total, 0
        self._lock = threading.Lock()
        self._bar: Any = None
        self._logged_tenth = -1
        # The run's logger, taken where the step starts: its units may finish on other threads
        # (evaluation attempts), which Prefect's run context does not reach.
        self._logger = _run_logger()
        _emit(self, Event(name, 0, total))

    def advance(self, amount: int = 1, detail: str = "") -> None:
        with self._lock:
            self.completed += amount
            event = Event(self.name, self.completed, self.total, detail)
        _emit(self, event)

    def close(self) -> None:
        """End the step where it stands (an error stopped it): its bar, if it has one, goes
        away; listeners and logs have had its last event already."""
        if self._bar is not None:
            _drop_bar(self)


def start(name: str, total: int | None = None) -> Step:
    """A step of ``total`` units named ``name``; its start is an event."""
    return Step(name, total)


def silence() -> None:
    """No more events from this process (a forked worker: its parent reports its progress)."""
    global _silenced
    _silenced = True


_silenced = False


def _emit(step: Step, event: Event) -> None:
    if _silenced:
        return
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(event)
    if step._logger is not None:
        _log(step, event, step._logger)
    elif _terminal():
        _bar(step, event)


def _run_logger() -> logging.Logger | logging.LoggerAdapter[logging.Logger] | None:
    if "prefect" not in sys.modules:
        return None
    from prefect.context import FlowRunContext, TaskRunContext
    from prefect.logging import get_run_logger

    if TaskRunContext.get() is None and FlowRunContext.get() is None:
        return None
    return get_run_logger()


def _log(step: Step, event: Event, logger: Any) -> None:
    if event.total:
        tenth = 10 * event.completed // event.total
        with step._lock:
            if tenth <= step._logged_tenth and not event.done:
                return
            step._logged_tenth = tenth
        share = f"{event.completed}/{event.total}"
    else:
        share = str(event.completed)
    logger.info("%s: %s%s", event.step, share, f" ({event.detail})" if event.detail else "")


def _terminal() -> bool:
    return sys.stderr.isatty()


_progress: Any = None
_open_bars = 0


def _bar(step: Step, event: Event) -> None:
    global _progress, _open_bars
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with _lock:
        if step._bar is None:
            if _progress is None:
                from rich.console import Console

                _progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                     MofNCompleteColumn(), TimeElapsedColumn(),
                                     TimeRemainingColumn(compact=True),
                                     TextColumn("{task.fields[detail]}"),
                                     console=Console(stderr=True), transient=True)
                _progress.start()
            step._bar = _progress.add_task(step.name, total=event.total, detail="")
            _open_bars += 1
        _progress.update(step._bar, completed=event.completed, detail=event.detail)
    if event.done:
        _drop_bar(step)


def _drop_bar(step: Step) -> None:
    global _progress, _open_bars
    with _lock:
        if step._bar is None or _progress is None:
            return
        _progress.remove_task(step._bar)
        step._bar = None
        _open_bars -= 1
        if _open_bars == 0:
            _progress.stop()  # joins its refresh thread: a fork after this finds none
            _progress = None
