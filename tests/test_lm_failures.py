"""Runs that need a language model fail loudly: a trial call first, a failure threshold, counts
in every bank, and fallbacks that are exactly the offline rule.

The unreachable server is real (nothing listens on 127.0.0.1:9); only the answering model of
the in-process tests is a canned engine.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.errors import LM_EXIT_CODE, LMRunError
from dreamer.lm import LMUsage, canned_lm, make_lm, probe
from dreamer.pipeline import dream, make_context
from dreamer.strategy import load_strategy, modify

_spec = importlib.util.spec_from_file_location(
    "planted_bank", Path(__file__).parent / "stages" / "conftest.py"
)
planted = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(planted)  # type: ignore[union-attr]

DEAD = "http://127.0.0.1:9/v1"
"""Nothing listens on the discard port: connections are refused at once."""
FAST = ["embedding=tfidf"]


def _planted_store():  # type: ignore[no-untyped-def]
    from dreamer.store import open_store

    store = open_store()
    bank = planted.extraction_bank()
    store.banks.put(bank)
    return store, bank


def test_make_lm_takes_a_base_url_and_a_key_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("MY_LM_KEY", "sk-test")
    lm = make_lm("openai/gemma3", base_url=DEAD, api_key_env="MY_LM_KEY", cache=False)
    assert lm.model == "openai/gemma3"
    assert lm.kwargs["api_base"] == DEAD and lm.kwargs["api_key"] == "sk-test"
    monkeypatch.delenv("MY_LM_KEY")
    with pytest.raises(Exception, match="MY_LM_KEY is not set"):
        make_lm("openai/gemma3", api_key_env="MY_LM_KEY")
    with pytest.raises(Exception, match="not an http"):
        make_lm("openai/gemma3", base_url="127.0.0.1:9")


def test_the_trial_call_says_why_an_unreachable_model_cannot_run() -> None:
    with pytest.raises(LMRunError,
                       match=r"openai/x at http://127\.0\.0\.1:9\S* failed its trial call"):
        probe(make_lm("openai/x", base_url=DEAD, cache=False))


def test_dream_with_an_unreachable_lm_exits_4_and_moves_no_alias() -> None:
    store, bank = _planted_store()
    out = CliRunner().invoke(app, ["dream", "--bank", bank.id, "-S", "embedding=tfidf",
                                   "--lm", "openai/x", "--lm-base-url", DEAD])
    assert out.exit_code == LM_EXIT_CODE, out.output
    assert "trial call" in out.output and "127.0.0.1:9" in out.output
    assert store.banks.alias("candidate", bank.repo) is None
    assert [v.id for v in store.banks.versions()] == [bank.id]  # no candidate was stored


def test_extract_with_an_unreachable_lm_exits_4() -> None:
    out = CliRunner().invoke(app, ["extract", "--lm", "openai/x", "--lm-base-url", DEAD])
    assert out.exit_code == LM_EXIT_CODE, out.output
    assert "trial call" in out.output


def test_eval_with_the_llm_agent_and_an_unreachable_lm_exits_4(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "datasets" / "sample"
    out = CliRunner().invoke(app, ["eval", "--suite", str(sample), "--agent", "llm",
                                   "--lm", "openai/x", "--lm-base-url", DEAD, "--budgets", "0",
                                   "--no-controls", "--no-track", "--run-dir", str(tmp_path)])
    assert out.exit_code == LM_EXIT_CODE, out.output
    assert "trial call" in out.output


def _failing_lm():  # type: ignore[no-untyped-def]
    return canned_lm(lambda prompt: {"nonsense": "not the fields asked for"})


def test_a_dream_whose_lm_fails_past_the_threshold_stops(tmp_path: Path) -> None:
    lm, _ = _failing_lm()
    strategy = modify(load_strategy("default"), sets=FAST)
    with pytest.raises(LMRunError, match=r"in a row|allowed by --lm-max-failures"):
        dream(planted.extraction_bank(), strategy,
              make_context(strategy, lm, skills_dir=tmp_path))


def test_every_failed_call_falls_back_to_exactly_the_offline_rule(tmp_path: Path) -> None:
    """With every LM call failing (and the threshold lifted), the dream writes the very bank
    the offline dream writes, and the bank says how many calls failed and fell back."""
    strategy = modify(load_strategy("default"), sets=FAST)
    offline = dream(planted.extraction_bank(), strategy,
                    make_context(strategy, skills_dir=tmp_path / "a"))
    lm, engine = _failing_lm()
    usage = LMUsage(model="canned/test", max_failures=1.0)
    usage_in_a_row = pytest.MonkeyPatch()
    usage_in_a_row.setattr("dreamer.lm.FAILURES_IN_A_ROW", 10**9)
    try:
        failed = dream(planted.extraction_bank(), strategy,
                       make_context(strategy, lm, skills_dir=tmp_path / "b", lm_usage=usage))
    finally:
        usage_in_a_row.undo()
    recorded = failed.bank.origin.config["lm_usage"]
    # One call is one module call: DSPy's chat adapter asks once more, as JSON, before failing.
    assert 2 * recorded["calls"] == len(engine.prompts) and recorded["calls"] > 10
    assert recorded["failures"] == recorded["fallbacks"] == recorded["calls"]
    assert failed.metrics["lm_usage"] == recorded
    assert failed.bank.id == offline.bank.id
    assert offline.bank.origin.config["lm_usage"]["calls"] == 0


def test_usage_stops_after_consecutive_failures_and_on_the_share() -> None:
    usage = LMUsage(model="m", max_failures=0.25)
    for _ in range(3):
        usage.ok()
    usage.failed("dedupe", ValueError("bad answer"))
    usage.check()  # 1 of 4 = 25%: allowed
    usage.failed("dedupe", ValueError("bad answer"))
    with pytest.raises(LMRunError, match=r"failed 2 of 5 calls \(40% > the 25%"):
        usage.check()
    burst = LMUsage(model="m", max_failures=0.99)
    with pytest.raises(LMRunError, match="10 calls in a row"):
        for _ in range(10):
            burst.failed("linking", ValueError("x"))
    tolerant = LMUsage(model="m", max_failures=1.0)  # every failure falls back; the run goes on
    for _ in range(30):
        tolerant.failed("linking", ValueError("x"))
    tolerant.check()
    assert (tolerant.failures, tolerant.fallbacks) == (30, 30)


def test_lm_settings_layer_strategy_then_nightly_then_command_line() -> None:
    from dreamer.lm import LMConfig
    from dreamer.loop import NightlyConfig, lm_settings

    strategy = LMConfig(model="openai/a", base_url="http://127.0.0.1:1/v1", max_failures=0.2)
    nightly = NightlyConfig.model_validate({"lm": {"model": "openai/b"}}).lm
    cfg = lm_settings(strategy, nightly, {"max_failures": 0.5, "base_url": None})
    assert (cfg.model, cfg.base_url, cfg.max_failures) == ("openai/b", "http://127.0.0.1:1/v1",
                                                           0.5)
    assert lm_settings(None, "offline").offline and lm_settings().offline
    with pytest.raises(ValueError):
        LMConfig(model="openai/a", max_failures=2)
