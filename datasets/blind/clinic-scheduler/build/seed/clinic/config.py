"""Settings, read from the environment (and a local ``.env`` in development)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    sms_gateway_url: str = "https://sms.invalid/api"
    sms_gateway_token: str = ""
    sms_sender: str = "ACMEHEALTH"
    video_base_url: str = "https://video.acme-health.example/v"


def _read_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.exists():
        return values
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip()
    return values


def load_settings(env: dict[str, str] | None = None, dotenv: Path | None = None) -> Settings:
    values = _read_dotenv(dotenv or Path(".env"))
    values.update(env if env is not None else os.environ)
    return Settings(
        sms_gateway_url=values.get("SMS_GATEWAY_URL", Settings.sms_gateway_url),
        sms_gateway_token=values.get("SMS_GATEWAY_TOKEN", ""),
        sms_sender=values.get("SMS_SENDER", Settings.sms_sender),
        video_base_url=values.get("VIDEO_BASE_URL", Settings.video_base_url),
    )
