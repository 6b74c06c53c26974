"""compression: shorten long memories to their evidenced conclusion.

Offline, the sentences that state a conclusion about evidenced anchors are kept, in their
original order, until the target is reached; narrative goes. Sentences are never cut, so nothing
is said that the memory did not say, and a shortened text that would be content-free
(``dreamer.extract.substance``) is not written: the memory keeps its words. With an LM,
``Compress`` writes the summary, and one that drops an anchor of the key sentence, or is not
shorter, is refused.

The evidence list is shortened too: a memory citing several events of one session (a merge
gathers many) cites that session once, by its first cited event. Every file, test, review,
defect and commit citation stays; the event citations dropped stay on the superseded parent,
which the new memory's lineage names, so nothing is lost and a memory no longer grows with
every event of a session it learnt from.
"""

from __future__ import annotations

import re

from dreamer.extract.names import PYTHON_NAMES
from dreamer.extract.substance import content_free
from dreamer.models import Bank, Citation, Memory
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    make_judge,
    memory_text,
    session_of,
    stage,
)
from dreamer.stages.subjects import text_code_names
from dreamer.stages.text import anchors, conclusion_score, sentences
from dreamer.tokens import count_tokens


@stage("compression")
class Compression(Stage):
    """Rewrites memories longer than ``max_tokens`` into at most about ``target_tokens``."""

    class Config(StageConfig):
        max_tokens: int = 48
        """Memories whose summary and conditions take more tokens than this are compressed."""
        target_tokens: int = 32
        """What a compressed summary aims at (its best sentence is kept even if longer)."""
        max_conditions: int = 2
        """Conditions kept, first ones first."""
        one_event_per_session: bool = True
        """Cite each session once (its first cited event); the other events stay on the parent."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        saved = 0
        for memory in editor.active():
            before = count_tokens(memory_text(memory))
            summary, conditions = memory.summary, memory.conditions
            if before > self.config.max_tokens:
                summary, key = self._extract(memory)
                if judge is not None:
                    words = max(8, self.config.target_tokens * 3 // 4)
                    written = judge.compress(memory_text(memory), words)
                    if written and _keeps(key, anchors(written)) and (
                        count_tokens(written) < count_tokens(memory.summary)
                    ):
                        summary = written
                conditions = memory.conditions[: self.config.max_conditions]
                # Nothing named is lost: code the dropped sentences named (``renew()`` said only
                # in a review's narrative) stays as an "also named" condition, without the
                # narrative around it.
                text = memory_text(memory)
                if missing := sorted(n for n in text_code_names(text) - text_code_names(summary)
                                     - text_code_names(" ".join(conditions)) if _specific(n, text)):
                    conditions += ("also named " + ", ".join(f"`{n}`" for n in missing),)
                if content_free(summary, memory.type.value):
                    summary = memory.summary  # a shorter text that says nothing is no summary
            citations = (_one_event_per_session(memory.citations)
                         if self.config.one_event_per_session else memory.citations)
            if (summary, conditions, citations) == (
                memory.summary, memory.conditions, memory.citations
            ):
                continue  # short, or one long sentence, and no repeated session
            reasons = []
            if summary != memory.summary or conditions != memory.conditions:
                reasons.append(f"compressed from {before} tokens" + (
                    " (LM written)" if judge and summary != self._extract(memory)[0] else ""))
            if citations != memory.citations:
                reasons.append(f"cites each session once ({len(memory.citations) - len(citations)}"
                               " more event citations stay on the parent)")
            child = editor.derive([memory], summary=summary, conditions=conditions,
                                  citations=citations, action="changed", reason="; ".join(reasons))
            saved += before - count_tokens(memory_text(child))
        return editor.result(tokens_saved=saved, lm_failures=judge.failures if judge else 0)

    def _extract(self, memory: Memory) -> tuple[str, frozenset[str]]:
        """The extractive summary and the anchors of its key sentence."""
        evidence = frozenset(
            a for c in memory.citations for a in anchors(" ".join(filter(None, (c.path, c.ref))))
        )
        parts = sentences(memory.summary, clauses=False)
        if len(parts) < 2:
            return memory.summary, anchors(memory.summary)
        ranked = sorted(range(len(parts)),
                        key=lambda i: (-conclusion_score(parts[i], evidence), i))
        chosen = [ranked[0]]
        used = count_tokens(parts[ranked[0]])
        for i in ranked[1:]:
            cost = count_tokens(parts[i])
            if used + cost > self.config.target_tokens or conclusion_score(parts[i], evidence) <= 0:
                continue
            chosen.append(i)
            used += cost
        if len(chosen) == len(parts):
            return memory.summary, anchors(parts[ranked[0]])
        text = " ".join(_as_sentence(parts[i]) for i in sorted(chosen))
        return text, anchors(parts[ranked[0]])


def _one_event_per_session(citations: tuple[Citation, ...]) -> tuple[Citation, ...]:
    """``citations`` with only the first cited event of each session, order kept."""
    seen: set[str] = set()
    kept = []
    for citation in citations:
        session = session_of(citation)
        if session is not None:
            if session in seen:
                continue
            seen.add(session)
        kept.append(citation)
    return tuple(kept)


def _specific(name: str, text: str) -> bool:
    """Whether ``name`` names something of the code base rather than a word of the narrative:
    a dotted, underscored or capitalised name, or a plain word written as a call
    (``renew()``); never a Python keyword or builtin (``None``, ``default`` are not kept)."""
    if name in PYTHON_NAMES or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return False
    return ("_" in name or "." in name or name != name.lower()
            or re.search(rf"(?<![\w.]){re.escape(name)}\(", text) is not None)


def _as_sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _keeps(key: frozenset[str], found: frozenset[str]) -> bool:
    """A rewrite keeps the evidence if it names at least half of the key sentence's anchors."""
    return len(key & found) * 2 >= len(key) and (not key or bool(key & found))
