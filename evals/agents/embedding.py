"""The ``embedding`` agent: a second offline agent that reads memories by meaning, not by words.

It scores candidates by embedding similarity (the packaged all-MiniLM-L6-v2, the router's model)
between the pack's memories and each candidate's diff and description. The rule, in full:

1. With an empty pack the agent abstains.
2. A candidate's text: its description, the paths it touches and its added code lines (comment
   lines left out, as the selector does).
3. A memory's *fix* and *warned* texts are the selector's (``evals.agents.selector``): a failure
   memory is split at its pivot, any other memory is all fix (summary and conditions). A memory
   scoped to a module speaks only of candidates touching a path under it.
4. For one memory, each candidate's similarity to its fix text is *centred*: the mean over the
   candidates it speaks of is subtracted, so a memory equally close to every candidate (of the
   same file, the same words) gives nothing, and a longer diff cannot gain by being long. The
   same for the warned text, subtracted.
5. Score = the sum over memories. The top candidate is the answer when it leads the next by at
   least ``margin``; otherwise the agent abstains (a near tie is no evidence).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dreamer.models import Memory, MemoryType
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt, abstain
from evals.agents.diffs import diff_stats
from evals.agents.selector import applies_to, code_lines, split_contrast, split_failure
from evals.tasks import Candidate


class EmbeddingConfig(BaseModel):
    """Options of the ``embedding`` agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    margin: float = Field(default=0.05, ge=0.0)
    """How far the top candidate must lead the next (summed centred cosine) to be chosen."""


def candidate_text(candidate: Candidate) -> str:
    """What the model reads of a candidate: description, touched paths, added lines."""
    stats = diff_stats(candidate.patch)
    return "\n".join([candidate.description, " ".join(stats.paths),
                      *code_lines(stats.added)]).strip()


def memory_texts(memory: Memory) -> tuple[str, str]:
    """(fix text, warned text) of a memory, as the selector splits it."""
    conditions = " ".join(memory.conditions)
    if memory.type is MemoryType.FAILURE:
        warned, fix = split_failure(memory.summary)
    else:
        warned, fix = split_contrast(memory.summary) or ("", memory.summary)
    return f"{fix} {conditions}".strip(), warned.strip()


class _Vectors:
    """Embeddings by text, computed once per process (permutations and budgets repeat them)."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def of(self, texts: Sequence[str]) -> list[Any]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            from dreamer.router.vectors import embedder

            for text, vector in zip(missing, embedder().embed(missing), strict=True):
                self._cache[text] = vector
            if len(self._cache) > 20000:
                self._cache.clear()
        return [self._cache[t] for t in texts]


@AGENTS.register("embedding")
class EmbeddingAgent(Agent):
    """Chooses the candidate closest in meaning to the pack's memories."""

    name = "embedding"
    Config = EmbeddingConfig  # type: ignore[assignment]
    _vectors = _Vectors()

    def attempt(self, inp: AgentInput) -> Attempt:
        from evals.agents.selector import decide

        if not inp.candidates:
            return abstain("no candidates")
        if not inp.pack.memories:
            return abstain("empty pack: no evidence to choose by")
        score = self.scores(inp.candidates, inp.pack.memories)
        cfg: EmbeddingConfig = self.config  # type: ignore[assignment]
        ordered = sorted(score.values(), reverse=True)
        if len(ordered) > 1 and ordered[0] - ordered[1] < cfg.margin:
            tied = tuple(cid for cid, v in score.items() if ordered[0] - v < cfg.margin)
            shown = ", ".join(f"{cid}={v:.3f}" for cid, v in score.items())
            return abstain(f"near tie between {', '.join(tied)} (similarity: {shown})", tied)
        lead = {cid: v - ordered[-1] + 1.0 for cid, v in score.items()}  # positive for decide
        return decide(inp.candidates, lead, "similarity lead")

    def scores(self, candidates: Sequence[Candidate], memories: Sequence[Memory]) -> dict[str,
                                                                                          float]:
        """Rules 2 to 5: each candidate's summed centred similarity."""
        import numpy as np

        texts = [candidate_text(c) for c in candidates]
        split = [memory_texts(m) for m in memories]
        wanted = texts + [t for pair in split for t in pair if t]
        vectors = dict(zip(wanted, self._vectors.of(wanted), strict=True))
        cand = np.stack([vectors[t] for t in texts])
        paths = [diff_stats(c.patch).paths for c in candidates]
        total = np.zeros(len(candidates))
        for memory, (fix, warned) in zip(memories, split, strict=True):
            speaks = np.array([applies_to(memory, p) for p in paths])
            if not speaks.any():
                continue
            for text, sign in ((fix, 1.0), (warned, -1.0)):
                if not text:
                    continue
                sims = cand @ vectors[text]
                centred = np.where(speaks, sims - sims[speaks].mean(), 0.0)
                total += sign * centred
        return {c.id: float(v) for c, v in zip(candidates, total, strict=True)}
