"""dreamer: make coding agents learn from their own past sessions.

Ingest trajectories into an append-only evidence store, extract evidenced memories, consolidate
them in batch "dream" runs, prove each candidate bank on replay tasks where real tests decide, and
promote only through a gate.
"""

__version__ = "0.1.0"
