"""How the default dream scales with the bank (a benchmark, not a test: figures are printed).

For each size (1K and 10K memories by default; ``--full`` adds 100K) a synthetic extraction bank
(``benchmarks/synthetic_bank.py``: duplicates, changed settings, recurring failures, citations)
is dreamt with the ``default`` strategy in a fresh process, and this prints per stage the CPU
seconds (every thread of the process) and wall seconds, then the embeddings per second, the
peak memory (max RSS) and the growth of the total CPU from one size to the next (10K -> 100K
with ``--full``). Embedding is its own line: the distinct texts of the bank are embedded once,
up front, as the first stage would; the stages then find them in the cache. Each size starts
from an empty embedding cache of its own (a temporary file), so the first dream is cold.

Then the *next night*: the same bank plus 1% new memories (from another seed, same
repositories), dreamt in a new process that finds the first night's vectors in the cache, as a
nightly run does; its wall time includes embedding the new texts and those the stages write.

    .venv/bin/python benchmarks/dream_scale.py                 # 1K, 10K with MiniLM
    .venv/bin/python benchmarks/dream_scale.py --full          # 1K, 10K, 100K
    .venv/bin/python benchmarks/dream_scale.py --sizes 200 2000 --stand-in   # no model
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def stand_in_vectors(texts: list[str]) -> Any:
    """A cheap deterministic embedder for tests and quick runs: hashed character n-grams,
    projected to 256 dimensions with a fixed random matrix (texts sharing words stay close)."""
    import numpy as np
    from sklearn.feature_extraction.text import HashingVectorizer

    hashed = HashingVectorizer(analyzer="char_wb", ngram_range=(3, 5), n_features=4096,
                               alternate_sign=False, norm="l2").transform(texts)
    projection = np.random.default_rng(0).standard_normal((4096, 256)).astype(np.float32)
    vectors = np.asarray(hashed @ projection, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def use_stand_in() -> None:
    """Replace the MiniLM encoder of this process with ``stand_in_vectors``."""
    import numpy as np

    from dreamer.stages import similarity

    cache: dict[str, Any] = {}

    def encode(cls: Any, texts: Any) -> Any:  # cached by text, as MiniLM's vectors are
        missing = sorted(set(texts) - cache.keys())
        if missing:
            cache.update(zip(missing, stand_in_vectors(missing), strict=True))
        return np.stack([cache[t] for t in texts]) if texts else np.zeros((0, 256))

    similarity._MiniLM.encode = classmethod(encode)  # type: ignore[method-assign, assignment]


def _cpu() -> float:
    """CPU seconds of this process and of its finished workers (a dream's shards)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class _TreeMemory:
    """The peak of this process's and its children's proportional set size (PSS: a page that
    forked processes share counts once in all), sampled every 0.5 s in a thread."""

    def __init__(self) -> None:
        import threading

        self.peak = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psutil

        me = psutil.Process()
        while not self._done.wait(0.5):
            total = 0
            for process in [me, *me.children(recursive=True)]:
                try:
                    total += process.memory_full_info().pss
                except (psutil.Error, AttributeError):
                    continue
            self.peak = max(self.peak, total / 2**20)

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        return self.peak


def measure(size: int, stand_in: bool = False, seed: int = 7, repeat: int = 1,
            night: bool = False) -> dict[str, Any]:
    """Dream a synthetic bank of ``size`` in this process; per-stage CPU and wall seconds (the
    least of ``repeat`` dreams, each with a fresh context; texts stay embedded). ``night``:
    the bank plus 1% new memories, nothing embedded up front (the next night's dream)."""
    sys.path.insert(0, str(HERE))
    from synthetic_bank import synthetic_bank

    from dreamer.bank_tokens import active_tokens
    from dreamer.lm import lm_name
    from dreamer.pipeline import dream, make_context
    from dreamer.stages.base import memory_text
    from dreamer.strategy import load_strategy

    if stand_in:
        use_stand_in()
    bank = synthetic_bank(size, seed=seed)
    if night:
        new = synthetic_bank(size, seed=seed + 1).memories[:max(1, size // 100)]
        bank = bank.model_copy(update={"memories": bank.memories + tuple(new)})
    plan = load_strategy("default")
    context = make_context(plan)
    # Imports and one-off loads (tokenizer, the model) are start-up, not the dream's growth.
    active_tokens(bank.model_copy(update={"memories": bank.memories[:1]}))
    lm_name(None)
    started = time.perf_counter()
    context.similarity.embed(["warm up"])
    load_s = time.perf_counter() - started
    stages: dict[str, dict[str, float]] = {}
    texts = sorted({memory_text(m) for m in bank.memories})
    memory = _TreeMemory()
    cpu, wall = _cpu(), time.perf_counter()
    if not night:
        context.similarity.embed(texts)
    embed = {"cpu": _cpu() - cpu, "wall": time.perf_counter() - wall}
    total = {"cpu": float("inf"), "wall": float("inf")}
    for attempt in range(repeat):
        cpu, wall = _cpu(), time.perf_counter()
        result = dream(bank, plan, context if attempt == 0 else make_context(plan))
        for name, took in result.timings.items():  # with shards: CPU of all, wall of the longest
            best = stages.setdefault(name, took)
            stages[name] = {k: min(best[k], took[k]) for k in took}
        total = {"cpu": min(total["cpu"], _cpu() - cpu + embed["cpu"]),
                 "wall": min(total["wall"], time.perf_counter() - wall + embed["wall"])}
    return {
        "size": len(bank.memories), "texts": len(texts), "model_load_s": load_s,
        "repos": len({m.scope.repo for m in bank.memories}),
        "embed": embed, "stages": stages, "total": total,
        "other": {k: total[k] - embed[k] - sum(s[k] for s in stages.values())
                  for k in ("cpu", "wall")},
        "active_after": len(result.bank.active),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "peak_worker_rss_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "shards": result.shards,
        "peak_tree_pss_mib": memory.stop(),
    }


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Thread counts of numpy's BLAS. Its idle threads spin while they wait for work, and on a
loaded machine that spinning is counted as the process's CPU time, in proportion to the wall
time of the larger matrix products: a growth in CPU that is not the dream's work."""


def in_child(size: int, stand_in: bool, repeat: int = 1, single_blas: bool = False,
             cache: Path | None = None, night: bool = False) -> dict[str, Any]:
    """``measure`` in a fresh process (its own peak memory, no warm caches but ``cache``, the
    embedding cache file: a new empty one by default); ``single_blas`` runs numpy's BLAS on one
    thread, so that CPU seconds count work, not spinning."""
    if cache is None:
        with tempfile.TemporaryDirectory(prefix="dream-scale-") as tmp:
            return in_child(size, stand_in, repeat, single_blas, Path(tmp) / "embeddings.db",
                            night)
    cmd = [sys.executable, __file__, "--one", str(size), "--repeat", str(repeat)] \
        + (["--stand-in"] if stand_in else []) + (["--night"] if night else [])
    env = {**os.environ, "DREAMER_EMBEDDING_CACHE": str(cache), "PYTHONPATH": os.pathsep.join(
        [str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    if single_blas:
        env.update(dict.fromkeys(BLAS_THREADS, "1"))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _workers(run: dict[str, Any]) -> str:
    tree = f", with its workers {run['peak_tree_pss_mib']:.0f} MiB (PSS)"
    if run["shards"] < 2:
        return tree
    return (f"{tree} (the stages in {run['shards']} shard processes, the largest "
            f"{run['peak_worker_rss_mib']:.0f} MiB RSS; stage CPU summed, wall the longest "
            "shard's)")


def _report(size: int, args: argparse.Namespace, cache: Path) -> dict[str, Any]:
    """Dream a bank of ``size`` memories from an empty cache at ``cache`` (and its next night
    on that cache), print the figures, return the first run's."""
    run = in_child(size, args.stand_in, args.repeat, cache=cache)
    print(f"\n{run['size']} memories ({run['texts']} distinct texts, {run['repos']} "
          f"repositories) -> {run['active_after']} active; peak memory "
          f"{run['peak_rss_mib']:.0f} MiB{_workers(run)}; embedder loaded in "
          f"{run['model_load_s']:.1f}s", flush=True)
    rate = run["texts"] / max(run["embed"]["wall"], 1e-9)
    print(f"  {'embed':<15} cpu {run['embed']['cpu']:8.2f}s  wall "
          f"{run['embed']['wall']:8.2f}s  ({rate:.0f} embeddings/s)")
    for name, t in run["stages"].items():
        print(f"  {name:<15} cpu {t['cpu']:8.2f}s  wall {t['wall']:8.2f}s")
    print(f"  {'(pipeline)':<15} cpu {run['other']['cpu']:8.2f}s  wall "
          f"{run['other']['wall']:8.2f}s")
    print(f"  {'total':<15} cpu {run['total']['cpu']:8.2f}s  wall "
          f"{run['total']['wall']:8.2f}s", flush=True)
    if not args.no_night and not args.stand_in:
        night = in_child(size, False, cache=cache, night=True)
        print(f"  next night, {night['size']} memories (1% new), the cache warm: total cpu "
              f"{night['total']['cpu']:.2f}s, wall {night['total']['wall']:.2f}s; peak "
              f"memory {night['peak_rss_mib']:.0f} MiB{_workers(night)}", flush=True)
    return run


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--full", action="store_true", help="add 100K to the sizes")
    parser.add_argument("--stand-in", action="store_true",
                        help="a hashed n-gram embedder instead of MiniLM (isolates the rest)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="dream each bank this many times; the least time is printed")
    parser.add_argument("--no-night", action="store_true", help="skip the next night's dream")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--night", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.stand_in, repeat=args.repeat, night=args.night)))
        return
    sizes = sorted(set(args.sizes + ([100_000] if args.full else [])))
    load = os.getloadavg()
    print(f"dream scale, {'stand-in embedder' if args.stand_in else 'MiniLM'}, "
          f"{os.cpu_count()} cores, load average {load[0]:.1f} at start "
          f"({time.strftime('%Y-%m-%d %H:%M')})", flush=True)
    runs = []
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="dream-scale-") as tmp:  # 200 MiB at 100K
            runs.append(_report(size, args, Path(tmp) / "embeddings.db"))
    for a, b in zip(runs, runs[1:], strict=False):
        growth = {name: b["stages"][name]["cpu"] / max(a["stages"][name]["cpu"], 1e-3)
                  for name in b["stages"]}
        worst = max(growth, key=lambda name: growth[name])
        print(f"\n{a['size']} -> {b['size']} ({b['size'] / a['size']:.0f}x memories): total "
              f"cpu x{b['total']['cpu'] / max(a['total']['cpu'], 1e-9):.1f}, wall "
              f"x{b['total']['wall'] / max(a['total']['wall'], 1e-9):.1f}; stage cpu growth "
              + ", ".join(f"{k} x{v:.1f}" for k, v in growth.items())
              + f" (largest: {worst})")


if __name__ == "__main__":
    main(sys.argv[1:])
