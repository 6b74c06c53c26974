"""YAML configs, read in one place: ``configs/<kind>/<name>.yaml`` or any path, into a frozen
pydantic model that validates it (unknown keys are errors)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from dreamer.errors import ConfigError

M = TypeVar("M", bound=BaseModel)


def config_roots() -> list[Path]:
    """Where named configs are looked up: ``DREAMER_CONFIGS`` (colon-separated), then the
    project's ``configs/``."""
    roots = [Path(p) for p in os.environ.get("DREAMER_CONFIGS", "").split(os.pathsep) if p]
    return [*roots, Path(__file__).resolve().parents[1] / "configs"]


def config_path(kind: str, ref: str | Path) -> Path:
    """The file of config ``ref`` of ``kind`` (``strategies``, ``gates``, ...): a path or a name."""
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.is_file():
            raise ConfigError(f"no {kind} config file at {path}")
        return path
    for root in config_roots():
        for suffix in (".yaml", ".yml"):
            candidate = root / kind / f"{ref}{suffix}"
            if candidate.is_file():
                return candidate
    known = sorted({p.stem for root in config_roots() for p in (root / kind).glob("*.y*ml")})
    raise ConfigError(f"unknown {kind[:-1] if kind.endswith('s') else kind} {str(ref)!r}; "
                      f"known: {', '.join(known) or 'none'}")


def read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a mapping at the top level, not {type(data).__name__}")
    return data


def load_config(kind: str, ref: str | Path, model: type[M], **overrides: Any) -> M:
    """Read config ``ref`` of ``kind`` into ``model``; ``overrides`` replace top-level keys."""
    path = config_path(kind, ref)
    data = read_yaml(path) | overrides
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"invalid {kind} config {path}:\n{exc}") from exc
