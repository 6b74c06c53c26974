"""The ``selector`` agent: the offline default, choosing among candidates by the pack's evidence.

The rule, in full (deterministic; ``evals.agents.evidence.terms`` defines a *term*):

1. With an empty pack there is no evidence: the agent abstains (a miss, never a guess).
2. A candidate's terms: *added* terms, those of its diff's added code lines (comment lines are
   prose, not evidence, and are left out), and *path* terms, those of the paths it touches. A
   term's *weight* is ``log(k / n)`` for ``k`` candidates of which ``n`` hold the term: a term
   every candidate holds weighs 0 (it tells them apart not at all).
3. Each memory of the pack gives *fix* terms and *warned* terms:

   - in any memory's summary, the words after ``instead of`` or ``rather than`` up to the end
     of the clause (``;``, ``,``, or a ``.`` ending a sentence, not one inside a dotted name),
     and after ``never``, ``avoid``, ``don't`` or ``do not`` up to the end of the sentence
     (``;``, a dash, or such a ``.``) or the next ``use``/``instead``/``prefer``, are warned
     ("use X instead of Y", "X, never Y or Z", "don't Y -- use X": Y and Z are warned); the rest
     is fix;
   - a ``failure`` memory with no such clause is split at a pivot: the first of the words
     ``instead``, ``use``, ``used``, ``must``, ``should``, ``prefer``, ``always`` not preceded by
     a negation (``never``, ``not``, ``don't``, ``avoid``, ``no``) and not followed by
     ``not``/``never``: the text before it is warned, the text from it on is fix. With no pivot
     the whole summary is warned;
   - conditions and citation paths/test ids are fix terms; a term that is also a fix term is
     never warned;
   - a memory whose scope names a module (a path prefix) speaks only of candidates that touch a
     path under it; for the others it gives nothing.
4. What one memory gives a candidate: the largest weight among its fix terms the candidate holds,
   minus the largest weight among its warned terms the candidate *adds*. One memory can lift a
   candidate by one term's weight at most, so a longer patch gains nothing from holding more
   words (the rule is size-neutral up to chance matches, which the controls measure).
5. Score of a candidate = the sum over memories. The answer is the highest-scoring candidate when
   its score is positive and no other candidate shares it; otherwise the agent abstains (a tie
   never falls to a candidate id or to the order the candidates came in).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from dreamer.models import Memory, MemoryType
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt, abstain
from evals.agents.diffs import diff_stats
from evals.agents.evidence import terms
from evals.tasks import Candidate

_CONTRAST = re.compile(
    r"\b(?:instead of|rather than)\b(.*?)(?=[;,]|\.\s|\.$|$)"
    r"|\b(?:never|avoid|don't|do not)\b"
    r"(.+?)(?=;|\s--\s|\s—\s|\.\s|\.$|$|\s(?:use|instead|prefer)\b)",
    re.IGNORECASE)
_PIVOTS = {"instead", "use", "used", "must", "should", "prefer", "always"}
_NEGATIONS = {"never", "not", "don't", "dont", "do not", "avoid", "no"}
_WORD = re.compile(r"[A-Za-z']+")
EPSILON = 1e-9


def split_contrast(summary: str) -> tuple[str, str] | None:
    """(warned, fix) text by the contrast clauses of rule 3, or None when it has none."""
    found = list(_CONTRAST.finditer(summary))
    if not found:
        return None
    warned = " ".join(m.group(1) or m.group(2) or "" for m in found)
    fix, last = [], 0
    for m in found:
        fix.append(summary[last:m.start()])
        last = m.end()
    fix.append(summary[last:])
    return warned, "".join(fix)


def split_failure(summary: str) -> tuple[str, str]:
    """(warned-against text, fix text) of a failure memory's summary, by rule 3 above."""
    contrast = split_contrast(summary)
    if contrast is not None:
        return contrast
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
    else:
        warned_text, fix_text = split_contrast(memory.summary) or ("", memory.summary)
    fix = terms(fix_text) | terms(context)
    return fix, terms(warned_text) - fix


_COMMENT = re.compile(r"^\s*(?:#|//|--|/\*|\*)")


def code_lines(lines: Sequence[str]) -> list[str]:
    """``lines`` without comment lines (``#``, ``//``, ``--``, block comment lines)."""
    return [line for line in lines if not _COMMENT.match(line)]


def applies_to(memory: Memory, paths: Sequence[str]) -> bool:
    """Whether ``memory`` speaks of a candidate touching ``paths`` (rule 3, last point): a
    module scope (``billing/ledger`` or ``billing.ledger``) must hold one of the paths."""
    module = (memory.scope.module or "").strip().strip("/")
    if not module or not paths:
        return True
    if "/" not in module and not module.endswith(".py"):
        module = module.replace(".", "/")
    return any(p == module or p.startswith(module + "/") or p == module + ".py" for p in paths)


class _Candidates:
    """The candidates' terms and the weight of each term among them (rule 2)."""

    def __init__(self, candidates: Sequence[Candidate]) -> None:
        self.added: dict[str, set[str]] = {}
        self.held: dict[str, set[str]] = {}
        self.paths: dict[str, tuple[str, ...]] = {}
        for c in candidates:
            stats = diff_stats(c.patch)
            added = terms("\n".join(code_lines(stats.added)))
            touched = set().union(*(terms(p) for p in stats.paths)) if stats.paths else set()
            self.added[c.id], self.held[c.id] = added, added | touched
            self.paths[c.id] = stats.paths
        k = len(candidates)
        counts: dict[str, int] = {}
        for held in self.held.values():
            for term in held:
                counts[term] = counts.get(term, 0) + 1
        self.weight = {t: math.log(k / n) for t, n in counts.items()}

    def best(self, wanted: set[str], held: set[str]) -> float:
        return max((self.weight[t] for t in wanted & held), default=0.0)


def scores(candidates: Sequence[Candidate], memories: Sequence[Memory]) -> dict[str, float]:
    """Rules 4 and 5: each candidate's score from the pack's memories."""
    seen = _Candidates(candidates)
    total = {c.id: 0.0 for c in candidates}
    for memory in memories:
        fix, warned = memory_terms(memory)
        for c in candidates:
            if not applies_to(memory, seen.paths[c.id]):
                continue
            total[c.id] += seen.best(fix, seen.held[c.id]) - seen.best(warned, seen.added[c.id])
    return total


def decide(candidates: Sequence[Candidate], score: dict[str, float], what: str) -> Attempt:
    """The top candidate when it alone scores highest and above zero; else abstain."""
    summary = ", ".join(f"{cid}={value:.3g}" for cid, value in score.items())
    top = max(score.values(), default=0.0)
    if top <= EPSILON:
        return abstain(f"no candidate is supported by the pack ({what}: {summary})")
    best = tuple(cid for cid, value in score.items() if top - value <= EPSILON)
    if len(best) > 1:
        return abstain(f"tie between {', '.join(best)} ({what}: {summary})", best)
    pick = next(c for c in candidates if c.id == best[0])
    return Attempt(patch=pick.patch, chosen=pick.id, rationale=f"{what}: {summary}")


@AGENTS.register("selector")
class SelectorAgent(Agent):
    """Chooses the candidate the memory pack's evidence supports most."""

    name = "selector"

    def attempt(self, inp: AgentInput) -> Attempt:
        if not inp.candidates:
            return abstain("no candidates")
        memories = inp.pack.memories
        if not memories:
            return abstain("empty pack: no evidence to choose by")
        return decide(inp.candidates, scores(inp.candidates, memories), "evidence scores")
