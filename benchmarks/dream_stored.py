"""A nightly dream as a user runs it: `dreamer dream` on a bank read from the store (a benchmark).

`dream_scale.py` times the dream of a bank held in memory; this times the whole command on a
stored synthetic bank (100K memories by default, `benchmarks/synthetic_bank.py`): starting the
command, reading and checking the bank from SQLite, the dream, writing the diff report, storing
the candidate and moving its alias. Twice, each in a fresh home: *cold* (an empty embedding
cache: every text is embedded) and *warm* (the cold run's embedding cache copied in, so what is
left is everything but embedding). Prints the wall time and the command's peak RSS.

    .venv/bin/python benchmarks/dream_stored.py [--size 100000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _store_bank(home: Path, size: int) -> str:
    """Put the synthetic bank into ``home``'s store (in a process of its own); its id."""
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\n"
            "from synthetic_bank import synthetic_bank\nfrom dreamer.store import open_store\n"
            "bank = synthetic_bank(int(sys.argv[2]))\nopen_store().banks.put(bank)\n"
            "print(bank.id)\n")
    done = subprocess.run([sys.executable, "-c", code, str(HERE), str(size)], check=True,
                          capture_output=True, text=True, env={**os.environ,
                                                                "DREAMER_HOME": str(home)})
    return done.stdout.strip()


def _dream(home: Path, bank_id: str) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in MiB of its largest process, the command's JSON) of `dreamer
    dream` in ``home``, run under a parent of its own so the peak is this command's."""
    dreamer = Path(sys.executable).with_name("dreamer")
    parent = ("import resource, subprocess, sys\n"
              "done = subprocess.run(sys.argv[1:], check=True)\n"
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, "
              "file=sys.stderr)\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", parent, str(dreamer), "dream", "--bank",
                           bank_id, "--json"], check=True, capture_output=True, text=True,
                          env={**os.environ, "DREAMER_HOME": str(home)})
    wall = time.monotonic() - started
    return wall, int(done.stderr.strip().splitlines()[-1]), done.stdout


def main(argv: list[str]) -> None:
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dreamer-bench-") as tmp:
        cold, warm = Path(tmp) / "cold", Path(tmp) / "warm"
        for home in (cold, warm):
            home.mkdir()
        bank_id = _store_bank(cold, args.size)
        for database in cold.glob("dreamer.db*"):  # the same store, not built twice
            shutil.copy(database, warm / database.name)
        print(f"{args.size} synthetic memories stored as {bank_id}", flush=True)
        for label, home in (("cold", cold), ("warm", warm)):
            if home is warm:
                for cache in cold.glob("embeddings.db*"):
                    shutil.copy(cache, warm / cache.name)
            wall, peak, out = _dream(home, bank_id)
            summary = json.loads(out)
            print(f"  {label}: `dreamer dream` {wall:.1f}s; peak RSS {peak} MiB (its largest "
                  f"process); active {summary['active_memories']['before']} -> "
                  f"{summary['active_memories']['after']}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
