"""The dream grows about linearly: no stage's CPU grows more than 12x from 200 to 2,000 memories.

Both banks come from the benchmark's generator (duplicates, changed settings, recurring failures,
citations) and are dreamt with the default strategy in fresh processes; embedding uses the
benchmark's deterministic hashed n-gram stand-in (the model would only add a constant rate per
text, measured by ``benchmarks/dream_scale.py``). Each stage's CPU is the least of two dreams.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
FLOOR_S = 0.05
"""CPU seconds below which a stage's time at 200 memories is timer noise (a stage of a few
milliseconds varies by more than its own time with the machine's load and its BLAS threads)."""


@pytest.mark.alone
def test_no_stage_grows_more_than_12x_from_200_to_2000_memories() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    from dream_scale import in_child

    small, large = (in_child(size, stand_in=True, repeat=3, single_blas=True)
                    for size in (200, 2000))
    assert large["size"] >= 9 * small["size"]
    assert small["stages"].keys() == large["stages"].keys() and len(large["stages"]) == 8
    growth = {name: large["stages"][name]["cpu"] / max(small["stages"][name]["cpu"], FLOOR_S)
              for name in large["stages"]}
    assert max(growth.values()) <= 12, growth
    # the dream did its work at both sizes: far fewer active memories than it was given
    assert large["active_after"] < large["size"] / 3
