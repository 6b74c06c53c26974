"""Greenhouse irrigation controller service."""

__version__ = "0.3.0"
