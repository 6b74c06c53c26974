"""The ``llm`` agent: a DSPy program that reads the pack and the candidates and picks a patch.

Any litellm model string works (``--lm openai/gpt-4o-mini``, ``ollama_chat/qwen2.5-coder``...).
The program (``patch_program``) is a ``dspy.Module`` whose one predictor, ``dspy.Predict``
(``ChainOfThought`` with ``reasoning=True``), answers the signature built by ``_signature()``:
inputs ``problem_statement``, ``memory`` (the pack's text) and ``candidates`` (each under
``### <id>``), outputs ``choice`` (a candidate id, or ``new``) and
``patch`` (a unified diff when the choice is ``new`` and ``allow_new`` is set). The LM is passed
with ``dspy.context(lm=...)``, never configured globally; DSPy is imported on first use.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict

from evals.agents.base import AGENTS, Agent, AgentInput, Attempt
from evals.errors import AgentError


class LlmConfig(BaseModel):
    """Options of the ``llm`` agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = "openai/gpt-4o-mini"
    """The litellm model string."""
    base_url: str | None = None
    """An OpenAI-compatible server's base URL (``http://127.0.0.1:8080/v1``)."""
    api_key_env: str | None = None
    """The environment variable holding the key."""
    temperature: float = 0.0
    max_tokens: int = 4000
    reasoning: bool = False
    """Think step by step (``dspy.ChainOfThought``) before answering."""
    allow_new: bool = True
    """Accept a freshly written patch when the model answers ``new``."""
    cache: bool = False
    """Use DSPy's response cache."""
    program: str | None = None
    """A saved agent program (DSPy's ``save``) to load; None: a fresh one."""


@lru_cache(maxsize=1)
def _signature() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import dspy

    class ChoosePatch(dspy.Signature):
        """Pick the patch that resolves the issue in this repository. The memory holds evidenced
        facts from earlier sessions on it: prefer the candidate that follows them; a [failure]
        memory warns against an approach. Answer a candidate id, or `new` with a unified diff."""

        problem_statement: str = dspy.InputField()
        memory: str = dspy.InputField(desc="memories of this repository; may be empty")
        candidates: str = dspy.InputField(desc="candidate patches, each under '### <id>'")
        choice: str = dspy.OutputField(desc="exactly one candidate id, or 'new'")
        patch: str = dspy.OutputField(desc="a unified diff if choice is 'new', else empty")

    return ChoosePatch


def patch_program(reasoning: bool = False, path: str | None = None) -> Any:
    """The agent's program: a ``dspy.Module`` whose ``choose`` predictor (``ChainOfThought``
    with ``reasoning``) answers ``ChoosePatch``; loaded from ``path`` (DSPy's ``load``)."""
    import dspy

    class PatchProgram(dspy.Module):
        """Problem, memory and candidates -> a candidate id (or ``new`` and a diff)."""

        def __init__(self) -> None:
            super().__init__()
            self.choose = (dspy.ChainOfThought if reasoning else dspy.Predict)(_signature())

        def forward(self, problem_statement: str, memory: str, candidates: str) -> Any:
            return self.choose(problem_statement=problem_statement, memory=memory,
                               candidates=candidates)

    program = PatchProgram()
    if path is not None:
        program.load(path)
    return program


@AGENTS.register("llm")
class LlmAgent(Agent):
    """Lets a language model choose (or write) the patch."""

    name = "llm"
    Config = LlmConfig  # type: ignore[assignment]

    def __init__(self, config: LlmConfig | None = None, lm: Any = None,
                 usage: Any = None) -> None:
        super().__init__(config)
        self._lm = lm
        self._program: Any = None
        self.usage = usage
        """A ``dreamer.lm.LMUsage`` counting this agent's calls and failures (shared by the
        copies ``for_task`` makes); created with the LM when not given."""

    def use(self, lm: Any, usage: Any) -> None:
        """Answer with ``lm`` (already built and tried), counting into ``usage``."""
        self._lm, self.usage = lm, usage

    def _model(self) -> Any:
        if self._lm is None:
            from dreamer.lm import make_lm

            cfg: LlmConfig = self.config  # type: ignore[assignment]
            self._lm = make_lm(cfg.model, base_url=cfg.base_url, api_key_env=cfg.api_key_env,
                               temperature=cfg.temperature, max_tokens=cfg.max_tokens,
                               cache=cfg.cache)
        if self.usage is None:
            from dreamer.lm import usage_for

            self.usage = usage_for(self._lm)
        return self._lm

    def attempt(self, inp: AgentInput) -> Attempt:
        import dspy
        from dspy.utils.exceptions import DSPyError

        cfg: LlmConfig = self.config  # type: ignore[assignment]
        if self._program is None:
            self._program = patch_program(cfg.reasoning, cfg.program)
        program = self._program
        listing = "\n\n".join(
            f"### {c.id}\n{c.description}\n```diff\n{c.patch}\n```" for c in inp.candidates
        )
        lm = self._model()
        try:
            with self.usage.metered(), dspy.context(lm=lm):
                answer = program(
                    problem_statement=inp.problem_statement, memory=inp.pack.text or "(none)",
                    candidates=listing or "(none: write the patch)",
                )
            attempt = self._interpret(str(answer.choice), str(answer.patch or ""), inp)
        except (DSPyError, ValueError, TypeError, AgentError) as exc:  # provider, parse, answer
            # No offline rule stands in for the model's choice: the attempt fails, and is
            # counted (``dreamer eval`` stops when the share passes --lm-max-failures).
            self.usage.failed(f"llm agent on {inp.instance_id}", exc, fallback=False)
            if isinstance(exc, AgentError):
                raise
            raise AgentError(
                f"model {cfg.model!r} failed on {inp.instance_id}: {exc}") from exc
        self.usage.ok()
        return attempt

    def _interpret(self, choice: str, patch: str, inp: AgentInput) -> Attempt:
        cfg: LlmConfig = self.config  # type: ignore[assignment]
        wanted = choice.strip().strip("`'\"# ").lower()
        for candidate in inp.candidates:
            if candidate.id.lower() == wanted:
                return Attempt(patch=candidate.patch, chosen=candidate.id, rationale="model choice")
        if wanted == "new" and cfg.allow_new and patch.strip():
            body = patch.strip().removeprefix("```diff").removeprefix("```").removesuffix("```")
            return Attempt(patch=body.strip("\n") + "\n", chosen=None, rationale="model wrote it")
        known = ", ".join(c.id for c in inp.candidates) or "none"
        raise AgentError(
            f"model answered {choice!r} for {inp.instance_id}; expected one of {known}"
            + (" or 'new' with a patch" if cfg.allow_new else "")
        )
