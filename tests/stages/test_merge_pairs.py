"""Dedupe's merging on pairs labelled from the sample corpus's ground truth: precise first."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


@pytest.mark.skipif(not (SAMPLE / "sessions.jsonl").exists(), reason="no sample built")
def test_merging_is_precise_on_the_sample_and_subjects_keep_facts_apart(tmp_path: Path) -> None:
    from benchmarks.merge_pairs import corpus_pairs
    from dreamer.stages.subjects import same_subject
    from evals.merge_pairs import merge_scores

    pairs = corpus_pairs(SAMPLE, tmp_path)
    assert len(pairs) >= 50 and 0 < sum(p.same for p in pairs) < len(pairs)
    score = merge_scores(pairs)
    assert score.precision >= 0.95, score
    assert score.recall > 0.2, score  # it does merge restatements of one fact
    # Pairs of different facts never share a subject or are kept apart by the threshold: none
    # is merged even at a loose threshold when their subjects are disjoint.
    loose = [p for p in pairs if not p.same and not same_subject(p.a, p.b)]
    assert loose and merge_scores(loose, threshold=0.3).merged == 0
