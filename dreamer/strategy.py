"""Dream strategies: which stages run, in which order, with which parameters.

A strategy is YAML (``configs/strategies/<name>.yaml``, found and read by ``dreamer.configs``
like every config) validated here into frozen models that refuse unknown keys. An ablation is a
strategy that leaves a stage out; the command line derives one on the fly with ``--skip-stage``
and ``-S stage.key=value``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from dreamer.configs import config_path, config_roots, read_yaml
from dreamer.errors import ConfigError
from dreamer.lm import LMConfig
from dreamer.models import content_hash


class StageSpec(BaseModel):
    """One stage of a strategy and its parameters (validated by the stage's ``Config``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """The stage's registered name (``dedupe``, ``conflicts``, ...)."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Keyword arguments of the stage's ``Config``."""


class Strategy(BaseModel):
    """A named, ordered list of stages: what a dream run does."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """How the strategy is referred to (its file's stem for shipped ones)."""
    description: str = ""
    """What it is for, in a sentence."""
    embedding: Literal["minilm", "tfidf"] = "minilm"
    """Similarity backend for every stage: the packaged MiniLM model, or TF-IDF (fast tests)."""
    stages: tuple[StageSpec, ...] = ()
    """The stages in the order they run; empty is the identity."""
    lm: LMConfig | None = None
    """The language model the stages consult (``model``, ``base_url``, ``api_key_env``,
    ``max_failures``...); None: offline. ``--lm`` and its companions override it."""
    program: str | None = None
    """The saved dream program (DSPy's JSON, written by ``dreamer optimize``) the stages run
    with an LM, relative to the strategy file; None: the uncompiled program."""

    _folder: Path | None = PrivateAttr(default=None)

    def program_path(self) -> Path | None:
        """The saved program's file: ``program`` as given when absolute, else relative to the
        strategy's folder (or the working directory for a strategy built in code)."""
        if self.program is None:
            return None
        path = Path(self.program)
        return path if path.is_absolute() or self._folder is None else self._folder / path

    @model_validator(mode="after")
    def _stages_once(self) -> Strategy:
        names = [s.name for s in self.stages]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"stages run once per strategy; listed twice: {', '.join(twice)}")
        return self

    def config_hash(self) -> str:
        """A stable hash of the whole strategy: same hash, same dream."""
        dumped = self.model_dump(mode="json")
        for key in ("lm", "program"):  # unset, they leave the hash of older strategies as it was
            if dumped.get(key) is None:
                dumped.pop(key, None)
        return content_hash(dumped, prefix="strat_", length=16)

    def stage_configs(self) -> list[tuple[str, Any]]:
        """(name, validated Config) per stage; unknown stages or keys raise ConfigError."""
        from dreamer.stages import STAGES

        built = []
        for spec in self.stages:
            cls = STAGES.get(spec.name)
            try:
                built.append((spec.name, cls.Config(**spec.params)))
            except ValidationError as exc:
                known = ", ".join(sorted(cls.Config.model_fields))
                raise ConfigError(
                    f"strategy {self.name!r}, stage {spec.name!r}: invalid parameters "
                    f"({_errors(exc)}); its parameters are: {known}"
                ) from exc
        return built


def list_strategies() -> list[str]:
    """Names of every strategy found where named configs are looked up."""
    return sorted({p.stem for root in config_roots() for p in (root / "strategies").glob("*.yaml")})


def load_strategy(ref: str) -> Strategy:
    """A strategy by name (``configs/strategies/<name>.yaml``) or by path to a YAML file."""
    try:
        path = config_path("strategies", ref)
    except ConfigError as exc:
        raise ConfigError(f"no strategy {ref!r}; known: {', '.join(list_strategies())} "
                          "(or give a path to a YAML file)") from exc
    data = read_yaml(path)
    try:
        strategy = Strategy.model_validate({"name": path.stem, **data})
        strategy._folder = path.parent
    except ValidationError as exc:
        raise ConfigError(f"strategy file {path} is invalid: {_errors(exc)}") from exc
    strategy.stage_configs()  # fail now, not halfway through a dream
    return strategy


def modify(strategy: Strategy, skip: list[str] | tuple[str, ...] = (),
           sets: list[str] | tuple[str, ...] = ()) -> Strategy:
    """``strategy`` without the ``skip`` stages and with ``sets`` (``stage.key=value``, or
    ``embedding=...`` for the strategy itself) applied; values are parsed as YAML."""
    from dreamer.stages import STAGES

    names = [s.name for s in strategy.stages]
    for name in skip:
        STAGES.get(name)
        if name not in names:
            raise ConfigError(f"cannot skip {name!r}: strategy {strategy.name!r} runs "
                              f"{', '.join(names) or 'no stage'}")
    stages = {s.name: dict(s.params) for s in strategy.stages if s.name not in skip}
    top: dict[str, Any] = {}
    for item in sets:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"-S {item!r}: write stage.key=value")
        value = yaml.safe_load(raw) if raw else ""
        stage_name, dot, param = key.partition(".")
        if not dot:
            top[key] = value
            continue
        STAGES.get(stage_name)
        if stage_name not in stages:
            raise ConfigError(f"-S {item!r}: stage {stage_name!r} does not run in this strategy")
        stages[stage_name][param] = value
    changes = [*(f"skip {s}" for s in skip), *(f"set {s}" for s in sets)]
    try:
        new = Strategy.model_validate({
            **strategy.model_dump(), **top,
            "description": strategy.description + (f" ({'; '.join(changes)})" if changes else ""),
            "stages": [{"name": n, "params": p} for n, p in stages.items()],
        })
    except ValidationError as exc:
        raise ConfigError(f"-S: {_errors(exc)}") from exc
    new.stage_configs()
    new._folder = strategy._folder
    return new


def _errors(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())
