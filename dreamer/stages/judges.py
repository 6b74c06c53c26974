"""The judgements and writing that stages hand to a language model, as DSPy modules.

Each signature is a typed contract; :class:`Judge` runs one under ``dspy.context(lm=...)`` with
the LM from the stage context. A call that fails (provider error, unparsable answer) returns
None and the stage falls back to exactly its offline decision; every call, failure and fallback
is counted in the run's :class:`dreamer.lm.LMUsage`, which aborts the run (``LMRunError``) when
failures pass its threshold. Any other exception is a bug and propagates.
This module imports DSPy at import time, so stages import it only when an LM is given.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Literal

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import dspy  # noqa: E402
from dspy.utils.exceptions import DSPyError  # noqa: E402

from dreamer.lm import LMUsage, usage_for  # noqa: E402

log = logging.getLogger(__name__)


class SameFact(dspy.Signature):
    """Do these two memories of a coding agent state the same lesson, in different words?"""

    a: str = dspy.InputField()
    b: str = dspy.InputField()
    same: bool = dspy.OutputField()


class Contradicts(dspy.Signature):
    """How do these two memories about the same repository relate? `contradicts` when following
    one means breaking the other (for example a rule that changed)."""

    a: str = dspy.InputField()
    b: str = dspy.InputField()
    relation: Literal["contradicts", "compatible", "unrelated"] = dspy.OutputField()


class Abstract(dspy.Signature):
    """Write the one general rule, in one or two sentences, that these episodes share. Keep the
    exact identifiers, paths and commands they name; add nothing they do not support."""

    episodes: list[str] = dspy.InputField()
    rule: str = dspy.OutputField()


class Narrow(dspy.Signature):
    """Which module (a path prefix of the cited files) does this rule hold in? Answer `any` when
    it holds across the repository."""

    memory: str = dspy.InputField()
    cited_paths: list[str] = dspy.InputField()
    module: str = dspy.OutputField()


class Compress(dspy.Signature):
    """Shorten this memory to its evidenced conclusion, within the word limit. Keep the exact
    identifiers, paths, commands and values; drop the narrative."""

    memory: str = dspy.InputField()
    max_words: int = dspy.InputField()
    summary: str = dspy.OutputField()


class Related(dspy.Signature):
    """Would an agent using memory `a` want to see memory `b` as well?"""

    a: str = dspy.InputField()
    b: str = dspy.InputField()
    related: bool = dspy.OutputField()


class Generic(dspy.Signature):
    """Is this memory generic advice any engineer already knows, with nothing specific to the
    repository that would change what an agent does?"""

    memory: str = dspy.InputField()
    generic: bool = dspy.OutputField()


class Checklist(dspy.Signature):
    """Turn this confirmed procedure into a short checklist of concrete steps, in order, keeping
    the exact commands, paths and identifiers."""

    procedure: str = dspy.InputField()
    steps: list[str] = dspy.OutputField()


class Judge:
    """Runs the signatures above with one LM, never configuring DSPy globally."""

    def __init__(self, lm: Any, usage: LMUsage | None = None) -> None:
        self.lm = lm
        self.usage = usage if usage is not None else usage_for(lm)
        self.failures = 0
        self.calls = 0

    def _ask(self, signature: type[dspy.Signature], field: str, **inputs: Any) -> Any | None:
        self.calls += 1
        try:
            with dspy.context(lm=self.lm):
                answer = getattr(dspy.Predict(signature)(**inputs), field)
        except (DSPyError, ValueError, TypeError) as exc:  # provider or parse failure
            self.failures += 1
            log.info("%s judgement failed, the offline rule decides: %s",
                     signature.__name__, exc)
            self.usage.failed(signature.__name__, exc)
            return None
        self.usage.ok()
        return answer

    def same_fact(self, a: str, b: str) -> bool | None:
        return self._ask(SameFact, "same", a=a, b=b)

    def relation(self, a: str, b: str) -> str | None:
        return self._ask(Contradicts, "relation", a=a, b=b)

    def abstract(self, episodes: list[str]) -> str | None:
        rule = self._ask(Abstract, "rule", episodes=episodes)
        return rule.strip() if isinstance(rule, str) and rule.strip() else None

    def narrow(self, memory: str, cited_paths: list[str]) -> str | None:
        module = self._ask(Narrow, "module", memory=memory, cited_paths=cited_paths)
        return module.strip() if isinstance(module, str) else None

    def compress(self, memory: str, max_words: int) -> str | None:
        summary = self._ask(Compress, "summary", memory=memory, max_words=max_words)
        return summary.strip() if isinstance(summary, str) and summary.strip() else None

    def related(self, a: str, b: str) -> bool | None:
        return self._ask(Related, "related", a=a, b=b)

    def generic(self, memory: str) -> bool | None:
        return self._ask(Generic, "generic", memory=memory)

    def checklist(self, procedure: str) -> list[str] | None:
        steps = self._ask(Checklist, "steps", procedure=procedure)
        if not isinstance(steps, list):
            return None
        return [str(s).strip() for s in steps if str(s).strip()] or None

