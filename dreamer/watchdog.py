"""No child outlives a run: a watchdog stops what a killed (or finished) run left behind.

A nightly run starts children: Prefect's ephemeral API server (a uvicorn process), the test
runs of its evaluation. Killed with SIGKILL, a process runs no cleanup, and its children live
on as orphans (a Prefect server per killed nightly). ``watch()`` starts a small watchdog
process beside the run: while the run lives, it notes the run's descendants every few tenths
of a second; once the run is gone, however it ended, it stops them (SIGTERM, then SIGKILL after
a grace period) and exits. It reads ``/proc``, so it works on Linux; elsewhere ``watch`` does
nothing.

Run as ``python -m dreamer.watchdog PID``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

POLL_S = 0.2
GRACE_S = 3.0
PROC = Path("/proc")


def watch() -> int | None:
    """Start the watchdog of this process; returns its pid (None where ``/proc`` is absent)."""
    if not (PROC / str(os.getpid()) / "stat").exists() or os.environ.get("DREAMER_NO_WATCHDOG"):
        return None
    watchdog = subprocess.Popen(
        [sys.executable, "-m", "dreamer.watchdog", str(os.getpid())],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C to the run's terminal must not stop the watchdog
    )
    return watchdog.pid


def _stat(pid: int | str) -> tuple[str, int, int] | None:
    """(state, parent, start time) of a process, or None when it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # ``pid (comm) state ppid ... starttime``; comm may hold spaces and parentheses.
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def processes() -> dict[int, tuple[int, int]]:
    """Every live process: its parent and start time (zombies are left out: they are dead)."""
    found: dict[int, tuple[int, int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (info := _stat(entry.name)) is not None and info[0] != "Z":
            found[int(entry.name)] = (info[1], info[2])
    return found


def descendants(pid: int) -> dict[int, int]:
    """The live descendants of ``pid``, with their start times (a pid can be reused; a pid
    with its start time names one process)."""
    table = processes()
    children: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        children.setdefault(parent, []).append(child)
    found: dict[int, int] = {}
    stack = list(children.get(pid, ()))
    while stack:
        current = stack.pop()
        if current not in found:
            found[current] = table[current][1]
            stack.extend(children.get(current, ()))
    return found


def alive(pid: int, started: int | None = None) -> bool:
    """Whether ``pid`` runs (a zombie does not), and is the one started at ``started``."""
    info = _stat(pid)
    return info is not None and info[0] != "Z" and (started is None or info[2] == started)


def stop(pids: dict[int, int], grace_s: float = GRACE_S) -> None:
    """SIGTERM ``pids`` (pid -> start time), then SIGKILL those alive after ``grace_s``."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid, started in pids.items():
            if alive(pid, started):
                try:
                    os.kill(pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
        deadline = time.monotonic() + grace_s
        while sig == signal.SIGTERM and time.monotonic() < deadline:
            if not any(alive(pid, started) for pid, started in pids.items()):
                return
            time.sleep(0.1)


def run(parent: int) -> None:
    """Note ``parent``'s descendants until it is gone, then stop them."""
    me = os.getpid()
    known: dict[int, int] = {}
    while alive(parent):
        known.update(descendants(parent))
        known = {pid: t for pid, t in known.items() if pid != me and alive(pid, t)}
        time.sleep(POLL_S)
    # Orphans were re-parented; what they started since is found from them.
    for pid in list(known):
        known.update(descendants(pid))
    stop({pid: t for pid, t in known.items() if pid != me and alive(pid, t)})


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    run(int(sys.argv[1]))
