"""Named locks in the database, so that two runs on different processes or machines never both
do what only one may (e.g. promote a bank). A lock expires, so a killed run does not hold it
forever."""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from dreamer.errors import StoreError
from dreamer.store.schema import LockRow


class LockHeldError(StoreError):
    """Another run holds the lock."""


def holder_id() -> str:
    """Who is asking: host, process and a random part, unique per call site."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class LockStore:
    def __init__(self, sessions: sessionmaker[DbSession]) -> None:
        self._sessions = sessions

    def acquire(self, name: str, holder: str, ttl: timedelta = timedelta(hours=2)) -> bool:
        """Take ``name`` for ``holder``; False when another live holder has it.

        A lock is taken over when it expired, or when its holder was a process of this host
        that no longer runs (a run killed while holding it: the next run must start clean).
        """
        now = datetime.now(UTC)
        for _ in range(2):
            try:
                with self._sessions.begin() as db:
                    db.execute(delete(LockRow).where(LockRow.name == name,
                                                     LockRow.expires_at < now))
                    db.add(LockRow(name=name, holder=holder, acquired_at=now,
                                   expires_at=now + ttl))
            except IntegrityError:
                held = self.holder(name)
                if held is None or not _dead_here(held):
                    return False
                with self._sessions.begin() as db:  # its holder died: free it, then retry
                    db.execute(delete(LockRow).where(LockRow.name == name, LockRow.holder == held))
                continue
            return True
        return False

    def release(self, name: str, holder: str) -> None:
        with self._sessions.begin() as db:
            db.execute(delete(LockRow).where(LockRow.name == name, LockRow.holder == holder))

    def holder(self, name: str) -> str | None:
        with self._sessions() as db:
            row = db.get(LockRow, name)
            if row is not None and _aware(row.expires_at) >= datetime.now(UTC):
                return row.holder
            return None

    @contextmanager
    def hold(self, name: str, ttl: timedelta = timedelta(hours=2)) -> Iterator[str]:
        """Hold ``name`` for the block, or raise LockHeldError naming who holds it."""
        me = holder_id()
        if not self.acquire(name, me, ttl):
            raise LockHeldError(f"lock {name!r} is held by {self.holder(name) or 'another run'}; "
                                "wait for it to finish (or for the lock to expire)")
        try:
            yield me
        finally:
            self.release(name, me)

    @contextmanager
    def wait(self, name: str, timeout_s: float = 600.0,
             ttl: timedelta = timedelta(minutes=30)) -> Iterator[str]:
        """Hold ``name`` for the block, waiting up to ``timeout_s`` for its holder to release
        it; LockHeldError naming the holder when it is still held by then."""
        me = holder_id()
        deadline = time.monotonic() + timeout_s
        pause = 0.05
        while not self.acquire(name, me, ttl):
            if time.monotonic() >= deadline:
                raise LockHeldError(f"lock {name!r} is still held by "
                                    f"{self.holder(name) or 'another run'} after {timeout_s:.0f} s")
            time.sleep(pause)
            pause = min(pause * 2, 1.0)
        try:
            yield me
        finally:
            self.release(name, me)


def _dead_here(holder: str) -> bool:
    """Whether ``holder`` (``host:pid:nonce``) names a process of this host that has ended."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # it runs, as another user
        return False
    return False


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
