"""The gate decides on paired outcomes and says why; promotion moves store and MLflow together."""

from __future__ import annotations

import pytest

from dreamer.errors import ConfigError, GateError
from dreamer.gate import GateConfig, GateEvidence, decide, load_gate
from dreamer.models import Bank, Citation, Memory, Scope
from dreamer.promotion import promote, registry_alias, rollback
from dreamer.store import open_store
from evals.metrics import Lift


def outcomes(solved: int, total: int) -> dict[str, float]:
    return {f"t{i:02d}": float(i < solved) for i in range(total)}


def lift(wins: int, tasks: int, losses: int = 0) -> Lift:
    """A lift over placebo of ``wins`` tasks won and ``losses`` lost out of ``tasks``."""
    from evals.metrics import paired_lift

    bank = {f"t{i:02d}": float(i < wins) for i in range(tasks)}
    placebo = {f"t{i:02d}": float(wins <= i < wins + losses) for i in range(tasks)}
    return paired_lift(bank, placebo, "placebo")


def test_a_clearly_better_candidate_passes() -> None:
    decision = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(9, 12), production=outcomes(1, 12), candidate_active_tokens=900,
        lift=lift(9, 12)))
    assert decision.passed, decision.reasons
    assert (decision.wins, decision.losses) == (8, 0)
    assert decision.p_value == pytest.approx(0.5**8)


def test_a_worse_candidate_is_rejected_with_reasons() -> None:
    decision = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(2, 12), production=outcomes(6, 12), candidate_active_tokens=9000,
        scope_violations=("mem_x belongs to other/repo",)))
    assert not decision.passed
    failed = {r.split(":")[0] for r in decision.reasons}
    assert failed == {"paired test", "lift over placebo", "regressions", "token budget",
                      "scope check"}
    assert any("no placebo arm could be run" in r for r in decision.reasons)
    assert any("loses 4 of the 6 tasks" in r for r in decision.reasons)


def test_a_small_improvement_is_not_significant() -> None:
    decision = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(3, 12), production=outcomes(1, 12), candidate_active_tokens=100))
    assert not decision.passed
    assert decision.reasons[0].startswith("paired test: 2 wins, 0 losses")


def test_no_significant_lift_over_placebo_is_refused_with_that_reason() -> None:
    # Better than production (no memory) on every task, but a placebo pack does as well: what
    # helps is not this bank's memory.
    decision = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(9, 12), production=outcomes(0, 12), candidate_active_tokens=900,
        lift=lift(2, 12, losses=1)))
    assert not decision.passed
    [reason] = decision.reasons
    assert reason.startswith("lift over placebo: lift +0.083 over placebo")
    assert "2 wins, 1 losses on 12 tasks" in reason


def test_unpaired_tasks_fail_the_test() -> None:
    decision = decide(GateConfig(), GateEvidence(
        candidate=outcomes(5, 5), production=outcomes(0, 4), candidate_active_tokens=1))
    assert not decision.passed and "ran for one bank only" in decision.reasons[0]


def test_unknown_gate_and_bad_keys_are_clear_errors(tmp_path) -> None:
    with pytest.raises(ConfigError, match="unknown gate 'nope'; known: default, lenient"):
        load_gate("nope")
    bad = tmp_path / "g.yaml"
    bad.write_text("alpha: 0.05\nthreshold: 3\n")
    with pytest.raises(ConfigError, match="threshold"):
        load_gate(bad)


def bank(*facts: str, parent: str | None = None) -> Bank:
    return Bank(repo="acme/shop", parent_id=parent, memories=tuple(
        Memory(type="domain", scope=Scope(repo="acme/shop"), summary=f,
               citations=(Citation(kind="session", ref=f"ses_1:{i}"),))
        for i, f in enumerate(facts)))


def test_promote_and_rollback_move_store_and_registry_together() -> None:
    store = open_store()
    v1 = bank("status goes through LEGACY_STATUS_CODES")
    v2 = bank("status goes through LEGACY_STATUS_CODES", "reserve stock with the fulfilment",
              parent=v1.id)
    store.banks.put(v1)
    store.banks.put(v2)
    good = decide(load_gate("lenient"), GateEvidence(
        candidate=outcomes(3, 4), production=outcomes(3, 4), candidate_active_tokens=10,
        lift=lift(3, 4)))
    first = promote(store, "acme/shop", v1.id, good, expected_production=None)
    assert (first.previous, first.production) == (None, v1.id)
    second = promote(store, "acme/shop", v2.id, good, expected_production=v1.id)
    assert store.banks.alias("production", "acme/shop") == v2.id
    assert registry_alias("acme/shop") == v2.id
    assert second.model_version != first.model_version

    back = rollback(store, "acme/shop")
    assert back.production == v1.id
    assert store.banks.alias("production", "acme/shop") == v1.id
    assert registry_alias("acme/shop") == v1.id


def test_refusals() -> None:
    store = open_store()
    v1 = bank("a fact")
    store.banks.put(v1)
    bad = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(0, 4), production=outcomes(2, 4), candidate_active_tokens=10))
    with pytest.raises(GateError, match="the gate rejected") as info:
        promote(store, "acme/shop", v1.id, bad)
    assert any("regressions" in r for r in info.value.reasons)
    with pytest.raises(GateError, match="needs a reason"):
        promote(store, "acme/shop", v1.id, force=True)
    good = decide(load_gate("lenient"), GateEvidence(
        candidate=outcomes(1, 1), production=outcomes(1, 1), candidate_active_tokens=1,
        lift=lift(1, 1)))
    with pytest.raises(GateError, match="moved"):
        promote(store, "acme/shop", v1.id, good, expected_production="bank_somethingelse")
    assert store.banks.alias("production", "acme/shop") is None
    forced = promote(store, "acme/shop", v1.id, force=True, reason="bootstrap")
    assert forced.forced and store.banks.history("production", "acme/shop")[0].reason == "bootstrap"


def test_cli_promote_needs_a_recorded_passing_decision_and_rollback_restores() -> None:
    import json

    from typer.testing import CliRunner

    from dreamer.cli import app
    from dreamer.promotion import record_decision

    store = open_store()
    v1, v2 = bank("one fact"), bank("one fact", "another fact")
    store.banks.put(v1)
    store.banks.put(v2)
    runner = CliRunner()
    refused = runner.invoke(app, ["promote", v1.id])
    assert refused.exit_code == 1 and "no gate decision" in refused.output
    first = runner.invoke(app, ["promote", v1.id, "--force", "--reason", "bootstrap", "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["production"] == v1.id

    bad = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(0, 4), production=outcomes(2, 4), candidate_active_tokens=10))
    record_decision(store, "acme/shop", v2.id, v1.id, bad, promoted=False)
    rejected = runner.invoke(app, ["promote", v2.id])
    assert rejected.exit_code == 1 and "regressions" in rejected.output
    good = decide(load_gate("default"), GateEvidence(
        candidate=outcomes(9, 10), production=outcomes(0, 10), candidate_active_tokens=10,
        lift=lift(9, 10)))
    record_decision(store, "acme/shop", v2.id, v1.id, good, promoted=False)
    assert runner.invoke(app, ["promote", v2.id]).exit_code == 0
    assert registry_alias("acme/shop") == v2.id

    back = runner.invoke(app, ["rollback", "--json"])
    assert back.exit_code == 0, back.output
    assert json.loads(back.stdout)["production"] == v1.id
    assert registry_alias("acme/shop") == v1.id
    aliases = json.loads(runner.invoke(app, ["aliases", "--json"]).stdout)
    assert [r["name"] for r in aliases] == ["production"]
