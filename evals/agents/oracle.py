"""The ``oracle`` agent: the task's gold patch, the harness's own upper bound.

It is the one agent that sees the answer, and only because the runner binds it to the task with
``for_task``; unbound, it has nothing to return. It is never the agent under test: it tells
whether a task can be solved at all through the harness. ``chosen`` names the candidate whose
patch is the gold patch (whitespace at the ends ignored), or is None when the gold patch is not
among the candidates.
"""

from __future__ import annotations

from evals.agents.base import AGENTS, Agent, AgentInput, Attempt
from evals.errors import AgentError
from evals.tasks import Task


@AGENTS.register("oracle")
class OracleAgent(Agent):
    """Returns the gold patch of the task it was bound to."""

    name = "oracle"

    def __init__(self, config: object = None, gold: str | None = None) -> None:
        super().__init__(None)
        self._gold = gold

    def for_task(self, task: Task) -> Agent:
        return OracleAgent(gold=task.patch)

    def attempt(self, inp: AgentInput) -> Attempt:
        if self._gold is None:
            raise AgentError(f"the oracle was not bound to {inp.instance_id}; the runner binds it")
        gold = self._gold
        chosen = next((c.id for c in inp.candidates if c.patch.strip() == gold.strip()), None)
        return Attempt(patch=gold, chosen=chosen, rationale="gold patch")
