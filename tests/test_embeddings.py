"""The shared embedder: one vector per distinct text, bfloat16 where the CPU computes it, and
queries (and float32 documents) through ONNX Runtime."""

from __future__ import annotations

import io

import numpy as np
import pytest

from dreamer import cpu, embeddings
from dreamer.errors import ConfigError


def test_precision_is_checked_and_is_part_of_every_key(monkeypatch) -> None:
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    fp32_key = embeddings.key("Run make migrate first.")
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "bf16")
    assert embeddings.key("Run make migrate first.") != fp32_key  # never mixed in the cache
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "half")
    with pytest.raises(ConfigError, match="DREAMER_EMBED_PRECISION must be auto, bf16 or fp32"):
        cpu.precision()
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "auto")
    assert cpu.precision() == ("bf16" if cpu._native_bf16() else "fp32")


def test_bfloat16_vectors_match_float32_ones(monkeypatch) -> None:
    texts = [
        "Order status goes through LEGACY_STATUS_CODES in orders/status.py.",
        "Status codes of orders are mapped by LEGACY_STATUS_CODES.",
        "Run make migrate before the integration tests.",
        "The integration tests need the migrations applied first (make migrate).",
        "Invoice totals round half-even through money.round_total.",
        "CACHE_TTL in config.py is 500 seconds; callers rely on it.",
    ]
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    full = embeddings.encode_fresh(texts)
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "bf16")
    half = embeddings.encode_fresh(texts)
    assert half.dtype == np.float32 and np.allclose(np.linalg.norm(half, axis=1), 1, atol=1e-5)
    assert (full * half).sum(axis=1).min() >= 0.9999
    nearest = lambda v: np.argsort(-(v @ v.T), axis=1)[:, 1]  # noqa: E731
    assert nearest(full).tolist() == nearest(half).tolist()


def test_queries_through_onnx_match_torch_and_rank_alike(monkeypatch) -> None:
    from dreamer import onnx_model

    documents = [
        "Order status goes through LEGACY_STATUS_CODES in orders/status.py.",
        "Run make migrate before the integration tests.",
        "Invoice totals round half-even through money.round_total.",
        "CACHE_TTL in config.py is 500 seconds; callers rely on it.",
        "Task: fix the refund rounding -> changed billing/refunds.py -> submitted.",
    ]
    queries = ["order status codes", "integration tests fail: migrations missing",
               "rounding of invoice totals", "cache ttl", "refund rounding bug in billing"]
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    docs = embeddings.encode_fresh(documents, engine="torch")
    monkeypatch.setenv("DREAMER_QUERY_ENGINE", "onnx")
    assert onnx_model.engine() == "onnx"
    fast = np.stack([onnx_model.encode_query(q) for q in queries])
    assert onnx_model.model_file().exists()  # exported once, then loaded without torch
    assert fast.dtype == np.float32 and np.allclose(np.linalg.norm(fast, axis=1), 1, atol=1e-5)
    monkeypatch.setenv("DREAMER_QUERY_ENGINE", "torch")
    slow = np.stack([onnx_model.encode_query(q) for q in queries])
    assert (fast * slow).sum(axis=1).min() >= 0.9999
    # The same documents in the same order for every query, and each query's own one first.
    assert np.argsort(-(fast @ docs.T), axis=1).tolist() == \
        np.argsort(-(slow @ docs.T), axis=1).tolist()
    assert np.argmax(fast @ docs.T, axis=1).tolist() == [0, 1, 2, 3, 4]


def test_query_engine_is_checked(monkeypatch) -> None:
    from dreamer import onnx_model

    monkeypatch.setenv("DREAMER_QUERY_ENGINE", "tensorrt")
    with pytest.raises(ConfigError, match="DREAMER_QUERY_ENGINE must be auto, onnx or torch"):
        onnx_model.engine()


def test_a_failing_onnx_model_falls_back_to_torch_unless_onnx_was_asked_for(
    monkeypatch, caplog
) -> None:
    from dreamer import onnx_model

    def broken() -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(onnx_model, "session", broken)
    monkeypatch.setattr(onnx_model, "_failed", None)
    monkeypatch.setattr(onnx_model, "_available", lambda: True)
    monkeypatch.setenv("DREAMER_QUERY_ENGINE", "onnx")
    with pytest.raises(OSError, match="No space left"):
        onnx_model.encode_query("cache ttl")
    monkeypatch.setenv("DREAMER_QUERY_ENGINE", "auto")
    vector = onnx_model.encode_query("cache ttl")
    assert vector.shape == (embeddings.DIM,) and abs(float(np.linalg.norm(vector)) - 1) < 1e-4
    assert "ONNX model failed (OSError: No space left on device)" in caplog.text
    assert onnx_model._failed is not None  # not tried again in this process


_DOCUMENTS = [
    "Order status goes through LEGACY_STATUS_CODES in orders/status.py.",
    "Run make migrate before the integration tests.",
    "Invoice totals round half-even through money.round_total; never float arithmetic, "
    "because the ledger export compares cents and a float sum drifts by one cent in about one "
    "invoice of a thousand (seen in the March reconciliation).",
    "CACHE_TTL in config.py is 500 seconds; callers rely on it.",
    "Task: fix the refund rounding -> changed billing/refunds.py -> submitted.",
    "ok",
] * 3  # more than one batch: texts of very different lengths share batches, padded


def test_documents_through_onnx_match_torch_float32_and_rank_alike(monkeypatch) -> None:
    from dreamer import onnx_model

    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    monkeypatch.setattr(onnx_model, "BATCH", 2)  # several runs of texts on two callers
    fast = embeddings.encode_fresh(_DOCUMENTS, count=2, engine="onnx")
    assert np.array_equal(fast, embeddings.encode_fresh(_DOCUMENTS, count=1, engine="onnx"))
    slow = embeddings.encode_fresh(_DOCUMENTS, engine="torch")
    assert fast.shape == slow.shape == (len(_DOCUMENTS), embeddings.DIM)
    assert fast.dtype == np.float32 and np.allclose(np.linalg.norm(fast, axis=1), 1, atol=1e-5)
    assert (fast * slow).sum(axis=1).min() >= 0.9999  # the padding is masked out of the mean
    order = lambda v: np.argsort(-(v @ v.T), axis=1)[:, :6].tolist()  # noqa: E731
    assert order(fast) == order(slow)


def test_the_documents_engine_follows_the_precision_and_is_checked(monkeypatch) -> None:
    from dreamer import onnx_model

    monkeypatch.setattr(onnx_model, "_available", lambda: True)
    monkeypatch.setattr(onnx_model, "_bulk_failed", None)
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "bf16")
    assert onnx_model.document_engine() == "torch"  # the bfloat16 model is faster there
    assert embeddings.tag() == f"{embeddings.MODEL_TAG}-{embeddings.HALF_TAG}"
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    assert onnx_model.document_engine() == "onnx"
    assert embeddings.tag() == embeddings.MODEL_TAG
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "bf16")
    monkeypatch.setenv("DREAMER_EMBED_ENGINE", "onnx")  # float32 vectors, keyed as such
    assert onnx_model.document_engine() == "onnx" and embeddings.tag() == embeddings.MODEL_TAG
    monkeypatch.setenv("DREAMER_EMBED_ENGINE", "gpu")
    with pytest.raises(ConfigError, match="DREAMER_EMBED_ENGINE must be auto, onnx or torch"):
        onnx_model.document_engine()


def test_failing_onnx_documents_fall_back_to_torch_unless_onnx_was_asked_for(
    monkeypatch, caplog
) -> None:
    from dreamer import onnx_model

    def broken() -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(onnx_model, "session", broken)
    monkeypatch.setattr(onnx_model, "_bulk_failed", None)
    monkeypatch.setattr(onnx_model, "_available", lambda: True)
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", "fp32")
    monkeypatch.setenv("DREAMER_EMBED_ENGINE", "onnx")
    with pytest.raises(OSError, match="No space left"):
        embeddings.encode_fresh(_DOCUMENTS[:2])
    monkeypatch.setenv("DREAMER_EMBED_ENGINE", "auto")
    vectors = embeddings.encode_fresh(_DOCUMENTS[:2])
    assert vectors.shape == (2, embeddings.DIM)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)
    assert "documents are embedded by torch: the ONNX model failed" in caplog.text
    assert onnx_model.document_engine() == "torch"  # not tried again in this process


@pytest.mark.parametrize("precision", ["bf16", "fp32"])
def test_many_texts_embedded_in_forked_processes_match_one_process(monkeypatch,
                                                                   precision: str) -> None:
    texts = [f"{verb} {thing} in module_{n}.py before release {n % 7}."
             for n, (verb, thing) in enumerate(
                 (v, t) for v in ("Check", "Never change", "Round", "Migrate", "Cache")
                 for t in ("LEGACY_STATUS_CODES", "the invoice totals", "CACHE_TTL",
                           "the refund path", "orders/status.py", "the nightly job")
                 for _ in range(3))]
    monkeypatch.setenv("DREAMER_EMBED_PRECISION", precision)
    monkeypatch.setenv("DREAMER_EMBED_ENGINE", "torch")
    alone = embeddings.encode_fresh(texts, count=1)
    monkeypatch.setattr(embeddings, "FORK_MIN", 16)
    forked = embeddings.encode_fresh(texts, count=2)
    assert forked.shape == alone.shape == (len(texts), embeddings.DIM)
    # each text keeps its own vector, whichever process and batch embedded it
    assert (alone * forked).sum(axis=1).min() >= 0.99999
    assert embeddings._shared is None


def test_a_stopped_embedding_keeps_its_finished_chunks_and_shows_its_progress(
        monkeypatch, tmp_path) -> None:
    from rich.console import Console

    from dreamer import progress

    monkeypatch.setenv("DREAMER_EMBEDDING_CACHE", str(tmp_path / "vectors.db"))
    monkeypatch.setattr(embeddings, "_vectors", {})
    monkeypatch.setattr(embeddings, "CHUNK", 4)
    monkeypatch.setattr(embeddings, "PROGRESS_MIN", 8)
    screen = io.StringIO()
    monkeypatch.setattr(progress, "_terminal", lambda: True)
    monkeypatch.setattr("rich.console.Console", lambda **_: Console(
        file=screen, force_terminal=True, width=100))
    texts = [f"Run the {thing} tests before touching {where} ({n} sessions saw it fail)."
             for n, (thing, where) in enumerate(
                 (t, w) for t in ("invoice", "refund", "ledger") for w in ("money.py", "tax.py",
                                                                         "orders/status.py"))]
    expected = embeddings.encode_fresh(texts, count=1)
    real, asked = embeddings.encode_fresh, []

    def cut_after_two_chunks(chunk, *args, **kwargs):
        asked.append(list(chunk))
        if len(asked) == 3:
            raise RuntimeError("power cut")
        return real(chunk, *args, **kwargs)

    monkeypatch.setattr(embeddings, "encode_fresh", cut_after_two_chunks)
    events: list[progress.Event] = []
    with progress.listen(events.append), pytest.raises(RuntimeError, match="power cut"):
        embeddings.encode(texts)
    assert [(e.step, e.completed, e.total) for e in events] == [
        ("embed", 0, 9), ("embed", 4, 9), ("embed", 8, 9)]
    assert "embed" in screen.getvalue() and progress._progress is None  # the bar closed

    # The next run (a new process: only the file remains) embeds only the text not stored:
    # the chunks go longest text first (ties by key).
    first_two_chunks = sorted(texts, key=lambda t: (-len(t), embeddings.key(t)))[:8]
    embeddings._vectors.clear()
    asked.clear()
    vectors = embeddings.encode(texts)
    assert asked == [[t for t in texts if t not in first_two_chunks]]
    # The vectors one call gives: in bfloat16 to a cosine of 0.9999, as a text's vector moves
    # in the fifth decimal with the batch it is padded in (here the last chunk holds one
    # text; 0.99998 seen on an AMX machine), in float32 closer.
    assert (vectors * expected).sum(axis=1).min() >= 0.9999


def test_loading_the_packaged_model_draws_no_bar_and_keeps_the_callers_setting(capfd) -> None:
    from transformers.utils import logging as transformers_logging

    assert transformers_logging.is_progress_bar_enabled()
    embeddings._load_model()
    assert "Loading weights" not in capfd.readouterr().err
    assert transformers_logging.is_progress_bar_enabled()
