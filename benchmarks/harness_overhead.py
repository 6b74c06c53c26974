"""How much time the replay harness adds on top of the tests it runs (a benchmark, not a test).

Builds the demo suite in a temporary folder, runs it for its bank at the default budgets with
the ``selector`` agent and both baselines, once serially and once on every core, and prints the
suite's wall time (the whole ``run_suite`` call: packs, leak checks, attempts, summary) against
the raw time of the test runs it executed (each one timed around its subprocess only), measured
in the same run. Reused grades (the same patch chosen at several budgets) are counted once. With
N workers the raw time is divided by N (the tests could at best run N at a time).

The worker counts run in turn ``--repeat`` times (default 3) in the same process, each run
printed, then the median and range per count: a suite of two seconds of tests moves by several
percent with the machine's state (seen here: a second core waking from idle adds 0.05-0.1 s to
a two-worker start), so one run says little.

``--corpus FOLDER`` runs a replay corpus's tasks instead (e.g. ``datasets/blind/fare-engine``,
whose tasks run real pytest suites of a few seconds), with an empty bank: the demo's six test
runs take about two seconds in all, so its fixed costs weigh more than a real suite's do.

    .venv/bin/python benchmarks/harness_overhead.py [--embeddings] [--repeat R] [--workers N ...]
    .venv/bin/python benchmarks/harness_overhead.py --corpus datasets/blind/fare-engine
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def main(argv: list[str]) -> None:
    if "--embeddings" not in argv:
        os.environ.setdefault("DREAMER_ROUTER_EMBEDDINGS", "0")
    counts = [int(a) for a in argv[argv.index("--workers") + 1:] if a.isdigit()] \
        if "--workers" in argv else [1, os.cpu_count() or 1]
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 3
    ratios: dict[int, list[float]] = {workers: [] for workers in counts}
    with tempfile.TemporaryDirectory(prefix="dreamer-bench-") as tmp:
        os.environ["DREAMER_HOME"] = str(Path(tmp) / "home")
        from dreamer.router import pack
        from evals.examples.demo import build_demo
        from evals.suite import SuiteConfig, run_suite

        started = time.monotonic()
        if "--corpus" in argv:
            from evals.tasks import load_tasks

            folder = Path(argv[argv.index("--corpus") + 1])
            tasks, bank, suite = load_tasks(folder), None, folder.name
            print(f"corpus {folder}: {len(tasks)} tasks, empty bank")
        else:
            demo = build_demo(Path(tmp) / "demo")
            tasks, bank, suite = demo.tasks, demo.bank, "demo"
            pack(demo.bank, "warm up", repo="acme/pricing")  # router start-up, reported apart
        print(f"suite build + router start-up: {time.monotonic() - started:.2f}s")
        for run, workers in ((r, w) for r in range(repeat) for w in counts):
            config = SuiteConfig(suite=suite, agent="selector", workers=workers, timeout_s=120)
            cpu, started = _cpu(), time.monotonic()
            result = run_suite(tasks, bank, config, Path(tmp) / f"run-{run}-{workers}")
            wall, cpu = time.monotonic() - started, _cpu() - cpu
            table = result.table
            tested = table[~table["cached"] & (table["test_duration_s"] > 0)]
            ideal = result.test_time_s / workers
            print(
                f"workers={workers}: {len(table)} attempts, {len(tested)} test runs "
                f"({int(table['cached'].sum())} grades reused); wall {wall:.2f}s (attempts "
                f"{result.wall_s:.2f}s), raw test time {result.test_time_s:.2f}s; harness "
                f"overhead {wall - ideal:.2f}s ({(wall - ideal) / max(len(tested), 1):.3f}s per "
                f"test run; harness process CPU {cpu:.2f}s); wall/raw = "
                f"{wall / max(ideal, 1e-9):.3f}"
            )
            ratios[workers].append(wall / max(ideal, 1e-9))
        for workers, got in ratios.items():
            print(f"workers={workers}: wall/raw median {statistics.median(got):.3f} over "
                  f"{len(got)} runs (range {min(got):.3f}-{max(got):.3f})")


if __name__ == "__main__":
    main(sys.argv[1:])
