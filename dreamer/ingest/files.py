"""Which files an ingest run reads, and reading them safely.

A folder is walked without following links out of it: every entry ends up either in the list
of files to ingest or in ``skipped`` with the reason (hidden, not a trajectory name, a FIFO or
device, a dangling or looping link, a link to a folder or out of the folder given, unreadable).
A file is opened without blocking and read only when it is a regular file within the size
limit, so a FIFO or ``/dev/zero`` named on the command line is skipped, never waited on.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dreamer.ingest.limits import Limits

TRAJECTORY_SUFFIXES = (".traj", ".json", ".jsonl", ".ndjson")
"""What a folder walk picks up. A file named explicitly is always tried, whatever its name."""


class Skip(Exception):
    """A path that is not read, and why (it goes to the report's ``skipped``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class FileBytes:
    """A file's content and when it was last modified."""

    data: bytes
    mtime: datetime


def shown_path(path: Path | str) -> str:
    """``path`` as text that any store can hold (undecodable bytes of a name become U+FFFD)."""
    return os.fsencode(str(path)).decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def collect(paths: list[Path], skipped: list[dict[str, object]]) -> list[Path]:
    """The files to ingest: named paths as given (folders walked), everything else in
    ``skipped`` with its reason. Raises FileNotFoundError for a named path that is missing."""
    files: list[Path] = []
    for path in paths:
        if not os.path.lexists(path):
            raise FileNotFoundError(f"no such file or folder: {path}")
        if path.is_dir() and is_events_folder(path):
            files.append(path)
        elif path.is_dir():
            if path.is_symlink():
                skipped.append({"path": shown_path(path),
                                "reason": "a link to a folder; name the folder itself to walk it"})
                continue
            files += _walk(path, skipped)
        elif path.is_symlink() and not path.exists():
            skipped.append({"path": shown_path(path), "reason": _dangling(path)})
        else:
            files.append(path)  # named explicitly: read checks that it is a regular file
    return files


def _walk(root: Path, skipped: list[dict[str, object]]) -> list[Path]:
    real_root = root.resolve()
    found: list[Path] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append({"path": shown_path(folder), "reason": f"cannot list: {exc.strerror}"})
            continue
        for entry in entries:
            path = Path(entry.path)
            reason = _entry_problem(entry, path, real_root)
            if reason is not None:
                skipped.append({"path": shown_path(path), "reason": reason})
            elif entry.is_dir(follow_symlinks=False):
                (found if is_events_folder(path) else stack).append(path)
            else:
                found.append(path)
    return sorted(found, key=str)


def _entry_problem(entry: os.DirEntry[str], path: Path, real_root: Path) -> str | None:
    """Why a folder entry is not ingested, or None (a folder to walk, or a file to read)."""
    if entry.name.startswith("."):
        return "hidden (its name starts with '.'); name it explicitly to ingest it"
    try:
        if entry.is_symlink():
            problem = _link_problem(path, real_root)
            if problem:
                return problem
        mode = os.stat(path).st_mode if entry.is_symlink() else entry.stat(
            follow_symlinks=False).st_mode
    except OSError as exc:
        return f"cannot read its type: {exc.strerror}"
    if stat.S_ISDIR(mode):
        return "a link to a folder; not followed" if entry.is_symlink() else None
    if not stat.S_ISREG(mode):
        return f"{kind_of(mode)}, not a regular file"
    if not entry.name.endswith(TRAJECTORY_SUFFIXES):
        return ("not a trajectory file name (" + ", ".join(TRAJECTORY_SUFFIXES)
                + "); name it explicitly to ingest it")
    if entry.name in _OPENHANDS_SIDE_FILES and is_events_folder(path.parent / "events"):
        return "an OpenHands session's own record, not a trajectory (its events/ folder is one)"
    return None


def _link_problem(link: Path, real_root: Path) -> str | None:
    try:
        target = link.resolve(strict=True)
    except FileNotFoundError:
        return _dangling(link)
    except (RuntimeError, OSError):  # 3.11 raises RuntimeError on a loop, later versions ELOOP
        return "a link loop"
    if not target.is_relative_to(real_root):
        return f"a link to {shown_path(target)}, outside the folder given; not followed"
    return None


def _dangling(link: Path) -> str:
    try:
        return f"a dangling link (to {shown_path(os.readlink(link))})"
    except OSError:
        return "a dangling link"


_EVENT_FILE = re.compile(r"^\d+\.json$")
_OPENHANDS_SIDE_FILES = frozenset({"metadata.json", "init.json", "agent_state.json"})


def is_events_folder(path: Path) -> bool:
    """OpenHands keeps a session as ``sessions/<sid>/events/<n>.json``, one file per event:
    such a folder is read as one trajectory (its events in order)."""
    if path.name != "events":
        return False
    try:
        names = [entry.name for entry in os.scandir(path)]
    except OSError:
        return False
    return bool(names) and all(_EVENT_FILE.match(name) for name in names)


def read_events_folder(path: Path, limits: Limits) -> FileBytes:
    """An OpenHands events folder as one JSON Lines stream, events in numeric order (what is
    stored verbatim is this stream: each line is one event file's content on one line)."""
    names = sorted((n for n in os.listdir(path) if _EVENT_FILE.match(n)),
                   key=lambda n: int(n.split(".")[0]))
    lines: list[bytes] = []
    newest = 0.0
    size = 0
    for name in names:
        part = read(path / name, limits)
        newest = max(newest, part.mtime.timestamp())
        # One line per event: a raw line break in valid JSON is only ever whitespace.
        line = part.data.replace(b"\r", b" ").replace(b"\n", b" ")
        size += len(line) + 1
        if size > limits.max_bytes:
            raise Skip(f"its events are over the {limits.max_bytes}-byte limit together")
        lines.append(line)
    return FileBytes(b"\n".join(lines) + b"\n", datetime.fromtimestamp(newest, tz=UTC))


def read(path: Path, limits: Limits) -> FileBytes:
    """The bytes of ``path`` when it is a regular file within the size limit; else ``Skip``.

    Opened without blocking, so a FIFO cannot hang the run, and checked after opening, so a
    file swapped for a device between the walk and the read is still refused.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Skip(f"cannot open: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Skip(f"{kind_of(info.st_mode)}, not a regular file")
        if info.st_size > limits.max_bytes:
            raise Skip(f"{info.st_size} bytes, over the {limits.max_bytes}-byte limit "
                       "(DREAMER_INGEST_MAX_BYTES); not read")
        chunks: list[bytes] = []
        size = 0
        while size <= limits.max_bytes:
            chunk = os.read(fd, min(1 << 20, limits.max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limits.max_bytes:
            raise Skip(f"grew past the {limits.max_bytes}-byte limit while being read")
    except OSError as exc:
        raise Skip(f"cannot read: {exc.strerror}") from exc
    finally:
        os.close(fd)
    return FileBytes(b"".join(chunks), datetime.fromtimestamp(info.st_mtime, tz=UTC))
