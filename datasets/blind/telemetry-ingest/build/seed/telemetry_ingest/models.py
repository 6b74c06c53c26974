"""Core records passed between the stages of the pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Reading:
    """One measurement of one metric by one device, as reported."""

    device_id: str
    metric: str
    value: float
    unit: str
    ts: datetime
    """When the device took the measurement (UTC)."""
    received_at: datetime
    """When the ingest service received it (UTC)."""
    seq: int | None = None


@dataclass(frozen=True)
class Alert:
    rule: str
    device_id: str
    metric: str
    value: float
    threshold: float
    ts: datetime
    message: str = ""
