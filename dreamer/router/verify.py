"""Verify before use: check a memory's file citations against a working copy.

A file citation names ``path``, ``start_line``..``end_line`` (1-based, inclusive) and
``lines_sha256``, the sha256 of those lines joined with ``"\\n"`` (lines as ``str.splitlines()``
gives them). Against a checkout, a citation is

- **verified** when the lines at the cited place still hash the same;
- **relocated** when a window of the same length with the same hash is found elsewhere in the
  same file or, when the file is gone, in another file of the same name (the citation is
  followed and updated);
- **stale** when the lines changed or the file is gone.

A memory is stale if any of its file citations is, relocated if any moved and none is stale,
verified if all hold, and unchecked when it has no checkable file citation. Files are read once
per (path, mtime, size), so repeated recalls against an unchanged checkout cost no I/O, and a
memory's check is kept with the stamps of the files it read: checked again against an unchanged
checkout, it costs one ``stat`` per cited file.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from dreamer.models import Citation, CitationKind, Memory

State = Literal["verified", "relocated", "stale", "unchecked"]
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__",
                        ".tox", ".mypy_cache", ".pytest_cache", "build", "dist", ".dreamer"})
_GONE = "file is gone"
_MAX_FILES_WALKED = 50_000
"""Looking for a moved file walks the checkout once per recall; past this, give up (stale)."""


def lines_sha256(lines: Sequence[str]) -> str:
    """The hash a file citation carries: sha256 of the lines joined with ``\\n``."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def span_sha256(text: str, start_line: int, end_line: int) -> str:
    """The hash of lines ``start_line``..``end_line`` (1-based, inclusive) of ``text``."""
    return lines_sha256(text.splitlines()[start_line - 1:end_line])


class CitationCheck(BaseModel):
    """What verification found for one citation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    citation: Citation
    state: State
    updated: Citation | None = None
    """Where the cited lines are now, when relocated."""
    reason: str = ""

    @property
    def current(self) -> Citation:
        """The citation as it holds in the checkout (the updated one when relocated)."""
        return self.updated or self.citation


class MemoryCheck(BaseModel):
    """What verification found for one memory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: str
    state: State
    citations: tuple[CitationCheck, ...] = ()

    @property
    def current_citations(self) -> tuple[Citation, ...]:
        return tuple(c.current for c in self.citations)

    @cached_property
    def details(self) -> list[dict[str, Any]]:
        """What a verification row records of each checked citation (dumped once: a check
        kept by the verifier is recorded again at every recall that offers its memory)."""
        return [c.model_dump(mode="json", exclude_none=True) for c in self.citations
                if c.state != "unchecked"]


def checkable(citation: Citation) -> bool:
    """Whether a citation pins lines that can be checked against a checkout."""
    return (
        citation.kind is CitationKind.FILE and bool(citation.path) and bool(citation.lines_sha256)
        and citation.start_line is not None and citation.end_line is not None
        and 1 <= citation.start_line <= citation.end_line
    )


@dataclass
class _Lines:
    stamp: tuple[int, int]
    lines: list[str]
    windows: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    """Window length -> {hash: start lines}, computed on the first relocation search."""


_Stamps = tuple[tuple[Path, tuple[int, int]], ...]


class Verifier:
    """Checks citations against checkouts, caching file contents by (mtime, size), and each
    memory's check by the (mtime, size) of the files it read."""

    def __init__(self, max_files: int = 4096, max_checks: int = 65_536) -> None:
        self._files: OrderedDict[Path, _Lines] = OrderedDict()
        self._max_files = max_files
        self._checks: OrderedDict[tuple[str, Path], tuple[_Stamps, MemoryCheck]] = OrderedDict()
        self._max_checks = max_checks

    def check_many(
        self, memories: Sequence[tuple[str, Memory]], checkout: Path
    ) -> dict[str, MemoryCheck]:
        """Verify ``(memory id, memory)`` pairs against ``checkout``: one walk of the checkout
        at most, and only if some citation needs to be looked for elsewhere."""
        names: dict[str, list[Path]] = {}
        return {mid: self.check(memory, mid, checkout, names) for mid, memory in memories}

    def check(
        self, memory: Memory, memory_id: str, checkout: Path,
        names: dict[str, list[Path]] | None = None,
    ) -> MemoryCheck:
        """Verify every citation of ``memory`` against ``checkout``. ``names`` caches the
        checkout's file names between calls (an empty dict: not walked yet)."""
        # The memory id is a content hash: the same id cites the same lines.
        key = (memory_id, checkout)
        kept = self._checks.get(key)
        if kept is not None and all(_stamp(path) == stamp for path, stamp in kept[0]):
            self._checks.move_to_end(key)
            return kept[1]
        names = {} if names is None else names
        checks: list[CitationCheck] = []
        reads: list[tuple[Path, tuple[int, int]]] = []
        searched = False
        for citation in memory.citations:
            if not checkable(citation):
                checks.append(CitationCheck(citation=citation, state="unchecked"))
                continue
            check = self._check_in_place(citation, checkout, reads)
            if check.reason == _GONE:  # the file moved? look for it by name (one walk at most)
                searched = True
                if not names:
                    names.update(_names(checkout) or {"": []})  # "" marks "walked"
                check = self._search_elsewhere(citation, checkout, names) or check
            checks.append(check)
        states = {c.state for c in checks}
        state: State = (
            "stale" if "stale" in states else "relocated" if "relocated" in states
            else "verified" if "verified" in states else "unchecked"
        )
        result = MemoryCheck(memory_id=memory_id, state=state, citations=tuple(checks))
        if not searched:  # a search depends on the whole tree: not kept
            self._checks[key] = (tuple(reads), result)
            if len(self._checks) > self._max_checks:
                self._checks.popitem(last=False)
        return result

    def _check_in_place(
        self, citation: Citation, checkout: Path, reads: list[tuple[Path, tuple[int, int]]]
    ) -> CitationCheck:
        assert citation.path and citation.start_line and citation.end_line
        path = _inside(checkout, citation.path)
        cached = self._read(path) if path else None
        if cached is None or path is None:
            return CitationCheck(citation=citation, state="stale", reason=_GONE)
        reads.append((path, cached.stamp))
        span = cached.lines[citation.start_line - 1:citation.end_line]
        if len(span) == citation.end_line - citation.start_line + 1 and (
            lines_sha256(span) == citation.lines_sha256
        ):
            return CitationCheck(citation=citation, state="verified")
        found = self._find(cached, citation)
        if found is not None:
            return _relocated(citation, citation.path, found)
        return CitationCheck(citation=citation, state="stale", reason="cited lines changed")

    def _search_elsewhere(
        self, citation: Citation, checkout: Path, names: dict[str, list[Path]]
    ) -> CitationCheck | None:
        assert citation.path
        for path in names.get(Path(citation.path).name, ()):
            cached = self._read(path)
            if cached is not None and (found := self._find(cached, citation)) is not None:
                return _relocated(citation, path.relative_to(checkout).as_posix(), found)
        return None

    def _find(self, cached: _Lines, citation: Citation) -> int | None:
        """The start line of a window hashing like the citation, nearest the cited start."""
        assert citation.start_line and citation.end_line
        length = citation.end_line - citation.start_line + 1
        if length > len(cached.lines):
            return None
        table = cached.windows.get(length)
        if table is None:
            table = {}
            lines = cached.lines
            for start in range(len(lines) - length + 1):
                table.setdefault(lines_sha256(lines[start:start + length]), []).append(start + 1)
            cached.windows[length] = table
        starts = table.get(citation.lines_sha256 or "")
        if not starts:
            return None
        return min(starts, key=lambda s: (abs(s - (citation.start_line or 0)), s))

    def _read(self, path: Path) -> _Lines | None:
        stamp = _stamp(path)
        if stamp is None:
            return None
        cached = self._files.get(path)
        if cached is not None and cached.stamp == stamp:
            self._files.move_to_end(path)
            return cached
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        cached = _Lines(stamp=stamp, lines=text.splitlines())
        self._files[path] = cached
        if len(self._files) > self._max_files:
            self._files.popitem(last=False)
        return cached


def _stamp(path: Path) -> tuple[int, int] | None:
    """(mtime in ns, size) of a file, or None when it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _relocated(citation: Citation, path: str, start: int) -> CitationCheck:
    assert citation.start_line and citation.end_line
    length = citation.end_line - citation.start_line
    updated = citation.model_copy(
        update={"path": path, "start_line": start, "end_line": start + length,
                "ref": path if citation.ref == citation.path else citation.ref}
    )
    moved = "moved to another file" if path != citation.path else "moved within the file"
    return CitationCheck(citation=citation, state="relocated", updated=updated, reason=moved)


def _inside(checkout: Path, relative: str) -> Path | None:
    """``relative`` under ``checkout`` (already resolved), or None if it would escape it.

    Normalised lexically, not resolved: resolving costs a system call per path component, and
    verification only compares hashes, so a symlink inside the checkout reveals nothing.
    """
    normal = os.path.normpath(relative)
    if os.path.isabs(normal) or normal == ".." or normal.startswith(".." + os.sep):
        return None
    return checkout / normal


def _names(checkout: Path) -> dict[str, list[Path]]:
    """File name -> paths in the checkout (sorted, so the search order is stable)."""
    names: dict[str, list[Path]] = {}
    root = checkout.resolve()
    walked = 0
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in sorted(files):
            names.setdefault(name, []).append(Path(directory) / name)
            walked += 1
        if walked > _MAX_FILES_WALKED:
            break
    return names


def head_commit(checkout: Path) -> str | None:
    """The HEAD commit of a git working copy, read from ``.git`` without running git."""
    git = checkout / ".git"
    try:
        if git.is_file():  # a worktree: ".git" points at the real git directory
            git = (checkout / git.read_text().split(":", 1)[1].strip()).resolve()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head
        ref = head.split(":", 1)[1].strip()
        loose = git / ref
        if loose.is_file():
            return loose.read_text().strip()
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    except (OSError, IndexError):
        return None
    return None
