"""The ``none`` agent: what an agent without memory does.

It takes the candidate with the fewest changed lines (added plus removed lines of its diff), ties
broken by candidate id. Rationale: without the hidden fact a task needs, an agent takes the most
direct, smallest fix. It never looks at the memory pack; with no candidates it returns an empty
patch.
"""

from __future__ import annotations

from evals.agents.base import AGENTS, Agent, AgentInput, Attempt
from evals.agents.diffs import diff_stats
from evals.tasks import Candidate


def smallest_first(candidates: tuple[Candidate, ...]) -> list[Candidate]:
    """Candidates ordered by changed lines, then id: the ``none`` agent's preference order."""
    return sorted(candidates, key=lambda c: (diff_stats(c.patch).changed, c.id))


@AGENTS.register("none")
class NoneAgent(Agent):
    """Chooses the smallest candidate patch, ignoring memory."""

    name = "none"

    def attempt(self, inp: AgentInput) -> Attempt:
        ordered = smallest_first(inp.candidates)
        if not ordered:
            return Attempt(patch="", chosen=None, rationale="no candidates")
        pick = ordered[0]
        lines = diff_stats(pick.patch).changed
        return Attempt(patch=pick.patch, chosen=pick.id, rationale=f"smallest fix: {lines} lines")
