"""ACME IoT telemetry ingestion."""

__version__ = "0.4.0"
