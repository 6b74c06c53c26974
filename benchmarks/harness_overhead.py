"""How much time the replay harness adds on top of the tests it runs (a benchmark, not a test).

Builds the demo suite in a temporary folder, runs it for its bank at the default budgets with
the ``selector`` agent and both baselines, once serially and once on every core, and prints the
suite's wall time against the raw time of the test runs it executed (each one timed around its
subprocess only). Reused grades (the same patch chosen at several budgets) are counted once.

    .venv/bin/python benchmarks/harness_overhead.py [--embeddings]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str]) -> None:
    if "--embeddings" not in argv:
        os.environ.setdefault("DREAMER_ROUTER_EMBEDDINGS", "0")
    with tempfile.TemporaryDirectory(prefix="dreamer-bench-") as tmp:
        os.environ["DREAMER_HOME"] = str(Path(tmp) / "home")
        from dreamer.router import pack
        from evals.examples.demo import build_demo
        from evals.suite import SuiteConfig, run_suite

        started = time.monotonic()
        demo = build_demo(Path(tmp) / "demo")
        pack(demo.bank, "warm up", repo="acme/pricing")  # router start-up, reported apart
        print(f"suite build + router start-up: {time.monotonic() - started:.2f}s")
        for workers in (1, os.cpu_count() or 1):
            config = SuiteConfig(suite="demo", agent="selector", workers=workers, timeout_s=120)
            result = run_suite(demo.tasks, demo.bank, config, Path(tmp) / f"run-{workers}")
            table = result.table
            fresh = int((~table["cached"]).sum())
            test_s = result.test_time_s
            print(
                f"workers={workers}: {len(table)} attempts, {fresh} test runs; wall "
                f"{result.wall_s:.2f}s, raw test time {test_s:.2f}s; harness overhead "
                f"{result.wall_s - test_s / workers:.2f}s "
                f"({(result.wall_s - test_s / workers) / max(fresh, 1):.2f}s per test run), "
                f"wall/raw = {result.wall_s / max(test_s / workers, 1e-9):.2f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
