"""Similarity: candidate pairs come from nearest neighbours, never all pairs."""

from __future__ import annotations

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
