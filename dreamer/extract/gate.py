"""The write gate: a candidate enters a bank only if it is likely to matter and is evidenced.

A candidate is kept when it is likely to affect correctness, cannot easily be read off the
current source, or was confirmed by a test, a review or an incident; and it is rejected, with one
of the reasons below, when it is generic advice, trivial, unevidenced, a duplicate, or an
instruction to the memory writer that nothing else in the evidence supports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from dreamer.extract.candidate import Candidate
from dreamer.extract.citations import CodeCiter
from dreamer.extract.injection import find_injections
from dreamer.extract.screening import screen
from dreamer.settings import names_cache


class Reason(StrEnum):
    """Why a candidate was rejected."""

    GENERIC = "generic"
    """Advice that holds anywhere ("be more careful", "test more"): no fact about this code."""
    NO_EVIDENCE = "no_evidence"
    """Nothing confirms it and nothing marks it as important or hidden from the source."""
    INJECTION_WITHOUT_EVIDENCE = "injection_without_evidence"
    """Text addressed to the memory writer that no test, review or defect supports."""
    UNSAFE_INSTRUCTION = "unsafe_instruction"
    """It tells agents to weaken a safeguard (skip the tests, bypass hooks, skip reviews)."""
    DUPLICATE = "duplicate"
    """The same memory is already in the bank or was already written from this session."""
    TRIVIAL = "trivial"
    """Too thin to help (a mistyped path, a few words)."""
    CONTENT_FREE = "content_free"
    """It names nothing concrete, or says nothing about what it names
    (``dreamer.extract.substance``)."""
    LM_ERROR = "lm_error"
    """The language model failed on the session; the rule backend wrote its memories instead."""
    UNRESOLVED_CITATION = "unresolved_citation"
    """It cites a file the repository never had."""


_INDEPENDENT = frozenset({"test", "review", "defect"})
_GENERIC = re.compile(
    r"\b(be (more |extra |very )?(careful|thorough|diligent|cautious)|"
    r"(test|check|verify|review) (more|better|harder|thoroughly|carefully|everything)|"
    r"write (more|better) tests|more tests|double[- ]check|pay (more )?attention|"
    r"think (carefully|harder|step by step)|take (your|more) time|follow best practices|"
    r"read (the )?(code|docs|documentation) (more )?carefully|avoid (mistakes|bugs|errors)|"
    r"keep (the )?code clean|communicat(e|ion) (better|more|is key)|quality matters|"
    r"(always )?(run|write) (the |more )?tests( first| before (committing|submitting|pushing|"
    r"merging))?(?=[.!]?$)|"
    r"learn from (your |past )?mistakes|don'?t rush|stay focused|(clean and )?well[- ]documented|"
    r"keep (the |your )?(changes|commits|prs?) (small|focused)|(check|read) the readme( first)?|"
    r"edge cases)\b",
    re.IGNORECASE,
)
_FACTS = re.compile(
    r"`[^`]+`|\S+::\S+|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|"
    r"\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|\b\w+\.\w+\(|\b[A-Z][A-Z0-9]{2,}=|--[a-z][\w-]+|"
    r"\b\w+\(\)"
)
# A file path (never ending in the sentence's full stop), or a file name with a known extension.
PATH = re.compile(
    r"\b[\w.-]+/(?:[\w./-]*[\w/-])?|\b[\w-]+\.(?:py|js|ts|go|rs|java|rb|toml|ya?ml|ini|cfg|json|md|"
    r"rst|txt|sh|sql|lock)\b|\b(?:Makefile|Dockerfile|Procfile|Justfile)\b"
)
_WORD = re.compile(r"[a-z]{4,}")


def facts(text: str) -> set[str]:
    """Code-level facts in ``text``: identifiers, test ids, commands, flags, numbers (not paths)."""
    # A path in backticks leaves "` `" once paths are taken out: that span names nothing.
    return {m.group(0) for m in _FACTS.finditer(PATH.sub(" ", text)) if m.group(0).strip("` ")}


_DOTTED = re.compile(r"\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+\b")


@names_cache
def specifics(text: str) -> frozenset[str]:
    """Facts, file paths and dotted names: what ties ``text`` to this code base rather than any.

    A Python file's path also counts as its module's dotted name, so ``shop/legacy.py`` in a
    lesson meets ``from shop.legacy import ...`` in a diff. Read once per text and process (the
    extractor, the write gate and the dream's stages read the same texts).
    """
    paths = {m.group(0) for m in PATH.finditer(text)}
    dotted = {m.group(0) for m in _DOTTED.finditer(PATH.sub(" ", text))}
    modules = {p[:-3].replace("/", ".") for p in paths if p.endswith(".py")}
    return frozenset(facts(text) | paths | dotted | modules)


def words(text: str) -> set[str]:
    """Lower-case words of four letters or more, identifiers split at ``_`` and case changes."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ")
    return set(_WORD.findall(spaced.lower()))


@dataclass
class Verdict:
    """The gate's decision on one candidate."""

    kept: bool
    reason: Reason | None = None
    detail: str = ""


@dataclass
class Gate:
    """Judges the candidates of one extraction run; remembers what it let through."""

    known_ids: set[str] = field(default_factory=set)
    """Ids of memories already in the bank (and those kept so far in this run)."""
    _seen: set[tuple[str, str, str]] = field(default_factory=set)

    def judge(self, candidate: Candidate, vocabulary: set[str], memory_id: str | None,
              code: CodeCiter | None = None) -> Verdict:
        """Keep or reject ``candidate``; ``vocabulary`` holds the words of the session's code,
        ``code`` reads the session's repository (for the screen against instructions)."""
        if not candidate.citations or memory_id is None:
            return Verdict(False, Reason.NO_EVIDENCE, "it cites nothing")
        if refused := screen(candidate, code):  # instructions never become rules
            return Verdict(False, Reason(refused.reason), refused.detail)
        # Text addressed to the learner needs independent evidence: another event that names
        # the same code facts and is a test run, a review or a defect (an edit alone is the
        # agent's own doing, and may have obeyed the instruction).
        if candidate.injections and not (
            candidate.corroborated and candidate.confirmed_by & _INDEPENDENT
        ):
            said = candidate.injections[0].sentence
            return Verdict(
                False,
                Reason.INJECTION_WITHOUT_EVIDENCE,
                f"addresses the memory writer ({candidate.injections[0].pattern}): {said!r}",
            )
        # Whatever cites it, a memory must never tell agents to weaken a safeguard.
        if unsafe := next((f for f in find_injections(candidate.summary) if f.unsafe), None):
            return Verdict(
                False,
                Reason.UNSAFE_INSTRUCTION,
                f"tells agents to weaken a safeguard: {unsafe.sentence!r}",
            )
        if is_generic(candidate.summary, vocabulary):
            return Verdict(False, Reason.GENERIC, "generic advice with no fact about this code")
        if len(candidate.summary.split()) < 4:
            return Verdict(False, Reason.TRIVIAL, "too short to carry a fact")
        from dreamer.extract.substance import content_free

        if empty := content_free(candidate.summary, candidate.type.value):
            return Verdict(False, Reason.CONTENT_FREE, empty)
        if candidate.rule == "command" and re.search(
            r"No such file or directory|file or directory not found", candidate.summary, re.I
        ):
            return Verdict(
                False, Reason.TRIVIAL, "only a mistyped path; the tree shows the right one"
            )
        if not (candidate.affects_correctness or candidate.not_in_source or candidate.confirmed_by):
            return Verdict(
                False, Reason.NO_EVIDENCE, "no test, review, defect or incident confirms it"
            )
        key = (candidate.session_id, candidate.type.value, _normal(candidate.summary))
        if memory_id in self.known_ids or key in self._seen:
            return Verdict(False, Reason.DUPLICATE, "already in the bank")
        self.known_ids.add(memory_id)
        self._seen.add(key)
        if candidate.confirmed_by == {"observation"}:
            # Only the session's own observation backs it: say so (the lineage records it).
            return Verdict(True, detail=candidate.reason or "confirmed by observation")
        return Verdict(True)


def is_generic(text: str, vocabulary: set[str]) -> bool:
    """Advice that would hold in any repository.

    Generic phrasing with no code-level fact is generic (a file path alone does not make "be
    careful in orders.py" specific); so is a statement with no fact that shares no word with
    the code the session touched.
    """
    if facts(text):
        return False
    if _GENERIC.search(text):
        return True
    return not (words(text) & vocabulary) and not PATH.search(text)


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
