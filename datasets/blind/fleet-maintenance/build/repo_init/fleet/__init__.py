"""Fleet maintenance scheduling service."""

__version__ = "0.4.0"
