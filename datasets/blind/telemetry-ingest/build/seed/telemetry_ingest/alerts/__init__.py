"""Threshold alerts evaluated on accepted readings."""

from telemetry_ingest.alerts.engine import AlertEngine
from telemetry_ingest.alerts.rules import ThresholdRule

__all__ = ["AlertEngine", "ThresholdRule"]
