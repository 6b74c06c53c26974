"""A bank of several repositories dreamt in shards on several processes gives what one
process gives: the same candidate, diff, provenance and metrics."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from dreamer import shards
from dreamer.errors import ConfigError, DreamError
from dreamer.pipeline import dream, make_context
from dreamer.strategy import load_strategy

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def stand_in(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The benchmark's hashed n-gram embedder (a text's vector depends on that text alone, as
    MiniLM's does) and a small bank of four repositories."""
    sys.path.insert(0, str(BENCHMARKS))
    from dream_scale import use_stand_in
    from synthetic_bank import synthetic_bank

    from dreamer.stages import similarity

    monkeypatch.setattr(similarity._MiniLM, "encode", similarity._MiniLM.__dict__["encode"])
    use_stand_in()
    monkeypatch.setattr(shards, "SHARD_MIN", 100)
    return synthetic_bank(1200, seed=3, repos=4)


def _dream(bank, workers: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DREAMER_DREAM_WORKERS", workers)
    strategy = load_strategy("default")
    return dream(bank, strategy, make_context(strategy, skills_dir=tmp_path / "skills"))


@pytest.mark.parametrize("workers", [2, 3])
def test_shards_dream_what_one_process_dreams(stand_in, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path, workers: int) -> None:
    bank = stand_in
    alone = _dream(bank, "1", monkeypatch, tmp_path)
    sharded = _dream(bank, str(workers), monkeypatch, tmp_path)
    assert (alone.shards, sharded.shards) == (1, workers)
    assert sharded.bank.id == alone.bank.id != bank.id
    assert sharded.bank.model_dump() == alone.bank.model_dump()
    assert sharded.diff == alone.diff  # provenance included, in the same order
    assert sharded.metrics == alone.metrics
    # the dream did its work in every shard: each repository lost active memories
    for repo in {m.scope.repo for m in bank.memories}:
        before = sum(m.is_active and m.scope.repo == repo for m in bank.memories)
        after = sum(m.is_active and m.scope.repo == repo for m in sharded.bank.memories)
        assert after < before, repo
    assert sharded.timings.keys() == alone.timings.keys() == dict(
        load_strategy("default").stage_configs()).keys()


def test_a_shard_deals_whole_repositories_and_balances_them(
        stand_in, monkeypatch: pytest.MonkeyPatch) -> None:
    bank = stand_in
    monkeypatch.setenv("DREAMER_DREAM_WORKERS", "3")
    plan = shards.plan(bank, make_context(load_strategy("default")))
    assert plan is not None and len(plan.shards) == 3
    positions = [p for shard in plan.shards for p in shard]
    assert sorted(positions) == list(range(len(bank.memories)))
    repos = [{bank.memories[p].scope.repo for p in shard} for shard in plan.shards]
    assert all(a.isdisjoint(b) for i, a in enumerate(repos) for b in repos[i + 1:])
    # balanced: shards differ by at most one repository's memories
    sizes = [len(shard) for shard in plan.shards]
    largest = max(sum(m.scope.repo == r for m in bank.memories) for r in set().union(*repos))
    assert max(sizes) - min(sizes) <= largest
    # no more shards than repositories, and none with TF-IDF or below the size floor
    monkeypatch.setenv("DREAMER_DREAM_WORKERS", "9")
    assert len(shards.plan(bank, make_context(load_strategy("default"))).shards) == 4
    tfidf = load_strategy("default").model_copy(update={"embedding": "tfidf"})
    assert shards.plan(bank, make_context(tfidf)) is None
    monkeypatch.setattr(shards, "SHARD_MIN", len(bank.memories) + 1)
    assert shards.plan(bank, make_context(load_strategy("default"))) is None


def test_a_bad_worker_count_is_refused_with_the_setting_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DREAMER_DREAM_WORKERS", "none")
    with pytest.raises(ConfigError, match="DREAMER_DREAM_WORKERS"):
        shards.workers()


def _die(positions: tuple[int, ...]) -> None:
    os._exit(3)  # as a worker killed for memory would end


def test_a_worker_that_dies_fails_the_dream_and_says_what_to_do(
        stand_in, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(shards, "_dream_shard", _die)
    with pytest.raises(DreamError, match="DREAMER_DREAM_WORKERS=1"):
        _dream(stand_in, "2", monkeypatch, tmp_path)


def test_workers_embed_none_of_the_input_texts(stand_in, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """The input's texts are embedded before the fork, on every core, and the workers find
    them there: a worker embeds only what its stages write (merged and shortened texts)."""
    import dream_scale

    from dreamer.stages.base import memory_text

    vectors = dream_scale.stand_in_vectors
    log = tmp_path / "embedded"

    def embedded(texts):  # type: ignore[no-untyped-def]
        with log.open("a") as out:  # each text embedded, and by which process
            out.writelines(f"{os.getpid()}\t{text!r}\n" for text in texts)
        return vectors(texts)

    monkeypatch.setattr(dream_scale, "stand_in_vectors", embedded)
    bank = stand_in
    _dream(bank, "2", monkeypatch, tmp_path)
    by: dict[str, set[str]] = {}
    for line in log.read_text().splitlines():
        pid, text = line.split("\t", 1)
        by.setdefault(pid, set()).add(text)
    here = by.pop(str(os.getpid()))
    inputs = {repr(memory_text(m)) for m in bank.active}
    assert inputs <= here
    [worker] = by.values()  # the worker embedded texts too: those its stages wrote
    assert worker and worker.isdisjoint(inputs)
