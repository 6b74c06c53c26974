"""A suite beside its controls: relabelled ids, placebo arms, lift, and the leak check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dreamer.models import Bank, Citation, CitationKind, Memory, MemoryType, Scope
from evals.agents.base import AGENTS, Agent, AgentInput, Attempt
from evals.examples.demo import DemoSuite
from evals.runner import GradeCache
from evals.suite import SuiteConfig, run_suite


class FirstShown(Agent):
    """A planted agent that takes whatever candidate it is shown first: an order bias."""

    name = "first-shown"

    def attempt(self, inp: AgentInput) -> Attempt:
        first = inp.candidates[0]
        return Attempt(patch=first.patch, chosen=first.id)


def _run(demo: DemoSuite, tmp_path: Path, name: str, **config: object) -> object:
    settings = {"suite": str(demo.path), "budgets": (0, None), "timeout_s": 60, "workers": 2,
                **config}
    return run_suite(demo.tasks, demo.bank, SuiteConfig(**settings),  # type: ignore[arg-type]
                     tmp_path / name, cache=_CACHE)


_CACHE = GradeCache()


def test_relabelling_changes_no_figure_of_an_agent_that_reads_content(demo: DemoSuite,
                                                                      tmp_path: Path) -> None:
    one = _run(demo, tmp_path, "seed0", seed=0, permutations=3)
    two = _run(demo, tmp_path, "seed1", seed=1, permutations=3)
    for arm, by_budget in one.rates.items():  # type: ignore[attr-defined]
        for label, rate in by_budget.items():
            other = two.rates[arm][label]  # type: ignore[attr-defined]
            if arm == "random":
                # A draw: each run's mean lies within what its relabellings gave.
                assert rate.spread_low <= rate.rate <= rate.spread_high
                continue
            assert (rate.rate, rate.spread_low, rate.spread_high) == (
                other.rate, other.spread_low, other.spread_high), (arm, label)
            assert rate.spread_low == rate.spread_high, (arm, label)


def test_an_agent_biased_to_the_order_it_is_shown_is_caught_by_the_spread(
        demo: DemoSuite, tmp_path: Path) -> None:
    result = run_suite(demo.tasks, demo.bank, SuiteConfig(
        suite=str(demo.path), budgets=(0,), timeout_s=60, workers=2, permutations=6,
        controls=False), tmp_path / "biased", agent=FirstShown(), cache=_CACHE)
    rate = result.success["0"]
    assert rate.spread_high > rate.spread_low  # the relabellings moved it
    assert abs(rate.rate - result.chance) <= 0.35  # and on average it is a blind pick
    assert "first-shown" not in AGENTS


def test_every_run_carries_its_controls_and_the_lift_over_placebo(demo: DemoSuite,
                                                                  tmp_path: Path) -> None:
    result = _run(demo, tmp_path, "controls", permutations=2)
    arms = set(result.table["arm"])  # type: ignore[attr-defined]
    assert {"bank", "placebo", "placebo_other", "no_memory", "smallest", "largest", "random",
            "oracle"} <= arms
    controls = result.controls  # type: ignore[attr-defined]
    assert controls["no_memory"].rate == 0.0 and controls["oracle"].rate == 1.0
    assert result.success["all"].rate == 1.0  # type: ignore[attr-defined]
    lift = result.lifts["all"]  # type: ignore[attr-defined]
    # The stronger placebo at "all" is the other repository's memories (the shuffled one would
    # be the bank's whole pack there, so it is not offered).
    assert lift.against == "placebo_other" and lift.lift > 0
    assert "all" not in result.rates.get("placebo", {})  # type: ignore[attr-defined]
    assert set(result.table["permutation"]) == {0, 1}  # type: ignore[attr-defined]


def test_a_leaking_pack_is_not_attempted_and_counts_as_unresolved(demo: DemoSuite,
                                                                  tmp_path: Path) -> None:
    task = demo.tasks[2]  # acme/textkit: the only task of its repository
    gold_line = next(line[1:] for line in task.patch.splitlines()
                     if line.startswith("+") and not line.startswith("+++") and
                     len(line.split()) >= 4)
    carried = Memory(type=MemoryType.DOMAIN, scope=Scope(repo=task.repo),
                     summary=f"The slug fix is exactly: {gold_line}",
                     citations=(Citation(kind=CitationKind.SESSION, ref="ses_demo_textkit:9"),),
                     created_at=demo.bank.memories[0].created_at)
    bank = Bank(memories=(*demo.bank.memories, carried))
    result = run_suite([task], bank, SuiteConfig(suite=str(demo.path), budgets=(None,),
                                                 timeout_s=60, workers=2, permutations=2),
                       tmp_path / "leak", cache=_CACHE)
    bank_rows = result.table[result.table["arm"] == "bank"]
    assert bank_rows["leak"].all() and not bank_rows["resolved"].any()
    assert bank_rows["reason"].str.startswith("leak: ").all()
    assert result.summary()["leaks"]["bank"] == {"all": 2}
    assert result.leak_findings["bank"][0].rule == "gold"


def test_artifacts_are_all_written_when_the_suite_returns_and_a_failed_write_fails_it(
    demo: DemoSuite, tmp_path: Path, monkeypatch
) -> None:
    import pytest

    import evals.runner as runner

    result = _run(demo, tmp_path, "written", workers=1)
    table = result.table  # type: ignore[attr-defined]
    attempted = len(table)
    assert attempted == len(list((tmp_path / "written").glob("*/*/p*/*/result.json"))) > 0

    def full_disk(folder: Path, *args: object) -> None:
        raise OSError(28, "No space left on device", str(folder))

    monkeypatch.setattr(runner, "write_artifacts", full_disk)
    with pytest.raises(OSError, match="No space left on device"):
        _run(demo, tmp_path, "full", workers=1)


def test_one_attempts_agent_runs_and_anothers_patch_goes_in_while_a_third_is_tested(
    demo: DemoSuite, tmp_path: Path, monkeypatch
) -> None:
    import threading
    import time

    from evals.workspace import Workspace

    guard = threading.Lock()
    now = {"agents": 0, "tests": 0, "applies": 0}
    most = dict(now)
    during_tests = {"agents": 0, "applies": 0}
    ended, waited = [0], [False]  # agent steps ended; whether one waited for a test
    real_run, real_apply = Workspace.run, Workspace.apply

    def enter(stage: str) -> None:
        with guard:
            now[stage] += 1
            most[stage] = max(most[stage], now[stage])
            if stage in during_tests and now["tests"]:
                during_tests[stage] += 1

    def leave(stage: str) -> None:
        with guard:
            now[stage] -= 1

    class Observed(Agent):
        """Picks the largest candidate (so patches are tested) and notes what runs meanwhile."""

        name = "observed"

        def attempt(self, inp: AgentInput) -> Attempt:
            # The first agent step to begin after another one ended waits (up to 5 s) for a
            # test to run: a pipelined harness tests the earlier patch meanwhile, a serial one
            # would not. (Without the wait, on a slow machine every agent step could end
            # before the first working copy is ready, and nothing would overlap.)
            with guard:
                wait, waited[0] = ended[0] > 0 and not waited[0], waited[0] or ended[0] > 0
            deadline = time.monotonic() + 5
            while wait and not now["tests"] and time.monotonic() < deadline:
                time.sleep(0.005)
            enter("agents")
            try:
                time.sleep(0.02)
                largest = max(inp.candidates, key=lambda c: len(c.patch))
                return Attempt(patch=largest.patch, chosen=largest.id)
            finally:
                leave("agents")
                with guard:
                    ended[0] += 1

    def observed(stage: str, real: Any) -> Any:
        def call(*args: object, **kwargs: object) -> object:
            enter(stage)
            try:
                return real(*args, **kwargs)
            finally:
                leave(stage)
        return call

    monkeypatch.setattr(Workspace, "run", observed("tests", real_run))
    monkeypatch.setattr(Workspace, "apply", observed("applies", real_apply))
    for workers in (1, 2):
        for stage in most:
            most[stage] = 0
        during_tests.update(agents=0, applies=0)
        ended[0], waited[0] = 0, False
        result = run_suite(demo.tasks, demo.bank, SuiteConfig(
            suite=str(demo.path), budgets=(0,), timeout_s=60, workers=workers, permutations=2,
            controls=False), tmp_path / f"pipelined-{workers}", agent=Observed(),
            cache=GradeCache())
        assert (result.table["status"] != "infra_error").all()
        assert 1 <= most["agents"] <= workers and 1 <= most["tests"] <= workers, (workers, most)
        assert most["applies"] <= workers, (workers, most)
        assert during_tests["agents"] > 0, workers  # agents did not wait for the tests to end
        assert during_tests["applies"] > 0, workers  # nor the next patch, to go in


def test_the_attempts_run_with_the_suites_objects_out_of_the_collector_and_leave_it_as_found(
    demo: DemoSuite, tmp_path: Path
) -> None:
    import gc

    frozen: list[int] = []

    class Watching(Agent):
        """Picks the largest candidate and notes how many objects are exempt from collection."""

        name = "watching"

        def attempt(self, inp: AgentInput) -> Attempt:
            frozen.append(gc.get_freeze_count())
            largest = max(inp.candidates, key=lambda c: len(c.patch))
            return Attempt(patch=largest.patch, chosen=largest.id)

    thresholds = gc.get_threshold()
    run_suite(demo.tasks, demo.bank, SuiteConfig(
        suite=str(demo.path), budgets=(0,), timeout_s=60, workers=1, permutations=1,
        controls=False), tmp_path / "collector", agent=Watching(), cache=GradeCache())
    assert frozen and min(frozen) > 0  # the bank, packs and router: not walked by a collection
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
