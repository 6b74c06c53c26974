"""Similarity: candidate pairs come from nearest neighbours, never all pairs."""

from __future__ import annotations

import pytest

from dreamer.errors import ConfigError
from dreamer.stages import Similarity


def test_pairs_are_bounded_by_k() -> None:
    texts = [f"rule {i} about module_{i % 7} and setting_{i % 5}" for i in range(60)]
    near = Similarity("tfidf").neighbours(texts, k=3)
    assert len(near.pairs) <= 60 * 3 < 60 * 59 // 2
    assert near.pairs == Similarity("tfidf").neighbours(texts, k=3).pairs  # deterministic


def test_minilm_tells_paraphrases_from_other_topics(planted) -> None:
    sim = Similarity("minilm")
    texts = [m.summary for m in planted.STATUS] + [planted.INTEGRATION.summary]
    near = sim.neighbours(texts, k=3)
    same = sim.threshold("same")
    assert near.sim(0, 1) >= same and near.sim(0, 2) >= same
    assert near.sim(0, 3) < sim.threshold("topic")


def test_each_distinct_text_is_embedded_once_and_shared_with_the_router(monkeypatch) -> None:
    """The dream and the router's vector leg read one cache: a text embedded by one is found
    by the other (and by a new process, through the file beside the store)."""
    from dreamer import embeddings
    from dreamer.router.vectors import embedder

    seen: list[str] = []
    real = embeddings.encode_fresh

    def counting(texts, count=None):  # type: ignore[no-untyped-def]
        seen.extend(texts)
        return real(texts, count)

    monkeypatch.setattr(embeddings, "encode_fresh", counting)
    texts = ["Order status goes through LEGACY_STATUS_CODES.", "Run make migrate first."]
    dream_vectors = Similarity("minilm").embed([*texts, texts[0]])
    router_vectors = embedder().embed(texts)
    assert sorted(seen) == sorted(texts)  # each text once, whoever asked first
    assert abs(dream_vectors[:2] - router_vectors).max() < 1e-6
    embeddings._vectors.clear()  # a new process: only the file remains
    embedder().embed(texts)
    assert sorted(seen) == sorted(texts)
    monkeypatch.setenv("DREAMER_EMBED_THREADS", "0")
    with pytest.raises(ConfigError, match="DREAMER_EMBED_THREADS"):
        embeddings.threads()
