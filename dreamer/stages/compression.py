"""compression: shorten long memories to their evidenced conclusion.

Offline, the sentences that state a conclusion about evidenced anchors are kept, in their
original order, until the target is reached; narrative goes. Sentences are never cut, so nothing
is said that the memory did not say. With an LM, ``Compress`` writes the summary, and one that
drops an anchor of the key sentence, or is not shorter, is refused.
"""

from __future__ import annotations

from dreamer.models import Bank, Memory
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    make_judge,
    memory_text,
    stage,
)
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

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        saved = 0
        for memory in editor.active():
            before = count_tokens(memory_text(memory))
            if before <= self.config.max_tokens:
                continue
            summary, key = self._extract(memory)
            if judge is not None:
                words = max(8, self.config.target_tokens * 3 // 4)
                written = judge.compress(memory_text(memory), words)
                if written and _keeps(key, anchors(written)) and (
                    count_tokens(written) < count_tokens(memory.summary)
                ):
                    summary = written
            conditions = memory.conditions[: self.config.max_conditions]
            if summary == memory.summary and conditions == memory.conditions:
                continue  # one long sentence: nothing to drop without cutting it
            child = editor.derive(
                [memory], summary=summary, conditions=conditions, action="changed",
                reason=f"compressed from {before} tokens"
                + (" (LM written)" if judge and summary != self._extract(memory)[0] else ""),
            )
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


def _as_sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _keeps(key: frozenset[str], found: frozenset[str]) -> bool:
    """A rewrite keeps the evidence if it names at least half of the key sentence's anchors."""
    return len(key & found) * 2 >= len(key) and (not key or bool(key & found))
