"""Runtime settings, read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


class ConfigError(RuntimeError):
    """A required setting is missing or malformed."""


@dataclass(frozen=True)
class Settings:
    api_key: str | None = None
    batch_max_size: int = 500
    batch_max_age_s: float = 5.0
    max_clock_skew_s: int = 300
    export_dir: str = "out"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        try:
            return cls(
                api_key=env.get("INGEST_API_KEY") or None,
                batch_max_size=int(env.get("INGEST_BATCH_MAX_SIZE", "500")),
                batch_max_age_s=float(env.get("INGEST_BATCH_MAX_AGE_S", "5")),
                max_clock_skew_s=int(env.get("INGEST_MAX_CLOCK_SKEW_S", "300")),
                export_dir=env.get("INGEST_EXPORT_DIR", "out"),
            )
        except ValueError as exc:
            raise ConfigError(f"bad setting: {exc}") from exc

    def require_api_key(self) -> str:
        if not self.api_key:
            raise ConfigError("INGEST_API_KEY is not set")
        return self.api_key
