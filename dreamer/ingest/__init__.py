"""Trajectory ingest: one adapter per format, detected automatically, into the evidence store."""

from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.driver import Defaults, IngestReport, decode, detect, ingest_paths, parse_file

__all__ = [
    "ADAPTERS", "Defaults", "Document", "IngestContext", "IngestReport", "TrajectoryAdapter",
    "decode", "detect", "ingest_paths", "parse_file",
]
