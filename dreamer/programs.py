"""The dream program: one DSPy module per LM-capable stage, composed from typed signatures, and
one program per strategy that DSPy's optimizers compile and that ``save``/``load`` keep.

A stage never builds a predictor itself: :class:`dreamer.stages.judges.Judge` calls the module
of its stage in the run's :class:`DreamProgram` (a fresh one, or the file the strategy names in
``program:``), so demonstrations and instructions an optimizer found are what the stages use.
``DreamProgram.forward(bank=...)`` runs the whole dream with the program's own modules, which
is what ``dreamer optimize`` compiles against the replay metric. DSPy is imported at import
time: import this module only when an LM is given.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import dspy  # noqa: E402

from dreamer.errors import ConfigError  # noqa: E402

PROGRAM_VERSION = 1
"""Bumped when a module's signature changes, so a saved program says which it was made for."""


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



class DedupeModule(dspy.Module):
    """dedupe: are two memories the same lesson?"""

    def __init__(self) -> None:
        super().__init__()
        self.judge = dspy.Predict(SameFact)

    def forward(self, a: str, b: str) -> dspy.Prediction:
        return self.judge(a=a, b=b)


class ConflictsModule(dspy.Module):
    """conflicts: do two memories contradict each other?"""

    def __init__(self) -> None:
        super().__init__()
        self.judge = dspy.Predict(Contradicts)

    def forward(self, a: str, b: str) -> dspy.Prediction:
        return self.judge(a=a, b=b)


class AbstractionModule(dspy.Module):
    """abstraction: the general rule that episodes share."""

    def __init__(self) -> None:
        super().__init__()
        self.write = dspy.Predict(Abstract)

    def forward(self, episodes: list[str]) -> dspy.Prediction:
        return self.write(episodes=episodes)


class SpecializationModule(dspy.Module):
    """specialization: the module a rule holds in."""

    def __init__(self) -> None:
        super().__init__()
        self.judge = dspy.Predict(Narrow)

    def forward(self, memory: str, cited_paths: list[str]) -> dspy.Prediction:
        return self.judge(memory=memory, cited_paths=cited_paths)


class CompressionModule(dspy.Module):
    """compression: a memory shortened to its evidenced conclusion."""

    def __init__(self) -> None:
        super().__init__()
        self.write = dspy.Predict(Compress)

    def forward(self, memory: str, max_words: int) -> dspy.Prediction:
        return self.write(memory=memory, max_words=max_words)


class LinkingModule(dspy.Module):
    """linking: would an agent using one memory want the other?"""

    def __init__(self) -> None:
        super().__init__()
        self.judge = dspy.Predict(Related)

    def forward(self, a: str, b: str) -> dspy.Prediction:
        return self.judge(a=a, b=b)


class ForgettingModule(dspy.Module):
    """forgetting: is a memory generic advice?"""

    def __init__(self) -> None:
        super().__init__()
        self.judge = dspy.Predict(Generic)

    def forward(self, memory: str) -> dspy.Prediction:
        return self.judge(memory=memory)


class PromotionModule(dspy.Module):
    """promotion: a confirmed procedure as a checklist."""

    def __init__(self) -> None:
        super().__init__()
        self.write = dspy.Predict(Checklist)

    def forward(self, procedure: str) -> dspy.Prediction:
        return self.write(procedure=procedure)


STAGE_MODULES: dict[str, type[dspy.Module]] = {
    "dedupe": DedupeModule, "conflicts": ConflictsModule, "abstraction": AbstractionModule,
    "specialization": SpecializationModule, "compression": CompressionModule,
    "linking": LinkingModule, "forgetting": ForgettingModule, "promotion": PromotionModule,
}
"""The module of every stage that consults an LM, by stage name."""


class DreamProgram(dspy.Module):
    """The program of one strategy: a module per LM-capable stage it runs (attributes named
    after the stages). ``forward(bank=...)`` dreams ``bank`` with these modules."""

    def __init__(self, stages: list[str] | tuple[str, ...] | None = None,
                 strategy: Any = None) -> None:
        super().__init__()
        names = list(stages) if stages is not None else (
            [s.name for s in strategy.stages] if strategy is not None else list(STAGE_MODULES))
        self.stage_names = [n for n in names if n in STAGE_MODULES]
        for name in self.stage_names:
            setattr(self, name, STAGE_MODULES[name]())
        self.strategy = strategy

    def module(self, stage: str) -> dspy.Module:
        """The module of ``stage`` (a fresh one when the program was made without it)."""
        found = getattr(self, stage, None)
        if found is None:
            found = STAGE_MODULES[stage]()
            setattr(self, stage, found)
            self.stage_names.append(stage)
        return found

    def forward(self, bank: Any, skills_dir: str | None = None) -> dspy.Prediction:
        """Dream ``bank`` (a ``Bank``) with the strategy and the LM in DSPy's context."""
        from dreamer.lm import usage_for
        from dreamer.pipeline import dream, make_context

        if self.strategy is None:
            raise ConfigError("a DreamProgram runs a dream only when made with its strategy")
        lm = dspy.settings.lm
        context = make_context(self.strategy, lm, program=self, lm_usage=usage_for(lm, 1.0),
                               skills_dir=Path(skills_dir) if skills_dir else None)
        result = dream(bank, self.strategy, context)
        return dspy.Prediction(bank=result.bank, metrics=result.metrics)


def save_program(program: dspy.Module, path: Path) -> Path:
    """Write ``program``'s state (instructions and demonstrations of every predictor) with
    DSPy's own ``save``, as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    program.save(str(path))
    return path


def load_dream_program(path: Path, strategy: Any = None) -> DreamProgram:
    """The dream program saved at ``path`` (DSPy's ``load``), for ``strategy``."""
    if not path.is_file():
        raise ConfigError(f"no saved program at {path} (the strategy's `program:` names it; "
                          "`dreamer optimize` writes one)")
    import json

    try:
        names = [k.split(".", 1)[0] for k in json.loads(path.read_text(encoding="utf-8"))
                 if k != "metadata"]
    except ValueError as exc:
        raise ConfigError(f"{path} is not a saved DSPy program: {exc}") from exc
    program = DreamProgram(stages=list(dict.fromkeys(names)), strategy=strategy)
    try:
        program.load(str(path))
    except Exception as exc:  # DSPy says what did not match
        raise ConfigError(f"{path} does not fit the dream program: {exc}") from exc
    return program
