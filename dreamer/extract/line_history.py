"""Lines of code followed through a repository's later history.

``rewrites(git_dir, path, commit, start, end)`` follows lines ``start``-``end`` of ``path`` as
they were at ``commit`` through the later first-parent commits of the branch (``git log
--follow --first-parent -p -U0`` up to the tip, renames followed): each hunk is mapped onto the
span, which moves with the edits above it. A commit whose change to the span is *logic*, not
only data (a name, an operator or a keyword came or went; strings, numbers and layout alone are
data), rewrote it: the result says what it took out and brought in, and which definitions the
rewritten lines sit in. A change that only gave a module constant another value
(``MAX_RUN_S = 600`` -> ``900``) is reported as that setting. Commits the ingested sessions made
(``session_commits``) are followed but not reported: those sessions' own memories tell them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dreamer.extract.citations import enclosing_definition
from dreamer.extract.git_reader import git_lines
from dreamer.extract.names import line_names, rank
from dreamer.extract.settings import assigned
from dreamer.models import Session

MAX_REWRITES = 5
"""At most this many later rewrites of one span are followed."""
OPERATORS = frozenset({"not", "and", "or", "is", "in"})

_STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_OPERATOR = re.compile(r"<=|>=|==|!=|//|\*\*|(?<![-=<>!])[<>](?!=)|\b(?:not|and|or|is|in)\b")
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_DIFF = re.compile(r"diff --git a/.* b/(.*)$")
CONSTANT = re.compile(r"([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[0-9]*)\s*(?::[^=]+)?=(?!=)")
"""A module-level constant's assignment (``PAGE_SIZE = 50``, ``MAX_RUN_S: int = 600``)."""


@dataclass(frozen=True)
class Rewrite:
    """A later commit that rewrote the logic of a span."""

    commit: str
    at: datetime
    subject: str
    path: str
    """The file's path at the commit (a rename followed)."""
    start: int
    end: int
    """The span at the commit, after its change."""
    lines: tuple[str, ...]
    definitions: tuple[str, ...]
    """The definitions (functions, classes, constants) the rewritten lines sit in."""
    took_out: tuple[str, ...]
    brought_in: tuple[str, ...]
    around: tuple[str, ...]
    """Names on both the removed and the added lines: what the rewritten code still relies on."""
    setting: tuple[str, str, str] | None = None
    """(constant, value before, value after) when the change only gave a constant another
    value (``MAX_RUN_S = 600`` -> ``900``)."""


def _constant_change(removed: list[str], added: list[str]) -> tuple[str, str, str] | None:
    """The module-level constant whose value the change replaced, when it did nothing else."""
    for line in removed:
        match = CONSTANT.match(line)
        if not match:
            continue
        key = match.group(1)
        before = assigned(line, key)
        after = next((v for x in added if (v := assigned(x, key)) is not None), None)
        if before is not None and after is not None and after != before:
            return key, before, after
    return None


def logic_tokens(line: str, path: str = "") -> set[str]:
    """The names and operators of one line of code, its strings left out (data, not logic)."""
    text = _STRING.sub('""', line.split("#", 1)[0])
    return line_names(text, path) | {m.group(0) for m in _OPERATOR.finditer(text)}


def rewrites(git_dir: Path, path: str, commit: str, start: int, end: int,
             skip: Iterable[str] = ()) -> list[Rewrite]:
    """The commits after ``commit`` (first parents up to the branch's tip, oldest first) that
    rewrote the logic of lines ``start``-``end`` of ``path`` as they were at ``commit``; commits
    in ``skip`` (those sessions made) are followed but not reported. A commit off the branch
    (a side branch's) has no later history here."""
    if git_lines(str(git_dir), "merge-base", "--is-ancestor", commit, "HEAD") is None:
        return []
    current = _current_path(git_dir, commit, path)
    if current is None:
        return []
    log = git_lines(str(git_dir), "log", "--first-parent", "--follow", "-M", "-p", "-U0",
               "--format=@%H %cI %s", f"{commit}..HEAD", "--", current)
    found: list[Rewrite] = []
    where, lo, hi = path, start, end
    for change in reversed(_commits(log or ())):
        removed: list[str] = []
        added: list[str] = []
        touched: list[int] = []
        shift = grow = 0
        for hunk in change.hunks:
            old_end = hunk.old_start + hunk.old_len - 1
            if hunk.old_len == 0:  # lines inserted after old_start
                if hunk.old_start < lo:
                    shift += len(hunk.added)
                elif hunk.old_start < hi:
                    grow += len(hunk.added)
                    added.extend(hunk.added)
                    touched.append(hunk.new_start)
            elif old_end < lo:
                shift += len(hunk.added) - hunk.old_len
            elif hunk.old_start <= hi:
                # The hunk is the unit of change: lines it rewrote just outside the span
                # balance the lines it rewrote inside.
                removed.extend(hunk.removed)
                added.extend(hunk.added)
                touched.append(hunk.new_start)
                grow += len(hunk.added) - hunk.old_len
        where = change.path or where
        lo, hi = lo + shift, max(lo + shift, hi + shift + grow)
        if not (removed or added) or _made_by(git_dir, change.sha, skip):
            continue
        gone: set[str] = set().union(*(logic_tokens(x, where) for x in removed))
        came: set[str] = set().union(*(logic_tokens(x, where) for x in added))
        took_out, brought_in = gone - came, came - gone
        setting = None if (took_out or brought_in) else _constant_change(removed, added)
        if not (took_out or brought_in or setting):
            continue  # only data changed (strings, numbers, layout), and no constant's value
        after = list(git_lines(str(git_dir), "show", f"{change.sha}:{where}") or ())
        definitions = tuple(dict.fromkeys(
            d for line in touched if 0 < line <= len(after)
            and (d := enclosing_definition(after, line)) is not None))
        found.append(Rewrite(change.sha, datetime.fromisoformat(change.at).astimezone(UTC),
                             change.subject, where, lo, hi, tuple(after[lo - 1:hi]),
                             definitions, _ranked(took_out),
                             _ranked(brought_in),
                             rank(n for n in gone & came if is_name(n)), setting))
        if len(found) >= MAX_REWRITES:
            break
    return found


def _ranked(tokens: Iterable[str]) -> tuple[str, ...]:
    """Names from the most specific (``rank``), then operators."""
    tokens = set(tokens)
    return (*rank(t for t in tokens if is_name(t)), *sorted(t for t in tokens if not is_name(t)))


def _made_by(git_dir: Path, sha: str, skip: Iterable[str]) -> bool:
    """Whether a session made commit ``sha``, or the branch it merges."""
    skip = tuple(s for s in skip if len(s) >= 7)
    parents = (git_lines(str(git_dir), "rev-list", "--parents", "-n", "1", sha) or ("",))[0].split()
    merged = git_lines(str(git_dir), "rev-list", f"{parents[1]}..{sha}") if len(parents) > 2 else ()
    return any(c.startswith(s) or s.startswith(c) for c in (sha, *(merged or ())) for s in skip)


@dataclass
class _Hunk:
    old_start: int
    old_len: int
    new_start: int
    removed: list[str]
    added: list[str]


@dataclass
class _Commit:
    sha: str
    at: str
    subject: str
    path: str | None
    """The file's path after the commit, when the diff names it."""
    hunks: list[_Hunk]


def _commits(log: Iterable[str]) -> list[_Commit]:
    """The commits of a ``git log -p -U0 --format=@%H %cI %s`` output, newest first."""
    out: list[_Commit] = []
    for row in log:
        if row.startswith("@") and not row.startswith("@@"):
            sha, at, *subject = row[1:].split(" ", 2)
            out.append(_Commit(sha, at, " ".join(subject), None, []))
        elif not out:
            continue
        elif match := _DIFF.match(row):
            out[-1].path = match.group(1)
        elif row.startswith("rename to "):
            out[-1].path = row[len("rename to "):]
        elif match := _HUNK.match(row):
            old_len = 1 if match.group(2) is None else int(match.group(2))
            out[-1].hunks.append(_Hunk(int(match.group(1)), old_len, int(match.group(3)), [], []))
        elif out[-1].hunks and row.startswith("-") and not row.startswith("--- "):
            out[-1].hunks[-1].removed.append(row[1:])
        elif out[-1].hunks and row.startswith("+") and not row.startswith("+++ "):
            out[-1].hunks[-1].added.append(row[1:])
    return out


def _current_path(git_dir: Path, commit: str, path: str) -> str | None:
    """``path`` (as at ``commit``) at the branch's tip, following a rename; None if gone."""
    if git_lines(str(git_dir), "cat-file", "-e", f"HEAD:{path}") is not None:
        return path
    moved = git_lines(str(git_dir), "diff", "-M", "--name-status", commit, "HEAD") or ()
    for row in moved:
        parts = row.split("\t")
        if parts[0].startswith("R") and len(parts) == 3 and parts[1] == path:
            return parts[2]
    return None


def session_commits(git_dir: Path, sessions: Iterable[Session]) -> frozenset[str]:
    """The commits the sessions made: each one's ``commit_start..commit_end``, or its end."""
    found: set[str] = set()
    for session in sessions:
        if not session.commit_end:
            continue
        found.add(session.commit_end)
        if session.commit_start and session.commit_start != session.commit_end:
            found.update(git_lines(str(git_dir), "rev-list",
                              f"{session.commit_start}..{session.commit_end}") or ())
    return frozenset(found)


def is_name(token: str) -> bool:
    """Whether a token of ``logic_tokens`` is a name (not an operator)."""
    return bool(re.match(r"[A-Za-z_]", token)) and token not in OPERATORS
