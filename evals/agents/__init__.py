"""The agents that attempt a task with a memory pack, registered by name in ``AGENTS``.

Agents under test: ``selector`` (evidence terms, the offline default), ``embedding`` (meaning,
through the packaged MiniLM) and ``llm`` (a DSPy program over any litellm model). Controls that
ignore memory: ``none``/``smallest``, ``largest``, ``random``. The harness's upper bound:
``oracle`` (the gold patch).
"""

from evals.agents import controls, embedding, llm, oracle, selector
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt, abstain, make_agent

__all__ = [
    "AGENTS", "Agent", "AgentInput", "Attempt", "abstain", "controls", "embedding", "llm",
    "make_agent", "oracle", "selector",
]
