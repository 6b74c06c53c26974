"""The ``oracle`` agent: the task's gold patch, the harness's own upper bound.

``chosen`` names the candidate whose patch is the gold patch (whitespace at the ends ignored), or
is None when the gold patch is not among the candidates.
"""

from __future__ import annotations

from evals.agents.base import AGENTS, Agent, AgentInput, Attempt


@AGENTS.register("oracle")
class OracleAgent(Agent):
    """Returns the gold patch."""

    name = "oracle"

    def attempt(self, inp: AgentInput) -> Attempt:
        gold = inp.task.patch
        chosen = next((c.id for c in inp.candidates if c.patch.strip() == gold.strip()), None)
        return Attempt(patch=gold, chosen=chosen, rationale="gold patch")
