import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    site_code: str
    gateway_url: str
    webhook_url: str
    webhook_token: str
    timezone: str = "Europe/Amsterdam"


def _read_env_file(path):
    values = {}
    p = Path(path)
    if not p.exists():
        return values
    for line in p.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip('"')
    return values


def load_settings(env=None, path=".env"):
    merged = _read_env_file(path)
    merged.update(env if env is not None else os.environ)
    return Settings(
        site_code=merged.get("IRRIGATION_SITE", "GH1"),
        gateway_url=merged.get("IRRIGATION_GATEWAY_URL", "http://127.0.0.1:8081"),
        webhook_url=merged.get("IRRIGATION_WEBHOOK_URL", ""),
        webhook_token=merged.get("IRRIGATION_WEBHOOK_TOKEN", ""),
        timezone=merged.get("IRRIGATION_TZ", "Europe/Amsterdam"),
    )
