"""Building a small subset: deterministic for a seed, valid tasks, a clean split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.corpus.build import build_corpus
from evals.corpus.config import CorpusConfig
from evals.corpus.info import corpus_info


def _build(out: Path, seed: int) -> dict:
    config = CorpusConfig(out=out, seed=seed, families=("shop-money-cents",),
                          variants_per_family=4, certify=False, workers=2)
    return build_corpus(config).manifest


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, Path, dict]:
    first, second = tmp_path_factory.mktemp("a"), tmp_path_factory.mktemp("b")
    return first, _build(first, 7), second, _build(second, 7)


def test_same_seed_same_ids_and_content(twice):
    first, m1, second, m2 = twice
    assert m1["hashes"] == m2["hashes"]
    assert m1["repo_heads"] == m2["repo_heads"]
    lines = (first / "tasks.jsonl").read_text().splitlines()
    ids = [json.loads(line)["instance_id"] for line in lines]
    assert ids == [json.loads(line)["instance_id"]
                   for line in (second / "tasks.jsonl").read_text().splitlines()]
    for traj in sorted((first / "sessions").glob("*.traj")):
        assert traj.read_bytes() == (second / "sessions" / traj.name).read_bytes()


def test_split_allows_only_earlier_sessions(twice):
    first, *_ = twice
    split = json.loads((first / "split.json").read_text())
    ended = {json.loads(line)["instance_id"]: json.loads(line)["ended_at"]
             for line in (first / "sessions.jsonl").read_text().splitlines()}
    for task_id, entry in split["tasks"].items():
        assert task_id not in entry["allowed_sessions"]
        assert all(ended[s] < entry["created_at"] for s in entry["allowed_sessions"])


def test_subset_counts(twice):
    first, manifest, *_ = twice
    info = corpus_info(first)
    assert info["tasks"] == manifest["tasks"] == 1  # 4 variants, 3 of them history
    assert info["history_tasks"] == 3
    assert info["leaks"] == 0
    task = json.loads((first / "tasks.jsonl").read_text().splitlines()[0])
    assert task["FAIL_TO_PASS"] and task["oracle_memories"]
    assert (first / "hf" / "tasks").is_dir() and (first / "parquet" / "tasks.parquet").exists()


def test_another_seed_moves_the_noise_not_the_history(twice, tmp_path):
    _, m1, *_ = twice
    other = _build(tmp_path, 8)
    assert other["repo_heads"] == m1["repo_heads"]
    assert other["hashes"]["sessions.jsonl"] != m1["hashes"]["sessions.jsonl"]
