"""The corpus build's configuration."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class CorpusConfig(BaseModel):
    """How to build a corpus: where, with which seed, which part, and what to check."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    out: Path = Path(".dreamer/corpus")
    """The folder the corpus is written to (replaced on every build)."""
    seed: int = 0
    """Seeds the noise (which sessions carry it, the fake secrets) and the random packs."""
    families: tuple[str, ...] = ()
    """Build only these families (by id); empty: all."""
    variants_per_family: int | None = None
    """Keep only the first N tasks of each family (history included); None: all."""
    certify: bool = True
    """Run certification through the harness (``evals.runner``) after the build."""
    random_seeds: int = Field(default=3, ge=1)
    """How many placebo packs of the oracle's size each task is certified against."""
    permutations: int = Field(default=3, ge=1)
    """How many relabellings of the candidate ids every certification arm runs under."""
    workers: int = Field(default=2, ge=1)
    """Processes for test runs and certification."""
    timeout: float = 120.0
    """Seconds allowed for one certification run."""
    bundles: bool = False
    """Ship repositories as git bundles (``repos/<slug>.bundle``) instead of git folders."""
    cache: Path = Path(".dreamer/cache/corpus")
    """Where downloaded third-party archives are kept between builds."""
