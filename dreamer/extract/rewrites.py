"""Rewritten code from history: the lines a memory cites, followed through later commits.

A memory cites lines of a file at the session's commit. The file's later history on the branch
(``git log --follow --first-parent -p -U0`` up to the tip, renames followed) says which commits
changed those lines, and how: each hunk is mapped onto the cited span, which moves with the
edits above it. A commit whose change to the span is *logic*, not only data (a name, an operator
or a keyword came or went; strings and numbers alone are data, and a changed constant's value is
``dreamer.extract.history``'s), rewrote the code the memory describes. That gives, per commit and
definition, a ``domain`` memory: "commit X rewrote ``refund_deadline`` in ``boxoffice/refunds.py``:
it brought in ``doors_at``, ``REFUND_CUTOFF`` and took out ``starts_at``, ``REFUND_CUTOFF_HOURS``",
citing the commit, the lines at it and the lines as the session saw them, timed by the commit.
Nothing said it in a session: the repository did. A commit that an ingested session made is left
out: that session's own memories tell its change. The definitions a memory *names* are followed
the same way (``named_definitions``: a function, class or constant that exactly one file
defines, with the module constants a function reads), since they are as much what it is about.

The older memory is tagged ``rewritten:<commit>@<time>``; the history memory carries what the
commit took out and brought in (``took-out:``, ``brought-in:``, ``around:`` the names the
rewritten lines kept). Conflict resolution supersedes an older memory that states what changed,
naming the commit, and dedupe never merges two memories from either side of the rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dreamer.extract.candidate import Candidate
from dreamer.extract.citations import _git, enclosing_definition, lines_sha256
from dreamer.extract.history import history_candidate, setting_summary
from dreamer.extract.names import is_test_path, line_names, rank
from dreamer.extract.settings import SETTING_TAG, assigned
from dreamer.models import Citation, CitationKind, Memory, Session

REWRITE_TAG = "rewrite"
"""Tag of a history memory: ``rewrite:<commit>``."""
REWRITTEN_TAG = "rewritten"
"""Tag of a memory whose cited lines a later commit rewrote: ``rewritten:<commit>@<ISO time>``."""
TOOK_OUT, BROUGHT_IN, AROUND = "took-out", "brought-in", "around"
MAX_REWRITES = 5
"""At most this many later rewrites of one cited span are followed."""

_STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_OPERATOR = re.compile(r"<=|>=|==|!=|//|\*\*|(?<![-=<>!])[<>](?!=)|\b(?:not|and|or|is|in)\b")
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_DIFF = re.compile(r"diff --git a/.* b/(.*)$")
_CONSTANT = re.compile(r"([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[0-9]*)\s*(?::[^=]+)?=(?!=)")
_CONSTANT_NAME = re.compile(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")


@dataclass(frozen=True)
class Rewrite:
    """A later commit that rewrote the logic of a cited span."""

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
        match = _CONSTANT.match(line)
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
    if _git(str(git_dir), "merge-base", "--is-ancestor", commit, "HEAD") is None:
        return []
    current = _current_path(git_dir, commit, path)
    if current is None:
        return []
    log = _git(str(git_dir), "log", "--first-parent", "--follow", "-M", "-p", "-U0",
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
        after = list(_git(str(git_dir), "show", f"{change.sha}:{where}") or ())
        definitions = tuple(dict.fromkeys(
            d for line in touched if 0 < line <= len(after)
            and (d := enclosing_definition(after, line)) is not None))
        found.append(Rewrite(change.sha, datetime.fromisoformat(change.at).astimezone(UTC),
                             change.subject, where, lo, hi, tuple(after[lo - 1:hi]),
                             definitions, _ranked(took_out),
                             _ranked(brought_in),
                             rank(n for n in gone & came if _is_name(n)), setting))
        if len(found) >= MAX_REWRITES:
            break
    return found


def _ranked(tokens: Iterable[str]) -> tuple[str, ...]:
    """Names from the most specific (``rank``), then operators."""
    tokens = set(tokens)
    return (*rank(t for t in tokens if _is_name(t)), *sorted(t for t in tokens if not _is_name(t)))


def _made_by(git_dir: Path, sha: str, skip: Iterable[str]) -> bool:
    """Whether a session made commit ``sha``, or the branch it merges."""
    skip = tuple(s for s in skip if len(s) >= 7)
    parents = (_git(str(git_dir), "rev-list", "--parents", "-n", "1", sha) or ("",))[0].split()
    merged = _git(str(git_dir), "rev-list", f"{parents[1]}..{sha}") if len(parents) > 2 else ()
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
    if _git(str(git_dir), "cat-file", "-e", f"HEAD:{path}") is not None:
        return path
    moved = _git(str(git_dir), "diff", "-M", "--name-status", commit, "HEAD") or ()
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
            found.update(_git(str(git_dir), "rev-list",
                              f"{session.commit_start}..{session.commit_end}") or ())
    return frozenset(found)


def history_memories(memory: Memory, git_dir: Path | None, session_commits: Iterable[str],
                     session_id: str) -> tuple[Memory, list[Candidate]]:
    """``memory`` tagged with the later commits that rewrote the lines it cites, and a history
    candidate for each (see the module docstring)."""
    if git_dir is None:
        return memory, []
    skip = tuple(session_commits)
    tags: list[str] = []
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for cite in (*memory.citations, *named_definitions(memory, git_dir)):
        if not (cite.kind is CitationKind.FILE and cite.path and cite.commit
                and cite.start_line and cite.end_line) or is_test_path(cite.path):
            continue  # a test's expectations follow the code's rule: the code says it
        for change in rewrites(git_dir, cite.path, cite.commit, cite.start_line,
                               cite.end_line, skip):
            if (change.commit, change.path) in seen:
                continue  # one history memory per commit and file (cited and named lines)
            seen.add((change.commit, change.path))
            tag = f"{REWRITTEN_TAG}:{change.commit[:12]}@{change.at:%Y-%m-%dT%H:%M:%SZ}"
            if tag not in tags:
                tags.append(tag)
            out.append(_candidate(memory, cite, change, session_id))
    if not tags:
        return memory, out
    return memory.model_copy(update={"tags": (*memory.tags, *tags)}), out


MAX_NAMED = 3
"""At most this many definitions a memory names are followed."""


def named_definitions(memory: Memory, git_dir: Path) -> list[Citation]:
    """The lines, at the memory's commit, of the definitions its words name (a function, a
    class, a module-level constant; found by ``git grep``, kept when exactly one file of the
    repository defines it): as much what the memory is about as the lines it cites."""
    from dreamer.stages.subjects import code_names

    commit = next((c.commit for c in memory.citations
                   if c.kind is CitationKind.FILE and c.commit), None)
    if commit is None:
        return []
    # A dotted name (``fare_engine.service_day``, ``Ledger.total``) names its last part.
    names = list(dict.fromkeys(
        last for n in rank(code_names(memory)) if "=" not in n
        and re.fullmatch(r"[A-Za-z_]\w*", last := n.rsplit(".", 1)[-1])
        and ("_" in last.strip("_") or not last.islower())))[:MAX_NAMED]
    out = []
    for name in names:
        found = _git(str(git_dir), "grep", "-n", "-E",
                     rf"^\s*(async\s+)?(def|class)\s+{name}\b|^{name}\s*(:[^=]*)?=[^=]",
                     commit, "--", "*.py") or ()
        places = {row.split(":", 3)[1]: row for row in found if row.count(":") >= 3}
        if len(places) != 1:
            continue
        path, row = next(iter(places.items()))
        lines = list(_git(str(git_dir), "show", f"{commit}:{path}") or ())
        start = int(row.split(":", 3)[2])
        end = _block_end(lines, start)
        spans = [(start, end)]
        # The module's constants a function reads are part of its rule (a start hour, a cap).
        used = set(_CONSTANT_NAME.findall("\n".join(lines[start:end]))) if end > start else set()
        spans += [(number, _block_end(lines, number)) for number, text in enumerate(lines, 1)
                  if (m := _CONSTANT.match(text)) and m.group(1) in used][:MAX_NAMED]
        out += [Citation(kind=CitationKind.FILE, ref=path, path=path, start_line=a, end_line=b,
                         lines_sha256=lines_sha256(lines[a - 1:b]), commit=commit)
                for a, b in dict.fromkeys(spans)]
    return list(dict.fromkeys(out))


def _block_end(lines: list[str], start: int) -> int:
    """The last line of the definition at 1-based ``start``: its indented body, or a
    constant's bracketed value."""
    head = lines[start - 1]
    indent = len(head) - len(head.lstrip())
    if re.match(r"\s*(async\s+)?(def|class)\b", head):
        end = start
        for number in range(start + 1, len(lines) + 1):
            text = lines[number - 1]
            if text.strip() and len(text) - len(text.lstrip()) <= indent \
                    and not text.lstrip().startswith((")", "]", "}")):
                break
            if text.strip():
                end = number
        return end
    if head.rstrip().endswith(("{", "[", "(")):
        for number in range(start + 1, len(lines) + 1):
            if lines[number - 1][:1] in (")", "]", "}"):
                return number
    return start


def _candidate(memory: Memory, cite: Citation, change: Rewrite, session_id: str) -> Candidate:
    named = ", ".join(f"`{d}`" for d in change.definitions[:3])
    what = f"{named} in `{change.path}`" if named else f"`{change.path}`"
    moved = f" (the file moved from `{cite.path}`)" if change.path != cite.path else ""
    if change.setting is not None:
        return _setting_candidate(memory, cite, change, session_id, moved)
    parts = []
    if change.brought_in:
        parts.append("brought in " + ", ".join(f"`{t}`" for t in change.brought_in[:6]))
    if change.took_out:
        parts.append("took out " + ", ".join(f"`{t}`" for t in change.took_out[:6]))
    beside = (f" beside {', '.join(f'`{t}`' for t in change.around[:4])}"
              if change.around and not any(_is_name(t) for t in
                                           (*change.brought_in, *change.took_out)) else "")
    summary = (f"Commit {change.commit[:12]} ({change.at:%Y-%m-%d}, {change.subject}) rewrote "
               f"{what}{moved}: it {' and '.join(parts)}{beside}; what relied on the earlier "
               f"code there no longer holds.")
    return history_candidate(
        memory, session_id, summary, change.commit, change.at, [*_at_commit(change), cite],
        [f"{REWRITE_TAG}:{change.commit[:12]}", *(f"{TOOK_OUT}:{t}" for t in change.took_out),
         *(f"{BROUGHT_IN}:{t}" for t in change.brought_in),
         *(f"{AROUND}:{t}" for t in change.around)],
        f"commit {change.commit[:12]} rewrote {what}")


def _at_commit(change: Rewrite, line: int | None = None) -> list[Citation]:
    """The rewritten lines at the commit (or one of them)."""
    if not change.lines:
        return []
    start, end = (line, line) if line is not None else (change.start, change.end)
    text = list(change.lines[start - change.start:end - change.start + 1])
    return [Citation(kind=CitationKind.FILE, ref=change.path, path=change.path,
                     start_line=start, end_line=end, lines_sha256=lines_sha256(text),
                     commit=change.commit)]


def _setting_candidate(memory: Memory, cite: Citation, change: Rewrite, session_id: str,
                       moved: str) -> Candidate:
    """A constant the cited lines define, given another value by the commit: the setting's
    value since then (as ``dreamer.extract.history`` states a followed setting)."""
    key, before, after = change.setting  # type: ignore[misc]
    line = next((i for i, text in enumerate(change.lines, change.start)
                 if assigned(text, key) == after), None)
    return history_candidate(
        memory, session_id,
        setting_summary(key, change.path, after, before, change.commit, change.subject,
                        change.at, moved),
        change.commit, change.at, [*(_at_commit(change, line) if line else []), cite],
        [f"{SETTING_TAG}:{change.path}:{key}={after}"], f"commit {change.commit[:12]} set {key}")


def _is_name(token: str) -> bool:
    return bool(re.match(r"[A-Za-z_]", token)) and token not in ("not", "and", "or", "is", "in")


def rewrite_of(memory: Memory) -> tuple[str, frozenset[str], frozenset[str], frozenset[str]] | None:
    """(commit, took out, brought in, around) of a history memory, or None."""
    commit = next((t.split(":", 1)[1] for t in memory.tags
                   if t.startswith(f"{REWRITE_TAG}:")), None)
    if commit is None:
        return None

    def values(prefix: str) -> frozenset[str]:
        return frozenset(t.split(":", 1)[1] for t in memory.tags if t.startswith(f"{prefix}:"))

    return commit, values(TOOK_OUT), values(BROUGHT_IN), values(AROUND)


def rewritten_by(memory: Memory) -> dict[str, datetime]:
    """Commit -> time of the later commits that rewrote lines ``memory`` cites."""
    found: dict[str, datetime] = {}
    for tag in memory.tags:
        if tag.startswith(f"{REWRITTEN_TAG}:"):
            commit, _, at = tag.split(":", 1)[1].partition("@")
            try:
                found[commit] = datetime.fromisoformat(at.replace("Z", "+00:00"))
            except ValueError:
                continue
    return found
