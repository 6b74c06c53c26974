"""Retrieval: what part of a bank reaches an agent, under a token budget.

The router runs, for one query: a hard **scope** filter (repository, then branch, module, phase
and status), **hybrid candidates** (BM25 with bm25s, embeddings in Chroma with the packaged
MiniLM model, neighbours in the link graph) fused by reciprocal rank, a **rerank** by relevance,
evidence, freshness, past usefulness and confidence, **verification** of the survivors' file
citations against a checkout (stale ones demoted and marked UNVERIFIED), and **packing** into a
token budget. The same router serves the harness (``pack``), the CLI (``dreamer recall``) and
agents (``dreamer mcp``).

Python API::

    from dreamer.router import Router, RouterConfig, pack, recall
    result = recall(bank, "why does parse_order fail", repo="acme/shop", budget=800,
                    checkout="/src/shop")
    result.pack.text        # for a prompt
    result.to_json()        # for an agent

Heavy libraries (bm25s, chromadb, torch) load on first use, not on import.
"""

from __future__ import annotations

import threading
from pathlib import Path

from dreamer.models import Bank, MemoryPack
from dreamer.router.config import RerankWeights, RouterConfig
from dreamer.router.core import RecallResult, Router
from dreamer.router.errors import RouterError
from dreamer.router.feedback import Observations, observations, record_feedback, usage_counts
from dreamer.router.packing import STALE_MARKER, render
from dreamer.router.scope import in_scope
from dreamer.router.verify import lines_sha256, span_sha256

__all__ = [
    "STALE_MARKER", "Observations", "RecallResult", "RerankWeights", "Router", "RouterConfig",
    "RouterError", "default_router", "in_scope", "lines_sha256", "observations", "pack", "recall",
    "record_feedback", "render", "span_sha256", "usage_counts",
]

_default: Router | None = None
_default_lock = threading.Lock()


def default_router() -> Router:
    """The process-wide router ``pack()`` and ``recall()`` use: ``RouterConfig.from_env()``,
    no store (nothing is recorded), indexes cached across calls."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Router(RouterConfig.from_env())
        return _default


def recall(
    bank: Bank, query: str, *, repo: str, budget: int | None = None, branch: str | None = None,
    module: str | None = None, phase: str | None = None, checkout: Path | str | None = None,
    router: Router | None = None,
) -> RecallResult:
    """The full recall of ``bank`` for ``query`` in ``repo`` (see ``Router.recall``)."""
    return (router or default_router()).recall(
        bank, query, repo=repo, budget=budget, branch=branch, module=module, phase=phase,
        checkout=checkout,
    )


def pack(
    bank: Bank, query: str, *, repo: str, budget: int | None = None, branch: str | None = None,
    module: str | None = None, phase: str | None = None, checkout: Path | None = None,
    router: Router | None = None,
) -> MemoryPack:
    """Memories of ``bank`` for ``query`` in ``repo``, at most ``budget`` tokens (None: all).

    Runs the full router: scope, hybrid search, rerank, verification when ``checkout`` is
    given, packing. Deterministic for the same inputs; ``pack.tokens <= budget`` always.
    """
    return recall(bank, query, repo=repo, budget=budget, branch=branch, module=module,
                  phase=phase, checkout=checkout, router=router).pack
