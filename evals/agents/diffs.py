"""What a unified diff changes: its added and removed lines and the paths it touches."""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT = re.compile(r"^\s*(?:#|//|--|/\*|\*)")
_PATH = re.compile(r"^(?:\+\+\+|---) (?:[ab]/)?(\S+)")
_GIT_HEADER = re.compile(r"^diff --git a/(\S+) b/(\S+)")


@dataclass(frozen=True)
class DiffStats:
    """Lines a patch adds and removes (headers excluded) and the paths it touches."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    paths: tuple[str, ...]

    @property
    def changed(self) -> int:
        """Added plus removed lines."""
        return len(self.added) + len(self.removed)

    @property
    def code(self) -> int:
        """Added plus removed lines that carry code: not blank, not a comment line. The size the
        size controls compare, so that padding a patch with comments cannot move it."""
        return sum(1 for line in (*self.added, *self.removed)
                   if line.strip() and not _COMMENT.match(line))


def diff_stats(patch: str) -> DiffStats:
    """Parse ``patch`` (git or plain unified diff)."""
    added: list[str] = []
    removed: list[str] = []
    paths: list[str] = []
    for line in patch.splitlines():
        header = _GIT_HEADER.match(line)
        if header:
            paths += [header.group(1), header.group(2)]
            continue
        if line.startswith(("+++ ", "--- ")):
            hit = _PATH.match(line)
            if hit and hit.group(1) != "/dev/null":
                paths.append(hit.group(1))
            continue
        if line.startswith("+"):
            added.append(line[1:])
        elif line.startswith("-"):
            removed.append(line[1:])
    return DiffStats(tuple(added), tuple(removed), tuple(dict.fromkeys(paths)))


def modified_files(patch: str) -> list[str]:
    """The existing files ``patch`` modifies (or deletes), by SWE-bench's rule (its
    ``get_modified_files``): every file whose source side is not ``/dev/null``, with ``a/``
    dropped. Raises ``unidiff.UnidiffParseError`` for a text unidiff cannot read."""
    from unidiff import PatchSet

    return [f.source_file[2:] for f in PatchSet(patch)
            if f.source_file != "/dev/null" and f.source_file.startswith("a/")]
