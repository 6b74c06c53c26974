"""What a recall pays for its candidates' feedback counts as the history grows (a benchmark).

Every recall appends a ``retrieved`` event per memory it serves, so a server used for months
holds millions of events. This appends events to a fresh SQLite store (``--sizes``, default
0, 100K and 1M; memories drawn from a skewed distribution over 1,000 ids, as a few memories are
served most), kept summed as the router keeps them (``router_usage``), then times the counts of
150 candidates both ways: read from the sums (``usage_counts``, what a recall does) and counted
from the events themselves (``GROUP BY`` over ``router_feedback``, what it did before stop 33).
Prints p50 and max of 20 lookups each, and checks that the two agree.

    .venv/bin/python benchmarks/feedback_history.py [--sizes 0 100000 1000000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 100_000, 1_000_000])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dreamer-feedback-bench-") as tmp:
        os.environ["DREAMER_HOME"] = tmp
        from dreamer.router.feedback import _add_usage, _count_feedback, usage_counts
        from dreamer.router.records import FeedbackRecord
        from dreamer.store import open_store

        store = open_store()
        ids = [f"mem_{i:024d}" for i in range(1000)]
        rng = random.Random(0)
        total = 0
        print(f"feedback history, SQLite, {time.strftime('%Y-%m-%d %H:%M')}; counts of 150 "
              "candidates, 20 lookups each", flush=True)
        for target in sorted(args.sizes):
            while total < target:
                rows = [{"memory_id": ids[min(int(rng.paretovariate(1.2)) - 1, 999)],
                         "signal": "retrieved", "bank_id": "bank_x", "repo": "acme/shop",
                         "task_id": None, "source": "router", "note": "",
                         "at": datetime.now(UTC)} for _ in range(min(50_000, target - total))]
                with store.sessions.begin() as db:
                    db.execute(FeedbackRecord.__table__.insert(), rows)
                    _add_usage(db.connection(), [(r["memory_id"], "retrieved") for r in rows])
                total += len(rows)
            sums, events = [], []
            for _ in range(20):
                chosen = rng.sample(ids, 150)
                started = time.perf_counter()
                read = usage_counts(store, chosen)
                sums.append(time.perf_counter() - started)
                started = time.perf_counter()
                counted: dict[str, dict[str, int]] = {}
                with store.sessions() as db:
                    _count_feedback(db, chosen, counted)
                events.append(time.perf_counter() - started)
                assert {m: u.retrieved for m, u in read.items()} == \
                    {m: c.get("retrieved", 0) for m, c in counted.items()}
            print(f"  {total:>9,} events: from the sums p50 {statistics.median(sums) * 1e3:.1f} "
                  f"ms (max {max(sums) * 1e3:.1f}); counting the events p50 "
                  f"{statistics.median(events) * 1e3:.1f} ms (max {max(events) * 1e3:.1f})",
                  flush=True)
        store.close()


if __name__ == "__main__":
    main(sys.argv[1:])
