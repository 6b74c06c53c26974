"""The agent interface: given a task view (never the answer), a patch.

An agent is one small class with a nested pydantic ``Config`` and one method,
``attempt(AgentInput) -> Attempt``, registered by name in ``AGENTS``. Agents return a patch; they
never apply it: the runner applies it to a clean copy, so every agent is graded the same way.

``AgentInput`` is the *task view*: the problem statement, the candidates (id, patch and a neutral
description) and the memory pack, plus a working copy whose history ends at the base commit. It
holds no gold patch, no test patch, no test ids, no oracle memories and no later commit: nothing
an agent could read the answer from. The one exception is the harness's own upper bound, the
``oracle`` agent, which the runner binds to the task's gold with ``for_task``; it is never the
agent under test.

An agent that has no evidence to choose between candidates *abstains* (an empty patch with
``abstained=True``, and the tied candidates): a tie never falls to a candidate id.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from dreamer.models import MemoryPack
from dreamer.registry import Registry
from evals.errors import AgentError
from evals.tasks import Candidate, Task


class AgentInput(BaseModel):
    """Everything an agent sees of a task (the task view)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    instance_id: str
    repo: str
    problem_statement: str
    candidates: tuple[Candidate, ...]
    """Candidate patches under ids relabelled for this run, in a shuffled order."""
    pack: MemoryPack
    """The memory pack: ``pack.text`` for prompts, ``pack.memories`` structured."""
    workdir: Path | None = None
    """The working copy at the base commit, history up to it only (agents may read it; changes
    are discarded). None for agents that do not read the repository (``reads_workdir``)."""


class Attempt(BaseModel):
    """An agent's answer: the patch, which candidate it is (None when written fresh) and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    patch: str
    chosen: str | None = None
    rationale: str = ""
    abstained: bool = False
    """The agent found no ground to choose (no evidence, or a tie between its best)."""
    tied: tuple[str, ...] = ()
    """The candidate ids tied at the top when the agent abstained on a tie."""


def abstain(reason: str, tied: tuple[str, ...] = ()) -> Attempt:
    """The answer of an agent with no ground to choose: no patch, counted as a miss."""
    return Attempt(patch="", chosen=None, rationale=reason, abstained=True, tied=tied)


class Agent(ABC):
    """One way of attempting a task."""

    name: ClassVar[str] = ""
    reads_workdir: ClassVar[bool] = False
    """Whether the agent reads the working copy; the runner makes one only for those that do,
    and only after the grade cache has been consulted for those that do not."""

    class Config(BaseModel):
        """An agent with no options."""

        model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, config: BaseModel | None = None) -> None:
        self.config = config if config is not None else self.Config()

    def for_task(self, task: Task) -> Agent:
        """The agent to run on ``task``: itself. Only the harness's ``oracle`` binds the answer."""
        del task
        return self

    @abstractmethod
    def attempt(self, inp: AgentInput) -> Attempt:
        """Return a patch for the task ``inp`` shows."""


AGENTS: Registry[type[Agent]] = Registry("agent")


def make_agent(name: str, options: dict[str, Any] | None = None, **extra: Any) -> Agent:
    """The agent registered as ``name``, configured from ``options`` (validated by its Config)."""
    import evals.agents  # noqa: F401  registers the built-in agents

    cls = AGENTS.get(name)
    try:
        config = cls.Config(**(options or {}))
    except ValidationError as exc:
        raise AgentError(f"invalid options for agent {name!r}: {exc}") from exc
    return cls(config, **extra) if extra else cls(config)
