"""First-recall latency of ``dreamer mcp`` through the MCP SDK's stdio client (a benchmark).

Stores a synthetic bank (memories citing real line spans of synthetic working copies, as in
``router_latency.py``) as the ``production`` bank of its repositories, then opens real client
sessions on ``python -m dreamer.router.mcp_server``:

1. ``warm, fresh home``: nothing cached yet (the embeddings of the bank are computed);
2. ``--no-warm, restart``: the model and the indexes load at the first recall (before);
3. ``warm, restart``: they load in a background thread from start-up (after).

For each it prints the time to ``initialize``, the first recall right after it (and whether it
ran without the vector leg because the warm-up was still going), when the warm-up was done
(polling recalls, each answered meanwhile), the first recall with the vector leg, and p50/p95
of the next recalls. Restarts reuse the store's embedding cache and Chroma folder, as a server
restarted on a dreamed bank does.

    .venv/bin/python benchmarks/mcp_first_recall.py [--size 1000] [--repos 5] [--queries 40]
        [--bank-per-repo]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
ROOT = Path(__file__).resolve().parents[1]


def _prepare(home: Path, args: argparse.Namespace) -> tuple[list[str], Path]:
    """Store the bank as production of each repository; return the repositories and checkouts."""
    import router_latency as rl

    from dreamer.models import Bank
    from dreamer.store import open_store

    rng = random.Random(args.size)
    repos = [f"org{i}/service-{i}" for i in range(args.repos)]
    root = home / "checkouts"
    contents = rl._checkouts(root, repos, 20, 200, rng)
    bank = rl._bank(args.size, repos, contents, rng)
    store = open_store()
    try:
        if not args.bank_per_repo:
            store.banks.put(bank)
        for repo in repos:
            served = bank
            if args.bank_per_repo:  # a team's server: each repository its own production bank
                served = Bank(memories=tuple(m for m in bank.memories if m.scope.repo == repo))
                store.banks.put(served)
            store.banks.move_alias("production", served.id, repo=repo, reason="benchmark")
    finally:
        store.close()
    return repos, root


async def _session(label: str, warm: bool, repos: list[str], root: Path,
                   args: argparse.Namespace) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from dreamer.router.mcp_server import WARMING_NOTE

    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "dreamer.router.mcp_server", *([] if warm else ["--no-warm"])], env=env)
    rng = random.Random(1)
    words = "order tax invoice cache retry lock timezone cursor schema queue refund".split()

    def query() -> dict[str, object]:
        r = rng.randrange(len(repos))
        return {"query": " ".join(rng.choices(words, k=5)), "repo": repos[r], "budget": 1000,
                "checkout": str(root / f"repo{r}")}

    async def recall() -> tuple[float, list[str]]:
        t = time.perf_counter()
        result = await client.call_tool("recall", query())
        elapsed = time.perf_counter() - t
        assert not result.is_error, result.content
        payload = result.structured_content or json.loads(result.content[0].text)
        return elapsed, list(payload.get("notes", []))

    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        ready = time.perf_counter() - started
        first, notes = await recall()
        degraded = WARMING_NOTE in notes
        polls = 0
        while WARMING_NOTE in notes:
            time.sleep(0.25)
            _, notes = await recall()
            polls += 1
        warmed = time.perf_counter() - started
        vector_first, _ = await recall()
        later = sorted([(await recall())[0] * 1000 for _ in range(args.queries)])
    p95 = later[min(len(later) - 1, round(0.95 * (len(later) - 1)))]
    print(f"  {label}: initialize {ready:.2f}s; first recall {first:.2f}s"
          f"{' (warming up: no vector leg)' if degraded else ''}; warm at {warmed:.1f}s after "
          f"start ({polls} recalls answered meanwhile); first recall with vectors "
          f"{vector_first * 1000:.0f} ms; next {len(later)}: p50 {statistics.median(later):.0f} "
          f"ms, p95 {p95:.0f} ms", flush=True)


def main(argv: list[str]) -> None:
    import anyio

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1000, help="memories in the bank")
    parser.add_argument("--repos", type=int, default=5)
    parser.add_argument("--queries", type=int, default=40, help="recalls timed after warm-up")
    parser.add_argument("--bank-per-repo", action="store_true",
                        help="each repository its own bank (default: one bank for all)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dreamer-mcp-bench-") as tmp:
        home = Path(tmp)
        os.environ["DREAMER_HOME"] = str(home)
        repos, root = _prepare(home, args)
        print(f"dreamer mcp, {args.size} memories over {args.repos} repositories; load average "
              f"{os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
        for label, warm in (("warm, fresh home", True), ("--no-warm, restart", False),
                            ("warm, restart", True)):
            anyio.run(_session, label, warm, repos, root, args)


if __name__ == "__main__":
    main(sys.argv[1:])
