"""Changed rules from history: a setting a memory states is followed through later commits.

A ``setting`` memory (``setting:<path>:<KEY>=<value>``) cites the line that assigns the value at
the session's commit. Reading the file's history after that commit (``git log --follow``, so a
renamed file is followed to its new path), each later commit that assigns ``KEY`` a different
value gives a new ``domain`` memory: the value since that commit, naming the commit, citing the
commit, the line at it and the session that saw the older value, timed by the commit. Nothing
said it in a session: the repository did. Conflict resolution then supersedes the older value
by the newer (``conflicts``), and a replay sees each value only from when it held (``as_of``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dreamer.extract.candidate import Candidate
from dreamer.extract.citations import lines_sha256
from dreamer.extract.git_reader import GitReader
from dreamer.extract.settings import SETTING_TAG, assigned
from dreamer.models import Citation, CitationKind, Memory, MemoryType

MAX_CHANGES = 5
"""At most this many later values of one setting are followed."""


@dataclass(frozen=True)
class Change:
    """A later commit that gave a setting another value."""

    commit: str
    at: datetime
    subject: str
    path: str
    line: int
    text: str
    value: str


def settings_of(memory: Memory) -> list[tuple[str, str, str]]:
    """(path, key, value) of every ``setting`` tag of ``memory``."""
    out = []
    for tag in memory.tags:
        if tag.startswith(f"{SETTING_TAG}:"):
            head, _, value = tag[len(SETTING_TAG) + 1:].partition("=")
            path, _, key = head.rpartition(":")
            if path and key and value:
                out.append((path, key, value))
    return out


def later_values(reader: GitReader, git_dir: Path, path: str, key: str, value: str,
                 since: str) -> list[Change]:
    """The commits after ``since`` (on the branch checked out, oldest first) that gave ``key``
    in ``path`` a value other than the one before them, following renames."""
    from dreamer.extract.git_reader import git_lines

    log = git_lines(str(git_dir), "log", "--reverse", "--follow", "--name-only",
               "--format=@%H %cI %s", f"{since}..HEAD", "--", path)
    changes: list[Change] = []
    current, where = value, path
    commit: tuple[str, datetime, str] | None = None
    for row in log or ():
        if row.startswith("@"):
            sha, stamp, *subject = row[1:].split(" ", 2)
            commit = (sha, datetime.fromisoformat(stamp).astimezone(UTC), " ".join(subject))
            continue
        if not row.strip() or commit is None:
            continue
        where = row.strip()
        lines = reader.read_lines(git_dir, commit[0], where) or []
        found = next(((i, line, v) for i, line in enumerate(lines, start=1)
                      if (v := assigned(line, key)) is not None), None)
        if found is None or found[2] == current:
            continue
        number, text, new = found
        changes.append(Change(commit[0], commit[1], commit[2], where, number, text, new))
        current = new
        if len(changes) >= MAX_CHANGES:
            break
    return changes


def changed_settings(memory: Memory, reader: GitReader, git_dir: Path | None,
                     session_id: str) -> list[Candidate]:
    """Candidates for the later values of the settings ``memory`` states."""
    if git_dir is None:
        return []
    out: list[Candidate] = []
    for path, key, value in settings_of(memory):
        since = next((c.commit for c in memory.citations
                      if c.kind is CitationKind.FILE and c.path == path and c.commit), None)
        if since is None:
            continue
        before = value
        for change in later_values(reader, git_dir, path, key, value, since):
            moved = f" (the file moved from `{path}`)" if change.path != path else ""
            line = Citation(kind=CitationKind.FILE, ref=change.path, path=change.path,
                            start_line=change.line, end_line=change.line,
                            lines_sha256=lines_sha256([change.text]), commit=change.commit)
            out.append(history_candidate(
                memory, session_id, setting_summary(key, change.path, change.value, before,
                                                    change.commit, change.subject, change.at,
                                                    moved),
                change.commit, change.at, [line],
                [f"{SETTING_TAG}:{change.path}:{key}={change.value}"],
                f"commit {change.commit[:12]} set {key}"))
            before = change.value
    return out


def setting_summary(key: str, path: str, value: str, before: str, commit: str, subject: str,
                    at: datetime, moved: str = "") -> str:
    """How a history memory states a setting's value since the commit that set it."""
    return (f"{key} in `{path}` is {value} since commit {commit[:12]} ({subject}, "
            f"{at:%Y-%m-%d}){moved}; it was {before} before, and what assumed {before} no "
            f"longer holds.")


def history_candidate(memory: Memory, session_id: str, summary: str, commit: str, at: datetime,
                      cites: list[Citation], tags: list[str], why: str) -> Candidate:
    """A ``domain`` candidate the repository's history gave about ``memory``'s subject: it
    cites the commit, ``cites`` (the lines at it, the lines the memory saw) and the session that
    saw the older code, and is timed by the commit."""
    cand = Candidate(type=MemoryType.DOMAIN, summary=summary, session_id=session_id,
                     source_seq=None, rule="history", repo=memory.scope.repo,
                     branch=memory.scope.branch, created_at=at)
    cand.cite(Citation(kind=CitationKind.COMMIT, ref=commit, commit=commit))
    for citation in cites:
        cand.cite(citation)
    if (session := next((c for c in memory.citations if c.kind is CitationKind.SESSION),
                        None)) is not None:
        cand.cite(session)
    cand.confirmed_by.add("history")
    cand.affects_correctness = True
    cand.tags.extend(tags)
    cand.reason = f"the repository's history: {why}"
    cand.confidence = 0.8
    return cand
