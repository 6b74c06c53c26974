"""The embedding cache: shared with forked workers, and a damaged file set aside, never a
dream that fails night after night."""

from __future__ import annotations

import gc
import logging
import multiprocessing
import sqlite3

import numpy as np
import psutil
import pytest

from dreamer import embeddings, vector_cache


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """A cache file of the test's own, with vectors from a stand-in for the model."""
    path = tmp_path / "vectors.db"
    monkeypatch.setenv("DREAMER_EMBEDDING_CACHE", str(path))
    monkeypatch.setattr(embeddings, "_vectors", {})
    monkeypatch.setattr(embeddings, "encode_fresh", _stand_in_vectors)
    return path


def _stand_in_vectors(texts, *args, **kwargs) -> np.ndarray:
    """Vectors without the model: what the cache stores is what this test is about."""
    rows = [np.random.default_rng(abs(hash(t)) % 2**32).normal(size=embeddings.DIM)
            for t in texts]
    return np.array(rows, np.float32).reshape(len(texts), embeddings.DIM)


def _embed_in_child(worker: int) -> str:
    try:
        for round_ in range(20):
            embeddings.encode([f"worker {worker} round {round_} text {n}" for n in range(200)])
        return "ok"
    except Exception as exc:  # the test reports what the worker met
        return repr(exc)


def test_forked_workers_share_the_cache_with_the_process_that_forked_them(cache) -> None:
    """A dream's shard workers, forked from the dreaming process, embed through the same cache
    file as it. A connection the parent had dropped but not closed (a SQLite connection lives
    until a full collection, which a dream defers) was inherited by the fork, and once the
    parent's collector closed it the workers' own connections failed ('database disk image is
    malformed', seen in a 10K next-night dream). No connection outlives its call now."""
    enabled = gc.isenabled()
    gc.disable()  # as a dream defers its collections
    try:
        embeddings.encode([f"first night text {n}" for n in range(2_000)])
        embeddings._vectors.clear()
        embeddings.encode([f"first night text {n}" for n in range(10)])  # read back
        open_files = [f.path for f in psutil.Process().open_files()]
        assert not [name for name in open_files if name.startswith(str(cache))]
        with multiprocessing.get_context("fork").Pool(2) as pool:
            workers = pool.map_async(_embed_in_child, range(2))
            for round_ in range(20):
                embeddings.encode([f"parent round {round_} text {n}" for n in range(200)])
                gc.collect()
            assert workers.get(timeout=120) == ["ok", "ok"]
    finally:
        if enabled:
            gc.enable()


def test_a_damaged_cache_is_set_aside_with_its_reason_and_started_afresh(cache, caplog) -> None:
    cache.write_bytes(b"not a database: a disk that lost a page, or a copy cut short" * 100)
    texts = [f"Run the invoice tests before {n} releases." for n in range(5)]
    with caplog.at_level(logging.WARNING, logger="dreamer.vector_cache"):
        vectors = embeddings.encode(texts)
    assert vectors.shape == (5, embeddings.DIM)
    (aside,) = [p for p in cache.parent.iterdir() if ".damaged-" in p.name
                and not p.name.endswith((".reason", "-wal", "-shm"))]
    assert aside.read_bytes().startswith(b"not a database")  # kept as it was, not deleted
    reason = aside.with_name(aside.name + ".reason").read_text(encoding="utf-8")
    assert str(cache) in reason and "not a database" in reason
    assert "damaged" in caplog.text and str(aside) in caplog.text
    # the fresh cache holds the vectors: a new process finds them without embedding
    embeddings._vectors.clear()
    assert len(vector_cache.load([embeddings.key(t) for t in texts])) == 5


def test_a_sound_cache_is_kept_whatever_a_call_on_it_raised(cache) -> None:
    embeddings.encode(["Check CACHE_TTL before the nightly job."])

    def fails(connection: sqlite3.Connection) -> None:
        raise sqlite3.DatabaseError("a failure of this call, not of the file")

    def locked(connection: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(sqlite3.DatabaseError, match="this call"):
        vector_cache._use(cache, fails)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        vector_cache._use(cache, locked)
    assert [p.name for p in cache.parent.iterdir() if ".damaged-" in p.name] == []
    embeddings._vectors.clear()
    assert len(vector_cache.load([embeddings.key("Check CACHE_TTL before the nightly job.")])) == 1


def test_a_stored_vector_of_another_length_is_embedded_again_and_replaced(cache) -> None:
    text = "Never change LEGACY_STATUS_CODES without the migration."
    vector_cache.save({embeddings.key(text): np.ones(10, np.float32)})  # a cut write
    assert vector_cache.load([embeddings.key(text)]) == {}
    vector = embeddings.encode([text])[0]
    embeddings._vectors.clear()
    (stored,) = vector_cache.load([embeddings.key(text)]).values()
    assert stored.shape == (embeddings.DIM,) and np.allclose(stored, vector)
