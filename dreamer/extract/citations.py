"""Citations of code: file, line span, and the sha256 of those lines at a commit, read with git.

The hash is what verification later compares against the current checkout, so it is computed
exactly as ``Citation.lines_sha256`` documents: the cited lines joined with ``"\\n"``. When the
repository is not on this machine, or the commit or file is missing from it, the citation keeps
its path and span with ``lines_sha256=None``, and the memory carries the tag
``HASH_UNKNOWN_TAG`` so that a verifier knows the lines were never checked.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from dreamer.extract.git_reader import GitReader, git_lines
from dreamer.models import Citation, CitationKind

HASH_UNKNOWN_TAG = "lines-hash-unknown"
"""Tag of a memory with a file citation whose lines could not be read at their commit."""

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_FILE = re.compile(r"^\+\+\+ (?:b/)?(.+?)\s*$")


@dataclass(frozen=True)
class Hunk:
    """One hunk of a unified diff: where its lines are before and after, and their text."""

    path: str
    old_start: int
    old_len: int
    new_start: int
    new_len: int
    added: tuple[str, ...]
    removed: tuple[str, ...]
    new_lines: tuple[str, ...]
    """Context and added lines: the file's text at ``new_start`` after the change."""
    added_at: tuple[int, ...] = ()
    """Offsets of the added lines within ``new_lines``."""
    old_lines: tuple[str, ...] = ()
    """Context and removed lines: the file's text at ``old_start`` before the change."""


def parse_diff(diff: str) -> list[Hunk]:
    """The hunks of a unified diff (git or plain), in order; malformed parts are skipped."""
    hunks: list[Hunk] = []
    path: str | None = None
    header: tuple[int, int, int, int] | None = None
    added: list[str] = []
    removed: list[str] = []
    new_lines: list[str] = []
    added_at: list[int] = []
    old_lines: list[str] = []

    def close() -> None:
        if path is not None and header is not None:
            hunks.append(
                Hunk(
                    path,
                    *header,
                    tuple(added),
                    tuple(removed),
                    tuple(new_lines),
                    tuple(added_at),
                    tuple(old_lines),
                )
            )

    for line in diff.splitlines():
        if line.startswith("+++ "):
            close()
            header = None
            match = _FILE.match(line)
            path = None if not match or match.group(1) == "/dev/null" else match.group(1)
        elif line.startswith("--- ") or line.startswith("diff --git"):
            close()
            header = None
        elif (hunk := _HUNK.match(line)) is not None:
            close()
            o, ol, n, nl = hunk.groups()
            header = (int(o), int(ol or 1), int(n), int(nl or 1))
            added, removed, new_lines, added_at, old_lines = [], [], [], [], []
        elif header is not None:
            if line.startswith("+"):
                added.append(line[1:])
                added_at.append(len(new_lines))
                new_lines.append(line[1:])
            elif line.startswith("-"):
                removed.append(line[1:])
                old_lines.append(line[1:])
            elif line.startswith(" ") or line == "":
                new_lines.append(line[1:])
                old_lines.append(line[1:])
    close()
    return hunks


def lines_sha256(lines: list[str] | tuple[str, ...]) -> str:
    """The hash ``Citation.lines_sha256`` holds: sha256 of the lines joined with a newline."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


@dataclass
class CodeCiter:
    """Makes file citations for one session: which repository, which commits to try."""

    reader: GitReader
    git_dir: Path | None
    commits: tuple[str, ...]
    """Commits to read at, most likely first (the session's end, then its start)."""

    def cite(
        self,
        path: str,
        start: int,
        end: int,
        expect: tuple[str, ...] | None = None,
        commits: tuple[str, ...] | None = None,
    ) -> tuple[Citation, bool]:
        """A file citation of ``path`` lines ``start..end``, and whether its hash is known.

        With ``expect`` (the lines a diff says are there), a commit counts only where the file
        really has those lines, so a span from a diff is never hashed at the wrong commit.
        """
        start, end = max(1, start), max(start, end)
        for commit in commits or self.commits:
            if self.git_dir is None:
                break
            lines = self.reader.read_lines(self.git_dir, commit, path)
            if lines is None or end > len(lines):
                continue
            cited = lines[start - 1 : end]
            if expect is not None and [s.rstrip() for s in cited] != [s.rstrip() for s in expect]:
                continue
            return Citation(
                kind=CitationKind.FILE,
                ref=path,
                path=path,
                start_line=start,
                end_line=end,
                lines_sha256=lines_sha256(cited),
                commit=commit,
            ), True
        return Citation(
            kind=CitationKind.FILE,
            ref=path,
            path=path,
            start_line=start,
            end_line=end,
            commit=next(iter(commits or self.commits), None),
        ), False

    def _cite_unplaced(self, hunk: Hunk) -> tuple[Citation, bool]:
        """A hunk known by its text only (an edit tool's arguments): cite its added lines where
        the session's commits, or the commit that later brought them, hold them."""
        unplaced = Citation(kind=CitationKind.FILE, ref=hunk.path, path=hunk.path)
        block = hunk.added
        if self.git_dir is None or not any(line.strip() for line in block):
            return unplaced, False
        probe = max((line.strip() for line in block), key=len)  # the most telling line
        landed = self.reader.commits_adding(self.git_dir, hunk.path, probe)[:3]
        for commit in (*self.commits, *landed):
            lines = self.reader.read_lines(self.git_dir, commit, hunk.path)
            start = _placed(lines, block) if lines else None
            if start is not None:
                return self.cite(hunk.path, start, start + len(block) - 1, expect=block,
                                 commits=(commit,))
        return unplaced, False

    def cite_hunk(self, hunk: Hunk) -> tuple[Citation, bool]:
        """The changed lines of a hunk, hashed at the first commit that really holds them.

        In order: after the change at the session's commits; after the change at the commit
        that later brought those lines (the fix as it landed); before the change at the
        session's commits (the lines the event changed, at the event's commit); else unhashed.
        """
        if hunk.new_start <= 0:
            return self._cite_unplaced(hunk)
        first, last = _changed_span(hunk)
        expect = tuple(hunk.new_lines[first - hunk.new_start : last - hunk.new_start + 1])
        citation, known = self.cite(hunk.path, first, last, expect=expect)
        if known or self.git_dir is None:
            return citation, known
        probe = next((line.strip() for line in hunk.added if len(line.strip()) > 8), None)
        if probe is not None:
            landed = self.reader.commits_adding(self.git_dir, hunk.path, probe)[:3]
            if landed:
                found, ok = self.cite(hunk.path, first, last, expect=expect, commits=tuple(landed))
                if ok:
                    return found, ok
        if hunk.old_lines:
            old = self.cite(
                hunk.path,
                hunk.old_start,
                hunk.old_start + len(hunk.old_lines) - 1,
                expect=hunk.old_lines,
            )
            if old[1]:
                return old
        return citation, known


    def enclosing(self, citation: Citation) -> str | None:
        """The definition a cited span sits in: the nearest line above it, less indented, that
        opens a ``def``/``class`` or assigns a top-level name (``VISIT_CODES = {``); None at a
        module's top level or when the file cannot be read."""
        if self.git_dir is None or citation.path is None or not citation.start_line \
                or citation.commit is None:
            return None
        lines = self.reader.read_lines(self.git_dir, citation.commit, citation.path)
        if not lines or citation.start_line > len(lines):
            return None
        return enclosing_definition(lines, citation.start_line)


    def qualify(self, names: tuple[str, ...] | list[str], near: str | None = None) -> list[str]:
        """``names`` with each ``instance.member`` (``registry.touch``, ``entry.duration``) named
        by the class of the repository that defines that method or field
        (``DeviceRegistry.touch``, ``TimeEntry.duration``), as the code at the session's commit
        has it. When several classes define it, the one in the package of ``near`` (the file
        the change touched) is meant, if it alone is there; otherwise the name is kept."""
        return [self._qualified(n, near) for n in names]

    def _qualified(self, name: str, near: str | None = None) -> str:
        owner, _, attribute = name.rpartition(".")
        if not owner or "=" in name or not owner[:1].islower() or self.git_dir is None \
                or not self.commits or not re.fullmatch(r"[A-Za-z_]\w*", attribute):
            return name
        from dreamer.extract.names import is_test_path  # names imports this module

        commit = self.commits[0]
        member = re.escape(attribute)
        # A method, a field declared in a class body (dataclass, NamedTuple, attrs), or an
        # attribute set on ``self``.
        found = git_lines(str(self.git_dir), "grep", "-n", "-E",
                     rf"^\s+((async\s+)?def\s+{member}\s*\(|{member}\s*:[^=]|"
                     rf"self\.{member}\s*(:[^=]+)?=[^=])", commit, "--", "*.py")
        classes: set[tuple[str, str]] = set()
        for hit in found or ():
            _, path, row, _ = hit.split(":", 3)
            if is_test_path(path):
                continue
            lines = self.reader.read_lines(self.git_dir, commit, path)
            if lines and (cls := _class_of(lines, int(row))):
                classes.add((cls, path))
        names = {cls for cls, _ in classes}
        if len(names) > 1 and near:
            package = posixpath.dirname(near)
            names = {cls for cls, path in classes if posixpath.dirname(path) == package}
        if len(names) == 1:
            return f"{names.pop()}.{attribute}"
        return name


_DEFINITION = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)"
                         r"|^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)")


def _class_of(lines: list[str], line: int) -> str | None:
    """The class whose body holds the ``def`` at 1-based ``line``, or None (a nested function)."""
    text = lines[line - 1]
    indent = len(text) - len(text.lstrip())
    for row in range(line - 2, -1, -1):
        above = lines[row]
        depth = len(above) - len(above.lstrip())
        if not above.strip() or depth >= indent:
            continue
        match = re.match(r"\s*class\s+([A-Za-z_]\w*)", above)
        return match.group(1) if match else None
    return None


def enclosing_definition(lines: list[str], line: int) -> str | None:
    """The name of the definition enclosing 1-based ``line`` of ``lines`` (see ``enclosing``)."""
    target = lines[line - 1]
    indent = len(target) - len(target.lstrip()) if target.strip() else 10**6
    for row in range(line - 1, -1, -1):
        text = lines[row]
        if not text.strip():
            continue
        depth = len(text) - len(text.lstrip())
        if row < line - 1 and depth >= indent:
            continue
        if match := _DEFINITION.match(text):
            return match.group(2) or match.group(3)
        if depth == 0 and row < line - 1:
            return None
        indent = min(indent, depth)
    return None


def _placed(lines: list[str], block: tuple[str, ...]) -> int | None:
    """The 1-based line where ``block`` starts in ``lines`` (trailing spaces ignored), or None."""
    want = [b.rstrip() for b in block]
    have = [line.rstrip() for line in lines]
    for i in range(len(have) - len(want) + 1):
        if have[i:i + len(want)] == want:
            return i + 1
    return None


def _changed_span(hunk: Hunk) -> tuple[int, int]:
    """The span of the hunk's added lines in the new file (its context when it only removes);
    blank lines at its edges (the spacing before an appended function) are not the change."""
    rows = [r for r in hunk.added_at if r < len(hunk.new_lines) and hunk.new_lines[r].strip()] \
        or list(hunk.added_at)
    if not rows:
        return hunk.new_start, hunk.new_start + max(hunk.new_len, 1) - 1
    return hunk.new_start + rows[0], hunk.new_start + rows[-1]
