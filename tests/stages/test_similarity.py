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


def test_pairs_are_each_texts_nearest_scored_as_sim_and_ranked_best_first() -> None:
    import numpy as np

    texts = [f"rule {i} about module_{i % 7} and setting_{i % 5}" for i in range(60)]
    blocks = [i % 2 for i in range(60)]
    near = Similarity("tfidf").neighbours(texts, k=3, threshold=0.2, blocks=blocks)
    v = near.vectors
    pairs = {(p.i, p.j): p.score for p in near.pairs}
    assert len(pairs) == len(near.pairs) and all(i < j for i, j in pairs)
    assert all(blocks[i] == blocks[j] for i, j in pairs)  # never across blocks
    assert all(score == near.sim(i, j) >= 0.2 for (i, j), score in pairs.items())
    assert all(abs(score - float(v[i] @ v[j])) < 1e-6 for (i, j), score in pairs.items())
    ranked = [(-p.score, p.i, p.j) for p in near.pairs]
    assert ranked == sorted(ranked)
    # Every text's 3 nearest of its block (searched exactly here) above the threshold are in:
    # any text more alike than its third nearest (ties at the third may go either way).
    for i in range(60):
        alike = sorted((float(v[i] @ v[j]), j) for j in range(60) if j != i
                       and blocks[j] == blocks[i])[::-1]
        third = alike[2][0]
        assert all((min(i, j), max(i, j)) in pairs for s, j in alike if s > third + 1e-6
                   and s >= 0.2)
        found = sum((min(i, j), max(i, j)) in pairs for s, j in alike
                    if s >= third - 1e-6 and s >= 0.2)
        assert found >= min(3, sum(s >= 0.2 for s, _ in alike))
    assert np.isclose(np.linalg.norm(v, axis=1), 1).all()


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
    from dreamer import cpu, embeddings
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
        cpu.threads()
