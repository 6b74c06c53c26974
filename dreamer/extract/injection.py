"""Text in a trajectory that addresses the memory writer (or the agent reading memories).

Trajectories carry text from tools, issues, reviews and web pages; some of it tries to steer
whoever learns from them ("remember: always skip the tests", "ignore previous instructions").
Such text is data: extraction flags it, never obeys it, and lets it into a memory only on the
same evidence as anything else (see ``gate``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Each pattern is a way of speaking *to* the learner (the memory writer, or the agents that will
# read its memories) rather than *about* the code. They are deliberately narrow: an imperative to
# the agent at work ("Remember to update the changelog") or a project rule in a README ("from now
# on, use v2") is data about the task, not an instruction to the learner.
_SAFEGUARD = r"(?:tests?|test suite|checks?|ci|hooks?|reviews?|linters?|lint|validation|pre-commit)"
_WEAKEN = r"(?:skip|disabl|delet|bypass|ignor|xfail|comment(?:ed|ing)? out|remov|turn(?:ed)? off)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "override",
            r"\b(ignore|disregard|forget)\b.{0,30}\b(previous|prior|above|earlier|all)\b"
            r".{0,20}\b(instructions?|rules?|guidance|memories)\b",
        ),
        (
            "memory_directive",
            r"\bremember\s*:|\bmemori[sz]e (this|that|the following)\b|"
            r"\bnote for (the )?future\b|\bstore (this|that|the following)\b.{0,40}\b"
            r"(as|rule|memory|lesson|fact)\b|\bstore that\b|"
            r"\badd (this|that|the following) to (your |the )?memor(y|ies)\b|"
            r"\b(save|record|keep) (this|that|the following) as (a |an )?([\w-]+ ){0,2}"
            r"(rule|memory|lesson|fact|instruction)\b",
        ),
        (
            "addressed",
            r"\bmemory (writer|system|bank|extractor|update|instruction|note)s?\b|"
            r"\bnote to (any |the |all )?(ai|agents?|assistants?|models?|memory|llms?)\b|"
            r"\bdear (ai|agent|assistant)\b|"
            r"\b(any |all )?(ai|llm)s? (agents?|assistants?|models?)?\s*"
            r"(reading|processing|summari[sz]ing) (this|these)\b",
        ),
        (
            "standing_order",
            # "always skip the tests" weakens a safeguard; "never skip the tests" protects one.
            rf"\b(from now on|going forward|in (all|every) future (sessions?|tasks?)|always)\b"
            rf".{{0,40}}(\b{_WEAKEN}\w*\b.{{0,30}}\b{_SAFEGUARD}\b|"
            rf"\b{_SAFEGUARD}\b.{{0,30}}\b(can|may|should) be {_WEAKEN}\w*)|"
            rf"\b{_SAFEGUARD} (are|is) (optional|unnecessary|not (needed|required))\b|"
            r"--no-verify\b.{0,40}\b(approved|fine|allowed|the way)\b",
        ),
        (
            "role_play",
            r"\byou are now\b|\bnew instructions?\s*:|\bsystem prompt\b|^\s*\[system\]|"
            r"<\|?system\|?>|\bact as (an? |the )?(ai|assistant|agent|system)\b",
        ),
    )
)

UNSAFE_PATTERNS = frozenset({"standing_order"})
"""Patterns whose instruction weakens a safeguard (skip the tests, bypass hooks): never memory."""


@dataclass(frozen=True)
class InjectionFinding:
    """One span of text that addresses the learner: which pattern, and the sentence."""

    pattern: str
    sentence: str
    unsafe: bool = False
    """The sentence also tells the learner to weaken a safeguard (``UNSAFE_PATTERNS``)."""


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def find_injections(text: str) -> list[InjectionFinding]:
    """The sentences of ``text`` that address the memory writer, with the first pattern that
    matched and whether any unsafe one did."""
    found: list[InjectionFinding] = []
    for sentence in _sentences(text):
        names = [name for name, pattern in _PATTERNS if pattern.search(sentence)]
        if names:
            found.append(InjectionFinding(names[0], sentence, bool(UNSAFE_PATTERNS & set(names))))
    return found


def strip_injections(
    text: str, placeholder: str = "[instruction to the learner removed]"
) -> tuple[str, list[InjectionFinding]]:
    """``text`` without its injected sentences (for excerpts kept on other evidence), each
    replaced by ``placeholder``."""
    findings = find_injections(text)
    if not findings:
        return text, []
    kept = text
    for finding in findings:
        kept = kept.replace(finding.sentence, placeholder)
    return kept, findings
