"""Extraction: sessions -> candidate memories -> the write gate -> a new extraction bank.

This is the design's "fast system": it captures evidenced facts from each session (failures
and their fixes, procedures, domain invariants, episodes); dreaming consolidates them later.
``extract(store, repo=None, since=None, lm=None)`` is the public entry point.
"""

from dreamer.extract.extractor import ALIAS, ExtractionResult, Rejection, extract
from dreamer.extract.gate import Reason

__all__ = ["ALIAS", "ExtractionResult", "Reason", "Rejection", "extract"]
