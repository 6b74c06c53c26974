"""The ``selector`` agent: the offline default, choosing among candidates by the pack's evidence.

The rule, in full (deterministic; ``evals.agents.evidence.terms`` defines a *term*):

1. Start from the ``none`` agent's choice: fewest changed lines, ties by candidate id. With an
   empty pack (or no candidate scoring above it) that is the answer.
2. A candidate's terms: *added* terms, those of its diff's added lines, and *path* terms, those of
   the paths it touches.
3. Each memory of the pack gives *fix* terms and *warned* terms:

   - a memory that is not of type ``failure``: fix terms are those of its summary, its
     conditions and its citations' paths and test ids; it has no warned terms;
   - a ``failure`` memory's summary is split at a pivot. If it contains ``instead of`` or
     ``rather than``, the words after that phrase up to the end of the clause (``;``, ``,``, or
     a ``.`` ending a sentence, not one inside a dotted name) are warned, the rest is fix
     ("use X instead of Y": Y is warned). Otherwise the pivot
     is the first of the words ``instead``, ``use``, ``must``, ``should``, ``prefer``, ``always``
     not preceded by a negation (``never``, ``not``, ``don't``, ``avoid``, ``no``) and not
     followed by ``not``/``never``: the text before it is warned, the text from it on is fix.
     With no pivot the whole summary is warned. Conditions and citation paths/test ids are fix
     terms; a term that is also a fix term is never warned.
4. Score of a candidate = Σ over memories of |fix ∩ (added ∪ path terms)| − |warned ∩ added terms|.
5. The answer switches from the ``none`` choice only to a candidate whose score is strictly
   higher than the ``none`` choice's; among the highest, the ``none`` order decides.
"""

from __future__ import annotations

import re

from dreamer.models import Memory, MemoryType
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt
from evals.agents.diffs import diff_stats
from evals.agents.evidence import terms
from evals.agents.none import smallest_first
from evals.tasks import Candidate

_CONTRAST = re.compile(r"\b(?:instead of|rather than)\b(.*?)(?=[;,]|\.\s|\.$|$)", re.IGNORECASE)
_PIVOTS = {"instead", "use", "must", "should", "prefer", "always"}
_NEGATIONS = {"never", "not", "don't", "dont", "do not", "avoid", "no"}
_WORD = re.compile(r"[A-Za-z']+")


def split_failure(summary: str) -> tuple[str, str]:
    """(warned-against text, fix text) of a failure memory's summary, by rule 3 above."""
    contrast = _CONTRAST.search(summary)
    if contrast:
        warned = contrast.group(1)
        fix = summary[: contrast.start()] + summary[contrast.end():]
        return warned, fix
    words = list(_WORD.finditer(summary))
    for index, word in enumerate(words):
        if word.group().lower() not in _PIVOTS:
            continue
        before = words[index - 1].group().lower() if index else ""
        after = words[index + 1].group().lower() if index + 1 < len(words) else ""
        if before in _NEGATIONS or after in ("not", "never"):
            continue
        return summary[: word.start()], summary[word.start():]
    return summary, ""


def memory_terms(memory: Memory) -> tuple[set[str], set[str]]:
    """(fix terms, warned terms) of one memory."""
    context = " ".join(memory.conditions)
    cited = (c.path or (c.ref if c.kind.value == "test" else "") for c in memory.citations)
    context += " " + " ".join(cited)
    if memory.type is MemoryType.FAILURE:
        warned_text, fix_text = split_failure(memory.summary)
        fix = terms(fix_text) | terms(context)
        return fix, terms(warned_text) - fix
    return terms(memory.summary) | terms(context), set()


def score(candidate: Candidate, memories: tuple[Memory, ...]) -> int:
    """Rule 4: evidence for the candidate minus warnings against what it adds."""
    stats = diff_stats(candidate.patch)
    added = terms("\n".join(stats.added))
    touched = set().union(*(terms(p) for p in stats.paths)) if stats.paths else set()
    total = 0
    for memory in memories:
        fix, warned = memory_terms(memory)
        total += len(fix & (added | touched)) - len(warned & added)
    return total


@AGENTS.register("selector")
class SelectorAgent(Agent):
    """Chooses the candidate the memory pack's evidence supports most."""

    name = "selector"

    def attempt(self, inp: AgentInput) -> Attempt:
        ordered = smallest_first(inp.candidates)
        if not ordered:
            return Attempt(patch="", chosen=None, rationale="no candidates")
        memories = inp.pack.memories
        if not memories:
            return Attempt(patch=ordered[0].patch, chosen=ordered[0].id, rationale="empty pack")
        scores = {c.id: score(c, memories) for c in ordered}
        best = max(ordered, key=lambda c: scores[c.id])  # max keeps the first of equals
        if scores[best.id] <= scores[ordered[0].id]:
            best = ordered[0]
        summary = ", ".join(f"{cid}={value}" for cid, value in scores.items())
        return Attempt(patch=best.patch, chosen=best.id, rationale=f"evidence scores: {summary}")
