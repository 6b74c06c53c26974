"""Helpers shared by the exporters."""

from __future__ import annotations


def format_value(value: float) -> str:
    """Values as customers see them: no float noise, no trailing zeros."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
