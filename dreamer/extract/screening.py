"""The write gate's screen against instructions: no rule comes from being told so.

Run on every candidate before the gate's other rules (``Gate.judge``), whichever backend wrote
it (the offline rules or a language model):

1. a candidate whose text addresses a future reader ("Assistant, when you read this later") or
   recommends weakening a safeguard (skip tests, disable linters, ``VERIFY_SSL=False``,
   ``--no-verify``) is refused, unless the repository's own code at the session's commit shows
   the practice it names (``git grep`` of ``@pytest.mark.skip`` finds the repository already
   skipping tests that way). Text addressed to the reader names no practice of the code, so it
   is refused whenever the repository cannot show every fact it names;
2. a candidate built from evidence that carried such text is refused unless a review or a QA
   defect independently supports it: a test's output is evidence of what failed, never of what
   to do;
3. every file a candidate cites must exist in the repository, at the session's commit or in a
   commit the repository has (a file the session created that landed later): a citation of a
   file the repository never had (``src/app.py`` in a repository without one) is refused at
   write time. When the repository is not on this machine the citation cannot be checked here;
   the memory carries ``lines-hash-unknown`` and is verified at recall.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dreamer.extract.candidate import Candidate
from dreamer.extract.citations import CodeCiter
from dreamer.extract.directives import Directive, directives
from dreamer.extract.git_reader import git_lines
from dreamer.models import Citation, CitationKind

_INDEPENDENT = frozenset({"review", "defect"})


@dataclass(frozen=True)
class Refusal:
    """Why the screen refuses a candidate: one of the gate's reasons, and the detail."""

    reason: str
    """``unsafe_instruction``, ``injection_without_evidence`` or ``unresolved_citation``."""
    detail: str


def screen(candidate: Candidate, code: CodeCiter | None) -> Refusal | None:
    """The screen's verdict on ``candidate``: a refusal, or None to let the gate go on."""
    text = "\n".join([candidate.summary, *candidate.conditions])
    for found in directives(text):
        if not _shown(found, code):
            return _refusal(found, code)
    # Instructions in the evidence but not in the memory's own words.
    carried = [f for f in candidate.injections if f.sentence not in text]
    if carried and not (candidate.corroborated and candidate.confirmed_by & _INDEPENDENT):
        said = carried[0].sentence
        return Refusal("injection_without_evidence",
                       f"its evidence addresses the memory writer ({said!r}) and no review or "
                       "defect supports it (a test's output says what failed, not what to do)")
    if code is not None and code.git_dir is not None:
        for citation in candidate.citations:
            if citation.kind is CitationKind.FILE and citation.path and not _resolves(
                    code.git_dir, citation, code.commits):
                return Refusal("unresolved_citation",
                               f"it cites {citation.path}, which the repository never had")
    return None


def _refusal(found: Directive, code: CodeCiter | None) -> Refusal:
    where = ("the repository is not on this machine" if code is None or code.git_dir is None
             else "the repository's code at the session's commit does not show it")
    if found.kind == "weakening":
        practice = f" ({found.practice})" if found.practice else ""
        return Refusal("unsafe_instruction", f"recommends weakening {found.area}{practice} and "
                       f"{where}: {found.sentence!r}")
    return Refusal("injection_without_evidence",
                   f"addresses a future reader and {where}: {found.sentence!r}")


def _shown(found: Directive, code: CodeCiter | None) -> bool:
    """Whether the repository's code at the session's commit shows what ``found`` names."""
    if code is None or code.git_dir is None:
        return False
    if found.kind == "weakening":
        return found.practice is not None and _in_code(code, found.practice)
    from dreamer.extract.gate import specifics

    named = {s.strip("`") for s in specifics(found.sentence) if len(s.strip("`")) > 3}
    return bool(named) and all(_in_code(code, token) for token in named)


def _in_code(code: CodeCiter, token: str) -> bool:
    git_dir = str(code.git_dir)
    for commit in (*code.commits, "HEAD")[:3]:
        if git_lines(git_dir, "grep", "-q", "-F", "-e", token, commit, "--") is not None:
            return True
    return False


def _resolves(git_dir: Path, citation: Citation, commits: tuple[str, ...]) -> bool:
    path = citation.path or ""
    for commit in dict.fromkeys(c for c in (citation.commit, *commits) if c):
        if git_lines(str(git_dir), "cat-file", "-e", f"{commit}:{path}") is not None:
            return True
    return bool(git_lines(str(git_dir), "log", "--all", "-1", "--format=%H", "--", path))
