"""Importing this module registers every trajectory adapter in ``ADAPTERS``.

The ingest driver imports it once; each adapter module registers itself with
``@ADAPTERS.register(name)`` when imported.
"""

from __future__ import annotations

from dreamer.ingest import claude_code, generic, mini_swe_agent, openhands, swe_agent
from dreamer.ingest.base import ADAPTERS

__all__ = ["ADAPTERS", "claude_code", "generic", "mini_swe_agent", "openhands", "swe_agent"]
