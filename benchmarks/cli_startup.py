"""``dreamer <command> --help`` wall and CPU time (a benchmark, not a test; goal: 0.3 s each).

Runs each command's help in a fresh interpreter (the least of ``--runs`` runs, after one
warm-up run that writes the bytecode caches an installation has) beside ``python -c pass`` in
the same run, prints each as seconds and as a ratio to that bare start-up, and the slowest
imports of one run (``python -X importtime``), so a regression names its cause. CPU seconds
(user + system of the child) stay meaningful on a loaded machine, where wall times do not.

    .venv/bin/python benchmarks/cli_startup.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("", "recall", "dream", "ingest", "eval", "mcp", "promote", "show")


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    run = [sys.executable, "-c", "import sys; from dreamer.cli import main; sys.argv[0] = "
           "'dreamer'; main()"]
    print(f"dreamer --help timings, load average {os.getloadavg()[0]:.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}; least of {args.runs} runs, wall (CPU)")
    bare = [sys.executable, "-c", "pass"]
    base_wall = min(_timed(bare, env)[0] for _ in range(args.runs))
    base_cpu = min(_timed(bare, env)[1] for _ in range(args.runs))
    print(f"  python -c pass: {base_wall:.3f}s ({base_cpu:.3f}s CPU)")
    for command in COMMANDS:
        line = [*run, *([command] if command else []), "--help"]
        _timed(line, env)  # warm-up: bytecode caches
        times = [_timed(line, env) for _ in range(args.runs)]
        wall, cpu = min(t[0] for t in times), min(t[1] for t in times)
        print(f"  dreamer {command + ' ' if command else ''}--help: {wall:.3f}s "
              f"({cpu:.3f}s CPU); x{wall / base_wall:.1f} wall, x{cpu / max(base_cpu, 1e-3):.1f} "
              "CPU of python -c pass")
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
