"""Timestamp parsing and formatting."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

UTC = timezone.utc

_EPOCH_MS_THRESHOLD = 100_000_000_000  # anything larger is epoch milliseconds


def parse_ts(value: object) -> datetime:
    """Parse a device timestamp: epoch seconds, epoch milliseconds or ISO 8601."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, (int, float)):
        seconds = value / 1000.0 if value > _EPOCH_MS_THRESHOLD else float(value)
        dt = datetime.fromtimestamp(seconds, tz=UTC)
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith("Z"):
            text = text[:-1] + "+00:00"
        dt = datetime.fromisoformat(text)
    else:
        raise ValueError(f"unsupported timestamp: {value!r}")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


def format_ts(dt: datetime, *, millis: bool = False) -> str:
    """RFC 3339 UTC with a ``Z`` suffix."""
    dt = dt.astimezone(UTC)
    text = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if millis:
        text += f".{dt.microsecond // 1000:03d}"
    return text + "Z"


def floor_to(dt: datetime, seconds: int) -> datetime:
    epoch = int(dt.timestamp())
    return datetime.fromtimestamp(epoch - epoch % seconds, tz=UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def day_bounds(dt: datetime) -> tuple[datetime, datetime]:
    start = dt.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return start, start + timedelta(days=1)
