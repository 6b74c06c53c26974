"""The judgements and writing that stages hand to a language model.

:class:`Judge` calls the stage's module of the run's dream program (``dreamer.programs``) under
``dspy.context(lm=...)`` with the LM from the stage context. A call that fails (provider error,
unparsable answer) returns None and the stage falls back to exactly its offline decision; every
call, failure and fallback is counted in the run's :class:`dreamer.lm.LMUsage`, which aborts the
run (``LMRunError``) when failures pass its threshold. Any other exception is a bug.
This module imports DSPy at import time, so stages import it only when an LM is given.
"""

from __future__ import annotations

import logging
import os
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import dspy  # noqa: E402
from dspy.utils.exceptions import DSPyError  # noqa: E402

from dreamer.lm import LMUsage, usage_for  # noqa: E402
from dreamer.programs import (  # noqa: E402,F401  the signatures, as they were importable here
    Abstract,
    Checklist,
    Compress,
    Contradicts,
    DreamProgram,
    Generic,
    Narrow,
    Related,
    SameFact,
)

log = logging.getLogger(__name__)


class Judge:
    """Runs the stages' modules of one :class:`DreamProgram` with one LM, never configuring
    DSPy globally."""

    def __init__(self, lm: Any, usage: LMUsage | None = None,
                 program: DreamProgram | None = None) -> None:
        self.lm = lm
        self.usage = usage if usage is not None else usage_for(lm)
        self.program = program if program is not None else DreamProgram()
        self.failures = 0
        self.calls = 0

    def _ask(self, stage: str, field: str, **inputs: Any) -> Any | None:
        self.calls += 1
        module = self.program.module(stage)
        try:
            with self.usage.metered(), dspy.context(lm=self.lm):
                answer = getattr(module(**inputs), field)
        except (DSPyError, ValueError, TypeError, AttributeError) as exc:  # provider or parse
            self.failures += 1
            log.info("%s judgement failed, the offline rule decides: %s", stage, exc)
            self.usage.failed(stage, exc)
            return None
        self.usage.ok()
        return answer

    def same_fact(self, a: str, b: str) -> bool | None:
        return self._ask("dedupe", "same", a=a, b=b)

    def relation(self, a: str, b: str) -> str | None:
        return self._ask("conflicts", "relation", a=a, b=b)

    def abstract(self, episodes: list[str]) -> str | None:
        rule = self._ask("abstraction", "rule", episodes=episodes)
        return rule.strip() if isinstance(rule, str) and rule.strip() else None

    def narrow(self, memory: str, cited_paths: list[str]) -> str | None:
        module = self._ask("specialization", "module", memory=memory, cited_paths=cited_paths)
        return module.strip() if isinstance(module, str) else None

    def compress(self, memory: str, max_words: int) -> str | None:
        summary = self._ask("compression", "summary", memory=memory, max_words=max_words)
        return summary.strip() if isinstance(summary, str) and summary.strip() else None

    def related(self, a: str, b: str) -> bool | None:
        return self._ask("linking", "related", a=a, b=b)

    def generic(self, memory: str) -> bool | None:
        return self._ask("forgetting", "generic", memory=memory)

    def checklist(self, procedure: str) -> list[str] | None:
        steps = self._ask("promotion", "steps", procedure=procedure)
        if not isinstance(steps, list):
            return None
        return [str(s).strip() for s in steps if str(s).strip()] or None

