"""The comparison's fan-out: a sweep on a two-worker Dask LocalCluster gives exactly the tables
that the sequential ``run_suite`` gives, attempt by attempt and in the comparison table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from dreamer.fanout import ADDRESS_ENV, FanOutConfig

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
TIMING = ["duration_s", "test_duration_s", "cached"]
"""What may differ between two runs of the same attempts: the clock, and whether a grade was
reused (grade caches are per process)."""


def outcomes(table: pd.DataFrame) -> pd.DataFrame:
    return table.drop(columns=TIMING).reset_index(drop=True)


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.is_dir(), reason="the committed sample is absent")
def test_a_sweep_on_a_dask_cluster_gives_the_sequential_tables(  # type: ignore[no-untyped-def]
    prefect_harness, nightly_config, tmp_path: Path,
) -> None:
    from dreamer.loop import heldout_tasks, load_nightly
    from dreamer.sources import SourceTimes
    from dreamer.store import open_store
    from evals.compare import comparison_table
    from evals.suite import run_suite
    from flows.compare_flow import compare_strategies

    dedupe = tmp_path / "dedupe-only.yaml"
    dedupe.write_text("description: dedupe only\nembedding: tfidf\nstages:\n  - name: dedupe\n")
    config = nightly_config("sweep", permutations=2, fan_out={"runner": "dask", "workers": 2},
                            compare={"strategies": ["none", str(dedupe)],
                                     "budgets": [0, 256, "all"], "agents": ["selector"]})
    out = compare_strategies(config_ref=str(config))
    assert out["fan_out"] == "dask LocalCluster (2 workers)"
    assert set(out["results"]) == {"none@selector", f"{dedupe}@selector"}

    store = open_store()
    tasks = [t for t in heldout_tasks(load_nightly(config)) if t.repo == "pytoolz/toolz"]
    times = SourceTimes(store, SAMPLE)
    sequential = {}
    for key, distributed in out["results"].items():
        bank = store.banks.get(distributed.bank_id)
        alone = run_suite(tasks, bank, distributed.config.model_copy(update={"workers": 1}),
                          tmp_path / "sequential" / str(len(sequential)), source_times=times)
        assert len(alone.table) == len(distributed.table) > 0
        assert_frame_equal(outcomes(distributed.table), outcomes(alone.table))
        sequential[key] = alone
    assert_frame_equal(out["table"], comparison_table(sequential))
    assert out["table"]["success@all"].iloc[0] > 0  # the sweep resolved something
    store.close()


def test_the_runner_comes_from_the_config_the_environment_and_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ADDRESS_ENV, raising=False)
    assert FanOutConfig().resolved().runner == "threads"
    assert FanOutConfig(runner="dask").resolved().describe().startswith("dask LocalCluster")
    monkeypatch.setenv(ADDRESS_ENV, "tcp://10.0.0.5:8786")
    chosen = FanOutConfig().resolved()
    assert (chosen.runner, chosen.address) == ("dask", "tcp://10.0.0.5:8786")
    assert FanOutConfig().resolved(runner="threads").address is None
    assert FanOutConfig().resolved(address="tcp://h:1").address == "tcp://h:1"
