"""Memories of code rewritten by later commits: what each memory cites or names, followed
through the repository's history (``dreamer.extract.line_history``).

The lines a memory cites at the session's commit, and the definitions it *names*
(``named_definitions``: a function, class or constant that exactly one file defines, with the
module constants a function reads), are followed through the later commits. Each commit that
rewrote their logic gives a ``domain`` memory: "commit X rewrote ``refund_deadline`` in
``boxoffice/refunds.py``: it brought in ``doors_at``, ``REFUND_CUTOFF`` and took out
``starts_at``, ``REFUND_CUTOFF_HOURS``", citing the commit, the lines at it and the lines as the
session saw them, timed by the commit; one that only gave a constant another value gives the
setting's new value. Nothing said it in a session: the repository did.

The older memory is tagged ``rewritten:<commit>@<time>``; the history memory carries what the
commit took out and brought in (``took-out:``, ``brought-in:``, ``around:`` the names the
rewritten lines kept). Conflict resolution supersedes an older memory that states what changed,
naming the commit (``dreamer.stages.rewritten``), and dedupe never merges two memories from
either side of the rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from dreamer.extract.candidate import Candidate
from dreamer.extract.citations import lines_sha256
from dreamer.extract.git_reader import git_lines
from dreamer.extract.history import history_candidate, setting_summary
from dreamer.extract.line_history import CONSTANT, Rewrite, is_name, rewrites
from dreamer.extract.names import is_test_path, rank
from dreamer.extract.settings import SETTING_TAG, assigned
from dreamer.models import Citation, CitationKind, Memory

REWRITE_TAG = "rewrite"
"""Tag of a history memory: ``rewrite:<commit>``."""
REWRITTEN_TAG = "rewritten"
"""Tag of a memory whose cited lines a later commit rewrote: ``rewritten:<commit>@<ISO time>``."""
TOOK_OUT, BROUGHT_IN, AROUND = "took-out", "brought-in", "around"
_CONSTANT_NAME = re.compile(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")


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
        found = git_lines(str(git_dir), "grep", "-n", "-E",
                     rf"^\s*(async\s+)?(def|class)\s+{name}\b|^{name}\s*(:[^=]*)?=[^=]",
                     commit, "--", "*.py") or ()
        places = {row.split(":", 3)[1]: row for row in found if row.count(":") >= 3}
        if len(places) != 1:
            continue
        path, row = next(iter(places.items()))
        lines = list(git_lines(str(git_dir), "show", f"{commit}:{path}") or ())
        start = int(row.split(":", 3)[2])
        end = _block_end(lines, start)
        spans = [(start, end)]
        # The module's constants a function reads are part of its rule (a start hour, a cap).
        used = set(_CONSTANT_NAME.findall("\n".join(lines[start:end]))) if end > start else set()
        spans += [(number, _block_end(lines, number)) for number, text in enumerate(lines, 1)
                  if (m := CONSTANT.match(text)) and m.group(1) in used][:MAX_NAMED]
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
              if change.around and not any(is_name(t) for t in
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
