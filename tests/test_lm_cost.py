"""Tokens and cost per run: every run that calls an LM (extract, dream, eval --agent llm) counts
the tokens its engine reported, prices them with litellm's cost map (0, and the model named as
unpriced, when litellm does not know it), records them in its bank and logs them to MLflow.

The model is DSPy's canned engine (cache off), which reports whitespace words as tokens, so the
expected counts are known exactly: the words of every prompt it was sent after the trial call.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.lm import LMUsage, canned_lm, unit_prices, words

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "datasets" / "sample"
REPO = "pytoolz/toolz"
ANSWERS = {"same": False, "relation": "unrelated", "rule": "unused", "module": "any",
           "summary": "unused", "related": True, "generic": False,
           "steps": ["run the contract tests"]}

_spec = importlib.util.spec_from_file_location(
    "planted_bank", Path(__file__).parent / "stages" / "conftest.py")
planted = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(planted)  # type: ignore[union-attr]


def _respond(prompt: str) -> dict[str, Any]:
    asked = prompt.split("Respond with")[-1]
    found = {f: v for f, v in ANSWERS.items() if f"[[ ## {f} ## ]]" in asked}
    if "[[ ## choice ## ]]" in asked:  # the llm agent: pick the first candidate listed
        first = re.search(r"^### (\S+)", prompt, re.M)
        found |= {"choice": first.group(1) if first else "new", "patch": ""}
    return found


@pytest.fixture
def canned(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``--lm canned/test`` on the command line gets a canned engine (DSPy's cache off)."""
    lm, engine = canned_lm(_respond)
    import dreamer.lm

    real = dreamer.lm.make_lm
    monkeypatch.setattr(dreamer.lm, "make_lm",
                        lambda model, **kw: lm if getattr(model, "model", model) == "canned/test"
                        else real(model, **kw))
    return engine


def _metered_words(engine: Any) -> int:
    """Prompt words of every call after the trial call (which is not a call of the run)."""
    assert "ready" in engine.prompts[0]
    return sum(words(p) for p in engine.prompts[1:])


def _run(run_id: str) -> Any:
    from dreamer.tracking import client

    return client().get_run(run_id)


def test_a_dream_records_its_tokens_in_the_bank_and_in_mlflow(canned: Any) -> None:
    from dreamer.store import open_store

    store = open_store()
    bank = planted.extraction_bank()
    store.banks.put(bank)
    out = CliRunner().invoke(app, ["dream", "--bank", bank.id, "-S", "embedding=tfidf",
                                   "--lm", "canned/test", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    usage = summary["lm_usage"]
    assert usage["calls"] > 0 and usage["failures"] == 0
    assert usage["prompt_tokens"] == _metered_words(canned) > 0
    assert usage["completion_tokens"] > 0
    # litellm does not price the canned model: cost 0, and the model is named as unpriced
    assert (usage["cost_usd"], usage["priced"], usage["unpriced_models"]) == (
        0.0, False, ["canned/test"])
    candidate = store.banks.get(summary["bank"])
    assert candidate.origin.config["lm_usage"]["prompt_tokens"] == usage["prompt_tokens"]
    run = _run(summary["mlflow_run_id"])
    assert run.data.metrics["lm_prompt_tokens"] == usage["prompt_tokens"]
    assert run.data.metrics["lm_completion_tokens"] == usage["completion_tokens"]
    assert run.data.metrics["lm_calls"] == usage["calls"]
    assert run.data.metrics["lm_cost_usd"] == 0.0
    assert run.data.params["lm_priced"] == "False"
    assert run.data.params["lm_unpriced_models"] == "canned/test"
    assert run.data.params["bank"] == summary["bank"]


@pytest.mark.slow
def test_extraction_counts_the_tokens_of_failed_calls_too(canned: Any) -> None:
    """Every extraction answer is malformed (the canned engine knows no extraction field): each
    call fails and falls back to the rules, and its tokens still count — they were spent."""
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(SAMPLE / "sessions")]).exit_code == 0
    out = runner.invoke(app, ["extract", "--repo", REPO, "--repos", str(SAMPLE / "repos"),
                              "--lm", "canned/test", "--lm-max-failures", "1", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    usage = result["lm_usage"]
    assert usage["calls"] == usage["failures"] == result["sessions"] > 0
    assert usage["prompt_tokens"] == _metered_words(canned) > 0
    run = _run(result["mlflow_run_id"])
    assert run.data.metrics["lm_prompt_tokens"] == usage["prompt_tokens"]
    assert run.data.metrics["lm_failures"] == usage["failures"]
    assert run.data.metrics["sessions"] == result["sessions"]


@pytest.mark.slow
def test_eval_with_the_llm_agent_logs_tokens_with_its_run(canned: Any, tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["eval", "--suite", str(SAMPLE), "--repo", REPO,
                                   "--agent", "llm", "--lm", "canned/test", "--budgets", "0",
                                   "--no-controls", "--permutations", "1", "--workers", "1",
                                   "--run-dir", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    usage = summary["lm_usage"]
    assert usage["calls"] > 0 and usage["prompt_tokens"] == _metered_words(canned) > 0
    run = _run(summary["mlflow_run_id"])
    assert run.data.metrics["lm_prompt_tokens"] == usage["prompt_tokens"]
    assert run.data.metrics["lm_total_tokens"] == usage["prompt_tokens"] + \
        usage["completion_tokens"]
    assert run.data.params["lm_model"] == "canned/test"


def test_a_priced_model_costs_litellms_price_and_an_unknown_one_is_marked() -> None:
    prices = unit_prices("openai/gpt-4o-mini")
    assert prices is not None and prices[0] > 0 and prices[1] > prices[0]
    usage = LMUsage(model="openai/gpt-4o-mini")
    usage.add_tokens({"openai/gpt-4o-mini": {"prompt_tokens": 1000, "completion_tokens": 200}})
    usage.add_tokens({"openai/no-such-model": {"prompt_tokens": 50, "completion_tokens": 5}})
    shown = usage.as_dict()
    assert shown["cost_usd"] == pytest.approx(round(1000 * prices[0] + 200 * prices[1], 6))
    assert (shown["prompt_tokens"], shown["completion_tokens"]) == (1050, 205)
    assert shown["priced"] is False and shown["unpriced_models"] == ["openai/no-such-model"]
    total = LMUsage(model="openai/gpt-4o-mini")
    total.absorb(shown)
    total.absorb(shown, tokens=False)
    assert (total.prompt_tokens, total.calls) == (1050, 0) and total.unpriced == {
        "openai/no-such-model"}
