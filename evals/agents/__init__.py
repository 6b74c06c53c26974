"""The agents that attempt a task with a memory pack, registered by name in ``AGENTS``.

``none`` (smallest candidate, no memory), ``selector`` (evidence-scored choice, the offline
default), ``oracle`` (the gold patch) and ``llm`` (a DSPy program over any litellm model).
"""

from evals.agents import llm, none, oracle, selector
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt, make_agent

__all__ = [
    "AGENTS", "Agent", "AgentInput", "Attempt", "llm", "make_agent", "none", "oracle", "selector",
]
