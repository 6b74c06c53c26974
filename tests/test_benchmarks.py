"""Every benchmark of ``make bench`` runs, prints its figures and cleans up after itself, at sizes
small enough for CI.

``make bench`` runs each script in ``benchmarks/`` in turn and stops at the first that fails, so a
benchmark broken by a change elsewhere (a module moved, a name shadowed) stops the figures of
all those after it. Each is run here as ``make bench`` runs it, in a process of its own, and the
lines a reader looks for are checked; the figures themselves are not (they are the machine's).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"

SMALL: dict[str, tuple[list[str], list[str]]] = {
    "bank_store.py": (["--sizes", "300", "--no-postgres"],
                      [r"\d+ memories, \d+ changed in the next version",
                       r"get next version: [\d.]+s"]),
    "cli_startup.py": (["--runs", "1"], [r"dreamer recall --help: [\d.]+s \([\d.]+s CPU\)"]),
    "dream_scale.py": (["--sizes", "300"],
                       [r"-> \d+ active", r"dedupe +cpu +[\d.]+s +wall +[\d.]+s",
                        r"next night, \d+ memories \(1% new\)"]),
    "dream_stored.py": (["--size", "300"],
                        [r"cold: `dreamer dream` [\d.]+s", r"warm: `dreamer dream` [\d.]+s"]),
    "embedding_onnx.py": (["--size", "100"], [r"round 2: onnx runtime +[\d.]+ texts/s",
                                              r"cosine torch/onnx: min 0\.99"]),
    "embedding_rate.py": (["--size", "100"], [r"cached \(read back by content hash\) +[\d.]+s"]),
    "feedback_history.py": (["--sizes", "0", "1000"],
                            [r"1,000 events: from the sums p50 [\d.]+ ms"]),
    "harness_overhead.py": (["--repeat", "1", "--workers", "1"],
                            [r"workers=1: wall/raw median [\d.]+ over 1 runs"]),
    "mcp_first_recall.py": (["--size", "60", "--repos", "2", "--queries", "3"],
                            [r"warm, restart: initialize [\d.]+s; first recall [\d.]+s",
                             r"--no-warm, restart: .*p95 \d+ ms"]),
    "merge_pairs.py": ([str(ROOT / "datasets" / "sample")],
                       [r"^all +\d+ +\d+ +\d+ +\d+ +1\.000", r"threshold sweep"]),
    "router_latency.py": (["--sizes", "200", "--repos", "2", "--files", "5", "--lines", "50",
                           "--queries", "10", "--warmup", "2"],
                          [r"^ +200 +yes +[\d.]+ +[\d.]+", r"^ +200 +no +[\d.]+ +[\d.]+"]),
    "synthetic_bank.py": (["100"], [r"\d+ memories over \d+ repositories: domain \d+"]),
}
"""Each benchmark's small arguments and the lines its output must hold."""
LIBRARY_CACHES = ("torchinductor_", ".ses")
"""What libraries keep in the temporary folder on purpose, one of each whatever the runs (torch's
compiler cache, ONNX Runtime's session file): not a benchmark's leftovers."""


def test_every_benchmark_is_run_here() -> None:
    assert sorted(p.name for p in BENCHMARKS.glob("*.py")) == sorted(SMALL)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMALL))
def test_a_benchmark_runs_prints_its_figures_and_leaves_nothing_behind(script: str,
                                                                       tmp_path: Path) -> None:
    args, expected = SMALL[script]
    scratch = tmp_path / "tmp"  # the benchmark's temporary folder (a 100K run writes 200 MiB)
    scratch.mkdir()
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    for pattern in expected:
        assert re.search(pattern, done.stdout, re.MULTILINE), (
            f"{script} printed no line like {pattern!r}:\n{done.stdout[-3000:]}")
    left = [p.name for p in scratch.iterdir() if not p.name.startswith(LIBRARY_CACHES)]
    assert left == [], f"{script} left {left} in its temporary folder"
