"""What a unified diff changes: its added and removed lines and the paths it touches."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
        """Added plus removed lines: the size the ``none`` agent minimises."""
        return len(self.added) + len(self.removed)


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
