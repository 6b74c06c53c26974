"""Acme Transit fare engine."""

__version__ = "0.3.0"
