"""The router's configuration: which legs run, how many candidates, how ranking is weighted."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class RerankWeights(BaseModel):
    """Weights of the rerank features (see ``rerank.py`` for the formula)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relevance: float = 0.55
    """Fused relevance from BM25, vectors and graph, scaled to [0, 1] over the candidates."""
    evidence: float = 0.15
    """Strength of the citations: tests, reviews and defects weigh more than sessions."""
    freshness: float = 0.10
    """Recency of the memory's evidence or last verification, relative to the bank's newest."""
    usefulness: float = 0.15
    """Smoothed (helped - hurt) from feedback, in [-1, 1]."""
    confidence: float = 0.05
    """The memory's own confidence."""


class RouterConfig(BaseModel):
    """How the router retrieves. Every field has an offline, deterministic default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    embeddings: bool = True
    """Run the vector leg (Chroma with the packaged MiniLM model). Off: BM25 and graph only."""
    lexical: bool = True
    """Run the BM25 leg (bm25s)."""
    graph: bool = True
    """Add neighbours in the link graph of the best lexical and vector hits."""
    statuses: tuple[Literal["active", "dormant", "superseded"], ...] = ("active",)
    """Memory statuses that may be served."""
    candidates: int = Field(default=50, ge=1)
    """How many hits each leg contributes before fusion."""
    fill_below: int = Field(default=200, ge=0)
    """When a scope holds at most this many memories, all of them are candidates (ranked by
    their priors when the query does not match), so small banks behave like a full pack."""
    graph_seeds: int = Field(default=10, ge=0)
    """How many of the best fused hits seed the graph leg."""
    rrf_k: int = Field(default=60, ge=1)
    """The constant of reciprocal rank fusion: score = sum over legs of w / (k + rank)."""
    graph_weight: float = Field(default=0.5, ge=0.0)
    """The graph leg's weight ``w`` in fusion (BM25 and vectors weigh 1): a neighbour is
    indirect evidence of relevance, so it ranks after a direct hit of the same rank."""
    freshness_half_life_days: float = Field(default=90.0, gt=0)
    """Age at which the freshness feature halves."""
    weights: RerankWeights = RerankWeights()
    include_stale: bool = True
    """Pack stale memories after every verified one, marked UNVERIFIED; False drops them."""
    chroma: Literal["persistent", "ephemeral", "http"] = "persistent"
    """Embedded ``PersistentClient`` under ``settings.chroma_path()``, an in-process ephemeral
    client, or a Chroma server at ``chroma_url``."""
    chroma_url: str | None = None
    """``http://host:port`` of a Chroma server (with ``chroma="http"``)."""
    index_cache: int = Field(default=8, ge=1)
    """How many banks' indexes stay built in this process (least recently used dropped)."""

    @classmethod
    def from_env(cls) -> RouterConfig:
        """The default config, adjusted by ``DREAMER_ROUTER_EMBEDDINGS=0`` (BM25 and graph
        only, e.g. for quick CI runs) and ``DREAMER_CHROMA_URL`` (use a Chroma server)."""
        embeddings = os.environ.get("DREAMER_ROUTER_EMBEDDINGS", "1").lower() not in {
            "0", "false", "no", "off"
        }
        url = os.environ.get("DREAMER_CHROMA_URL") or None
        return cls(embeddings=embeddings, chroma="http" if url else "persistent", chroma_url=url)
