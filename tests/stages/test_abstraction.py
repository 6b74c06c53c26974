"""abstraction: three ImportError episodes with one cause become one evidenced rule."""

from __future__ import annotations

from dreamer.models import MemoryStatus


def test_episodes_become_a_rule_citing_them(planted, context, run, make_bank) -> None:
    bank = make_bank(*planted.EPISODES, planted.BILLING)
    result = run("abstraction", bank, context)
    [rule] = [m for m in result.bank.active if m.lineage.stage == "abstraction"]
    assert set(rule.lineage.parents) == {m.id for m in planted.EPISODES}
    assert set(rule.citations) == {c for m in planted.EPISODES for c in m.citations}
    assert "shop.pricing.money" in rule.summary  # extractive: the fix, in the episodes' words
    assert any(rule.summary in s for s in (m.summary for m in planted.EPISODES))
    assert all(result.bank.get(m.id).status is MemoryStatus.SUPERSEDED for m in planted.EPISODES)
    assert result.bank.get(planted.BILLING.id).is_active


def test_too_few_episodes_write_no_rule(planted, context, run, make_bank) -> None:
    result = run("abstraction", make_bank(*planted.EPISODES[:2]), context)
    assert result.metrics["rules"] == 0 and len(result.bank.active) == 2


def test_lm_writes_the_rule_unless_it_drops_the_evidence(planted, canned, run, make_bank) -> None:
    bank = make_bank(*planted.EPISODES)
    written = "Import Money from shop.pricing.money, never from shop.pricing (ImportError)."
    ctx, engine = canned(lambda prompt: {"rule": written})
    [rule] = [m for m in run("abstraction", bank, ctx).bank.active]
    assert rule.summary == written and engine.prompts
    ctx, _ = canned(lambda prompt: {"rule": "Be careful with imports."})
    [rule] = [m for m in run("abstraction", bank, ctx).bank.active]
    assert rule.summary != "Be careful with imports." and "shop.pricing" in rule.summary


def test_an_episode_naming_what_its_rule_does_not_stays_in_retrieval(planted, context, run,
                                                                      make_bank) -> None:
    """Three failures share ``received_at``; one of them alone names the method its fix had to
    call. The general rule is written, and that failure stays active beside it."""
    texts = [
        "Changing `ingest/csv.py`: `tests/test_csv.py::test_online` failed with `ts`; the "
        "passing fix used `received_at` and `DeviceRegistry.touch`, in `ingest_csv`.",
        "Changing `ingest/json.py`: `tests/test_json.py::test_online` failed with `ts`; the "
        "passing fix used `received_at`, in `ingest_json`.",
        "Changing `ingest/mqtt.py`: `tests/test_mqtt.py::test_online` failed with `ts`; the "
        "passing fix used `received_at`, in `ingest_mqtt`.",
    ]
    episodes = [planted.memory("failure", t, [planted.session(f"r{i}")], 3 + i)
                for i, t in enumerate(texts)]
    result = run("abstraction", make_bank(*episodes), context, threshold=0.05, min_support=3)
    active = result.bank.active
    assert any("DeviceRegistry.touch" in m.summary for m in active)
    assert result.metrics.get("rules", 0) <= 1
