"""MiniLM through ONNX Runtime against the product's torch path (a benchmark, not a test).

Exports the packaged all-MiniLM-L6-v2's transformer to ONNX offline (``dreamer.onnx_model.export``,
``torch.onnx.export`` with the ``onnx`` package; sentence-transformers' own ONNX backend needs
``optimum-onnx``, whose pins would downgrade transformers), then embeds the distinct texts
of a synthetic bank three ways on ``dreamer.cpu.threads()`` threads: the product path
(``encode_fresh``), a plain ``SentenceTransformer.encode``, and ONNX Runtime (same tokenizer,
mean pooling, unit vectors). Prints texts/s and CPU seconds of each (two rounds, the first warms
caches), the cosine between torch and ONNX vectors, and the agreement of their 10 nearest
neighbours for 200 texts (recall@10 of ONNX against torch).

    .venv/bin/python benchmarks/embedding_onnx.py [--size 1000]

Bulk embedding stays on torch (bfloat16 is faster there); queries, one short text at a time, go
through ONNX Runtime (``dreamer.onnx_model``): the last lines time one query each way.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1000, help="memories in the bank")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dreamer-onnx-bench-") as tmp:  # the export: 87 MiB
        _compare(args.size, Path(tmp) / "minilm.onnx")


def _compare(size: int, path: Path) -> None:
    os.environ["DREAMER_EMBEDDING_CACHE"] = "off"
    import onnxruntime as ort
    import torch
    from synthetic_bank import synthetic_bank

    from dreamer import cpu, embeddings, onnx_model
    from dreamer.stages.base import memory_text

    texts = list(dict.fromkeys(memory_text(m) for m in synthetic_bank(size).memories))
    model = embeddings.model()
    started = time.perf_counter()
    onnx_model.export(path)
    print(f"export: {time.perf_counter() - started:.1f}s")
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = cpu.threads(), 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def onnx_encode(batch: list[str]) -> np.ndarray:
        order = sorted(range(len(batch)), key=lambda i: -len(batch[i]))
        out = np.empty((len(batch), embeddings.DIM), np.float32)
        for start in range(0, len(order), embeddings.BATCH):
            rows = order[start:start + embeddings.BATCH]
            enc = model.tokenizer([batch[i] for i in rows], padding=True, truncation=True,
                                  max_length=model.max_seq_length, return_tensors="np")
            feed = {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask",
                                                         "token_type_ids")}
            hidden = session.run(None, feed)[0]
            mask = feed["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(1) / np.clip(mask.sum(1), 1e-9, None)
            out[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out

    def plain(batch: list[str]) -> np.ndarray:
        torch.set_num_threads(cpu.threads())
        return np.asarray(model.encode(batch, normalize_embeddings=True, show_progress_bar=False,
                                       convert_to_numpy=True))

    ways = {"product (encode_fresh)": embeddings.encode_fresh, "plain encode": plain,
            "onnx runtime": onnx_encode}
    print(f"{len(texts)} distinct texts, {cpu.threads()} thread(s), load average "
          f"{os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M')}")
    vectors: dict[str, np.ndarray] = {}
    for round_ in (1, 2):
        for name, encode in ways.items():
            wall, used = time.perf_counter(), time.process_time()
            vectors[name] = encode(texts)
            wall, used = time.perf_counter() - wall, time.process_time() - used
            print(f"  round {round_}: {name:<22} {len(texts) / wall:7.1f} texts/s, "
                  f"{used:6.1f} CPU s ({used / len(texts) * 1e5 / 3600:.2f} CPU h per 100K texts)")
    torch_v, onnx_v = vectors["product (encode_fresh)"], vectors["onnx runtime"]
    cosine = (torch_v * onnx_v).sum(1)
    picks = np.random.default_rng(0).choice(len(texts), min(200, len(texts)), replace=False)
    agree = [len(set(np.argsort(-(torch_v @ torch_v[i]))[1:11])
                 & set(np.argsort(-(onnx_v @ onnx_v[i]))[1:11])) / 10 for i in picks]
    print(f"  cosine torch/onnx: min {cosine.min():.6f}, mean {cosine.mean():.6f}; "
          f"recall@10 of onnx neighbours against torch: {np.mean(agree):.3f}")
    _queries(texts, path)


def _queries(texts: list[str], path: Path) -> None:
    """One query at a time, as a recall embeds it: torch (the product's old path) and ONNX."""
    import statistics

    from dreamer import embeddings, onnx_model

    session = onnx_model._Session(path)
    queries = [" ".join(t.split()[:6]) for t in texts[:60]]
    ways = {"torch (encode_fresh, 1 thread)":
            lambda q: embeddings.encode_fresh([q], count=1)[0], "onnx runtime": session.encode}
    for name, encode in ways.items():
        for q in queries[:5]:
            encode(q)
        took = []
        for q in queries:
            started = time.perf_counter()
            encode(q)
            took.append((time.perf_counter() - started) * 1000)
        took.sort()
        print(f"  one query, {name:<30} p50 {statistics.median(took):5.1f} ms, "
              f"p95 {took[round(0.95 * (len(took) - 1))]:5.1f} ms")
    cosine = [float(embeddings.encode_fresh([q], count=1)[0] @ session.encode(q))
              for q in queries[:20]]
    print(f"  one query, cosine torch/onnx: min {min(cosine):.6f}")


if __name__ == "__main__":
    main(sys.argv[1:])
