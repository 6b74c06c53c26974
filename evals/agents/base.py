"""The agent interface: given a task, its working copy, a memory pack and candidates, a patch.

An agent is one small class with a nested pydantic ``Config`` and one method,
``attempt(AgentInput) -> Attempt``, registered by name in ``AGENTS``. Agents return a patch; they
never apply it: the runner applies it to a clean copy, so every agent is graded the same way.
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
    """Everything an agent sees of a task."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    task: Task
    problem_statement: str
    workdir: Path
    """The working copy at the base commit (agents may read it; changes are discarded)."""
    pack: MemoryPack
    """The memory pack: ``pack.text`` for prompts, ``pack.memories`` structured."""
    candidates: tuple[Candidate, ...]


class Attempt(BaseModel):
    """An agent's answer: the patch, which candidate it is (None when written fresh) and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    patch: str
    chosen: str | None = None
    rationale: str = ""


class Agent(ABC):
    """One way of attempting a task."""

    name: ClassVar[str] = ""

    class Config(BaseModel):
        """An agent with no options."""

        model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, config: BaseModel | None = None) -> None:
        self.config = config if config is not None else self.Config()

    @abstractmethod
    def attempt(self, inp: AgentInput) -> Attempt:
        """Return a patch for ``inp.task``."""


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
