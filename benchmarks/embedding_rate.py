"""Embeddings per second: the old path against ``dreamer.embeddings`` (a benchmark, not a test).

On the distinct texts of a synthetic bank (``benchmarks/synthetic_bank.py``) this times:

- ``before``: what the router did before, chunks of 256 texts in bank order, one ``encode`` call
  per chunk, torch on every core;
- ``after``: ``dreamer.embeddings.encode_fresh``: one call over every text, sorted by length,
  torch on ``dreamer.cpu.threads()`` threads (all cores but one by default);
- ``cached``: ``dreamer.embeddings.encode`` once the texts are in the cache (what the router
  pays for the texts the dream embedded, and the next dream for unchanged memories).

    .venv/bin/python benchmarks/embedding_rate.py [--size 2000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=2000, help="memories in the bank")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    with tempfile.TemporaryDirectory(prefix="dreamer-embed-bench-") as tmp:
        os.environ["DREAMER_EMBEDDING_CACHE"] = str(Path(tmp) / "embeddings.db")
        _compare(args.size)


def _compare(size: int) -> None:
    import torch
    from synthetic_bank import synthetic_bank

    from dreamer import cpu, embeddings
    from dreamer.stages.base import memory_text

    texts = list(dict.fromkeys(memory_text(m) for m in synthetic_bank(size).memories))
    model = embeddings.model()
    model.encode(["warm up"])
    load = os.getloadavg()[0]
    print(f"{len(texts)} distinct texts, {os.cpu_count()} cores, load average {load:.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")

    torch.set_num_threads(os.cpu_count() or 1)
    started = time.perf_counter()
    for start in range(0, len(texts), 256):
        model.encode(texts[start:start + 256], batch_size=64, normalize_embeddings=True,
                     show_progress_bar=False, convert_to_numpy=True)
    before = time.perf_counter() - started
    started = time.perf_counter()
    embeddings.encode(texts)  # fresh: nothing cached yet
    after = time.perf_counter() - started
    embeddings._vectors.clear()  # the in-memory cache; the SQLite file is what a new process sees
    started = time.perf_counter()
    embeddings.encode(texts)
    cached = time.perf_counter() - started
    for name, took in (("before (chunks of 256, all cores)", before),
                       (f"after (one length-sorted call, {cpu.threads()} threads)", after),
                       ("cached (read back by content hash)", cached)):
        print(f"  {name:<48} {took:7.2f}s  {len(texts) / took:9.0f} embeddings/s")


if __name__ == "__main__":
    main(sys.argv[1:])
