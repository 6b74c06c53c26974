"""Recall latency of the router on synthetic banks (a benchmark, not a test).

For each bank size (1K, 10K, 100K memories by default) over a fixed number of repositories,
this builds a synthetic bank whose memories cite real line spans of synthetic working copies
(one per repository; some cited files are then edited or have their lines moved, so
verification finds stale and relocated citations), builds the indexes once (timed separately:
BM25 per repository, link graph, and the Chroma collection with MiniLM embeddings), then times
distinct scoped recalls end to end: scope, BM25, vectors, graph, rerank, verification against
the checkout, packing into the budget. It prints p50 and p95 with and without the embedding
leg, and how p95 grows with the bank. Once built, the indexes are exempt from the garbage
collector, as `dreamer mcp` settles its own (``dreamer.collector.settle``).

    .venv/bin/python benchmarks/router_latency.py                  # 1K, 10K, 100K
    .venv/bin/python benchmarks/router_latency.py --sizes 1000 --no-embeddings
    .venv/bin/python benchmarks/router_latency.py --home /tmp/bench   # build once, rerun fast
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

WORDS = (
    "order tax invoice cache retry lock timezone cursor token schema index migration queue worker "
    "payment refund webhook session cookie header upload thumbnail export csv json parser encoder "
    "pool socket timeout deadlock flaky fixture mock clock locale currency rounding discount cart "
    "checkout stock warehouse shipment label address email template render permission role audit"
).split()
SYMBOLS = ["parse_order", "Cart.total", "apply_discount", "RefundQueue.push", "render_invoice",
           "Session.refresh", "export_csv", "lock_row", "retry_webhook", "to_local_time"]


def _checkouts(root: Path, repos: list[str], files: int, lines: int, rng: random.Random):
    """One working copy per repository: ``files`` Python files of ``lines`` lines each."""
    contents: dict[str, dict[str, list[str]]] = {}
    for r, repo in enumerate(repos):
        base = root / f"repo{r}"
        contents[repo] = {}
        for f in range(files):
            rel = f"src/pkg{f % 5}/mod{f}.py"
            body = [f"def f_{r}_{f}_{i}(x):  # {rng.choice(WORDS)} {rng.random():.6f}"
                    for i in range(lines)]
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text("\n".join(body) + "\n")
            contents[repo][rel] = body
    return contents


def _bank(size: int, repos: list[str], contents, rng: random.Random):
    from dreamer.models import Bank, Citation, Link, Memory, Scope
    from dreamer.router import lines_sha256

    start = datetime(2026, 1, 1, tzinfo=UTC)
    memories = []
    for i in range(size):
        repo = repos[i % len(repos)]
        path = rng.choice(sorted(contents[repo]))
        body = contents[repo][path]
        s = rng.randint(1, len(body) - 4)
        e = s + rng.randint(0, 3)
        summary = " ".join(rng.choices(WORDS, k=rng.randint(8, 18)))
        memories.append(Memory(
            type=rng.choice(["failure", "procedural", "domain", "episodic"]),
            scope=Scope(repo=repo, branch=rng.choice([None, None, "main", "dev"]),
                        module=rng.choice([None, None, "src/pkg1", "src/pkg2"]),
                        phase=rng.choice([None, None, "edit", "test"])),
            summary=f"{summary} in {rng.choice(SYMBOLS)} (#{i})",
            citations=(
                Citation(kind="file", ref=path, path=path, start_line=s, end_line=e,
                         lines_sha256=lines_sha256(body[s - 1:e])),
                Citation(kind=rng.choice(["test", "session", "review"]), ref=f"ref-{i}"),
            ),
            confidence=round(rng.random(), 3),
            created_at=start + timedelta(hours=i % 5000),
            links=(Link(relation="symbol", target=rng.choice(SYMBOLS) + f"#{i % 97}"),),
        ))
    return Bank(memories=tuple(memories))


def _edit_checkouts(root: Path, repos: list[str], contents, rng: random.Random) -> None:
    """After the bank was made: edit 10% of files (stale) and shift 10% (relocated)."""
    for r, repo in enumerate(repos):
        for rel, body in contents[repo].items():
            roll = rng.random()
            if roll < 0.1:
                body = [line + "  # edited" for line in body]
            elif roll < 0.2:
                body = ["# header added", "", *body]
            else:
                continue
            (root / f"repo{r}" / rel).write_text("\n".join(body) + "\n")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(size: int, args: argparse.Namespace, embeddings: bool) -> dict[str, float]:
    """Build a bank of ``size`` memories and its checkouts in a temporary folder; time recalls."""
    with tempfile.TemporaryDirectory(prefix=f"router-bench-{size}-") as tmp:
        row = _measure(size, args, embeddings, Path(tmp))
    print(f"  {size} memories, vectors {'on' if embeddings else 'off'}: p95 {row['p95']:.1f} ms, "
          f"build {row['build_s']:.1f} s", file=sys.stderr, flush=True)
    return row


def _measure(size: int, args: argparse.Namespace, embeddings: bool, root: Path) -> dict[str, float]:
    from dreamer import collector
    from dreamer.router import Router, RouterConfig

    rng = random.Random(size)
    repos = [f"org{i % 5}/service-{i}" for i in range(args.repos)]
    contents = _checkouts(root, repos, args.files, args.lines, rng)
    t = time.perf_counter()
    bank = _bank(size, repos, contents, rng)
    made = time.perf_counter() - t
    _edit_checkouts(root, repos, contents, rng)

    router = Router(RouterConfig(embeddings=embeddings, index_cache=2))
    t = time.perf_counter()
    index = router.index(bank)
    index.warm(embeddings=embeddings)
    build = time.perf_counter() - t
    # As `dreamer mcp` does once its indexes are built: the collector no longer walks them (a
    # full collection beside a 100K bank's index took 0.5 s, in the recall it fell in).
    collector.settle()

    latencies, states = [], {"verified": 0, "relocated": 0, "stale": 0, "unchecked": 0}
    for q in range(args.queries + args.warmup):
        r = rng.randrange(len(repos))
        query = " ".join(rng.choices(WORDS, k=rng.randint(3, 7))) + " " + rng.choice(SYMBOLS)
        t = time.perf_counter()
        result = router.recall(
            bank, f"{query} {q}", repo=repos[r], budget=args.budget, checkout=root / f"repo{r}",
            branch=rng.choice([None, "main"]), phase=rng.choice([None, "edit"]),
        )
        elapsed = (time.perf_counter() - t) * 1000
        if q >= args.warmup:  # the first recalls warm the tokenizer and the file cache
            latencies.append(elapsed)
            for item in result.pack.items:
                states[item.verification] += 1
    gc.unfreeze()  # the next bank's run starts as this one did
    times = index.times
    return {
        "size": size, "make_s": made, "build_s": build, "prepare_s": times.prepare,
        "bm25_s": times.lexical, "graph_s": times.graph, "vectors_s": times.vectors,
        "embedded": times.embedded, "p50": statistics.median(latencies),
        "p95": _percentile(latencies, 0.95), "mean": statistics.fmean(latencies),
        "max": max(latencies), **states,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repos", type=int, default=20, help="repositories in each bank")
    parser.add_argument("--files", type=int, default=40, help="files per working copy")
    parser.add_argument("--lines", type=int, default=300, help="lines per file")
    parser.add_argument("--queries", type=int, default=300, help="timed recalls per bank")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--budget", type=int, default=1000, help="token budget of each recall")
    parser.add_argument("--embeddings", action=argparse.BooleanOptionalAction, default=True,
                        help="also measure with the vector leg (embeds every bank once)")
    parser.add_argument("--home", type=Path, default=None,
                        help="keep the Chroma collections here (kept afterwards): the banks are "
                             "seeded, so a second run reuses them instead of embedding again")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    home = str(args.home or tempfile.mkdtemp(prefix="router-bench-home-"))  # Chroma lives here
    os.environ["DREAMER_HOME"] = home
    modes = [False, True] if args.embeddings else [False]
    try:
        rows = [run(size, args, emb) | {"embeddings": emb} for emb in modes for size in args.sizes]
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nrouter recall latency: {args.repos} repositories, budget {args.budget} tokens, "
          f"{args.queries} distinct scoped queries per bank, verification against a checkout")
    print(f"{'memories':>9} {'vectors':>7} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8} "
          f"{'max ms':>8} {'build s':>8} {'bm25 s':>7} {'embed s':>8} {'served v/r/s/u':>16}")
    for row in rows:
        served = f"{row['verified']}/{row['relocated']}/{row['stale']}/{row['unchecked']}"
        print(f"{row['size']:>9} {'yes' if row['embeddings'] else 'no':>7} {row['p50']:>8.2f} "
              f"{row['p95']:>8.2f} {row['mean']:>8.2f} {row['max']:>8.1f} {row['build_s']:>8.1f} "
              f"{row['bm25_s']:>7.2f} {row['vectors_s']:>8.1f} {served:>16}")
    for emb in modes:
        series = [r for r in rows if r["embeddings"] == emb]
        if len(series) > 1:
            growth = ", ".join(
                f"{b['size'] // a['size']}x memories -> {b['p95'] / a['p95']:.2f}x p95"
                for a, b in zip(series, series[1:], strict=False))
            print(f"growth ({'with' if emb else 'without'} vectors): {growth}")


if __name__ == "__main__":
    main()
