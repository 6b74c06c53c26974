"""``dreamer <command> --help`` wall time (a benchmark, not a test; goal: 0.3 s each).

Runs each command's help in a fresh interpreter (the least of ``--runs`` runs) and prints the
slowest imports of one run (``python -X importtime``), so a regression names its cause.

    .venv/bin/python benchmarks/cli_startup.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("", "recall", "dream", "ingest", "eval", "mcp", "promote")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")])}
    run = [sys.executable, "-c", "import sys; from dreamer.cli import main; sys.argv[0] = "
           "'dreamer'; main()"]
    print(f"dreamer --help timings, load average {os.getloadavg()[0]:.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    for command in COMMANDS:
        best = float("inf")
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run([*run, *([command] if command else []), "--help"], env=env,
                           check=True, capture_output=True)
            best = min(best, time.perf_counter() - started)
        print(f"  dreamer {command + ' ' if command else ''}--help: {best:.2f}s")
    profile = subprocess.run([sys.executable, "-X", "importtime", *run[1:], "recall", "--help"],
                             env=env, check=True, capture_output=True, text=True).stderr
    rows = []
    for line in profile.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    print("  slowest imports of `dreamer recall --help` (cumulative ms):")
    for micros, name in sorted(rows, reverse=True)[:8]:
        print(f"    {micros / 1000:7.1f}  {name.strip()}")


if __name__ == "__main__":
    main(sys.argv[1:])
