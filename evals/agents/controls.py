"""Control agents: choices that ignore memory, run beside every bank to show what memory adds.

- ``none`` (also ``smallest``): the candidate with the fewest changed code lines (added plus
  removed lines that are neither blank nor comment lines: a patch padded with comments is not
  larger for it);
- ``largest``: the candidate with the most changed code lines;
- ``random``: a candidate drawn uniformly, seeded by the run's seed and what the view shows (so a
  relabelling of candidate ids is a new draw); its expected success is 1/k on a task with k
  candidates.

A size tie is not broken by candidate id: the agent abstains. With no candidates each returns an
empty patch. None of them reads the pack.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict

from dreamer.models import content_hash
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt, abstain
from evals.agents.diffs import diff_stats
from evals.tasks import Candidate


def _by_size(inp: AgentInput, largest: bool) -> Attempt:
    if not inp.candidates:
        return abstain("no candidates")
    sizes = {c.id: diff_stats(c.patch).code for c in inp.candidates}
    best = (max if largest else min)(sizes.values())
    top = tuple(cid for cid, size in sizes.items() if size == best)
    if len(top) > 1:
        return abstain(f"{len(top)} candidates tie at {best} changed lines", top)
    pick = next(c for c in inp.candidates if c.id == top[0])
    word = "largest" if largest else "smallest"
    return Attempt(patch=pick.patch, chosen=pick.id, rationale=f"{word} fix: {best} lines")


@AGENTS.register("none")
class SmallestAgent(Agent):
    """Chooses the smallest candidate patch, ignoring memory."""

    name = "none"

    def attempt(self, inp: AgentInput) -> Attempt:
        return _by_size(inp, largest=False)


AGENTS.register("smallest")(SmallestAgent)


@AGENTS.register("largest")
class LargestAgent(Agent):
    """Chooses the largest candidate patch, ignoring memory."""

    name = "largest"

    def attempt(self, inp: AgentInput) -> Attempt:
        return _by_size(inp, largest=True)


class RandomConfig(BaseModel):
    """Options of the ``random`` agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int = 0
    """Seeds every draw, together with the task and the candidate ids it was shown."""


@AGENTS.register("random")
class RandomAgent(Agent):
    """Chooses a candidate uniformly at random (seeded), ignoring memory."""

    name = "random"
    Config = RandomConfig  # type: ignore[assignment]

    def attempt(self, inp: AgentInput) -> Attempt:
        if not inp.candidates:
            return abstain("no candidates")
        cfg: RandomConfig = self.config  # type: ignore[assignment]
        key = content_hash([cfg.seed, inp.instance_id, [c.id for c in inp.candidates]])
        pick: Candidate = random.Random(key).choice(inp.candidates)
        return Attempt(patch=pick.patch, chosen=pick.id,
                       rationale=f"random draw of {len(inp.candidates)}")
