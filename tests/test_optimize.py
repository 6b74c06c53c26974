"""``dreamer optimize`` with a canned engine on the sample: a saved program, MLflow runs for its
trials, and candidate banks that the gate judged by replay on the held-out family."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.errors import LM_EXIT_CODE

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "datasets" / "sample"
ANSWERS = {"same": False, "relation": "unrelated", "rule": "unused", "module": "any",
           "summary": "unused", "related": True, "generic": False,
           "steps": ["run the contract tests"]}


def _respond(prompt: str) -> dict[str, object]:
    asked = prompt.split("Respond with")[-1]
    return {f: v for f, v in ANSWERS.items() if f"[[ ## {f} ## ]]" in asked}


@pytest.fixture
def sample_store():  # type: ignore[no-untyped-def]
    from dreamer.store import open_store

    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(SAMPLE / "sessions")]).exit_code == 0
    out = runner.invoke(app, ["extract", "--repos", str(SAMPLE / "repos"), "--json"])
    assert out.exit_code == 0, out.output
    return open_store()


@pytest.mark.slow
def test_optimize_compiles_saves_tracks_and_gates(sample_store, tmp_path: Path) -> None:
    from dreamer.lm import canned_lm
    from dreamer.loop import load_nightly
    from dreamer.optimize import optimize
    from dreamer.programs import load_dream_program
    from dreamer.tracking import client

    lm, engine = canned_lm(_respond)
    result = optimize(
        sample_store, "default", str(SAMPLE), "bootstrap", lm, trials=1, max_demos=1,
        out=tmp_path / "programs", strategy_sets=["embedding=tfidf"],
        gate_config=load_nightly("default", permutations=1, timeout_s=60),
    )
    assert result.train_families == ["billing-settings-two-places", "shop-legacy-status"]
    assert result.heldout_families == ["toolz-sentinels"]
    # the program is saved by DSPy, with the demonstrations bootstrapping kept, and loads back
    saved = json.loads(result.program.read_text())
    assert any(state.get("demos") for key, state in saved.items() if key != "metadata")
    assert load_dream_program(result.program).stage_names
    # each trial (a metric call: the program dreams a train family's bank) is a nested MLflow
    # run under the optimisation's run; bootstrapping stops once it has its one demonstration
    assert 1 <= len(result.trials) <= len(result.train_families)
    assert all(0.0 <= t["score"] <= 1.0 for t in result.trials) and result.train_score > 0
    c = client()
    parent = c.get_run(result.mlflow_run_id)
    assert parent.data.params["optimizer"] == "bootstrap"
    assert parent.data.metrics["trials"] == len(result.trials)
    children = c.search_runs([parent.info.experiment_id],
                             f"tags.mlflow.parentRunId = '{result.mlflow_run_id}'")
    assert len(children) == len(result.trials)
    # the held-out family's candidate was dreamt with the compiled program and judged by replay
    (repo,) = result.candidates
    assert repo == "pytoolz/toolz"
    assert sample_store.banks.alias("candidate", repo) == result.candidates[repo]
    gate = result.gate[repo]
    assert isinstance(gate["passed"], bool) and gate["candidate_success"] is not None
    assert gate["passed"] or gate["reasons"]
    assert result.lm_usage["calls"] > 0 and result.lm_usage["failures"] == 0
    assert len(engine.prompts) >= result.lm_usage["calls"]
    # tokens: every call of the run (the engine reports words as tokens), in the parent run and
    # per trial; the canned model has no price, so its cost is 0 and the run says so
    from dreamer.lm import words

    assert result.lm_usage["prompt_tokens"] == sum(words(p) for p in engine.prompts) > 0
    assert parent.data.metrics["lm_prompt_tokens"] == result.lm_usage["prompt_tokens"]
    assert parent.data.metrics["lm_cost_usd"] == 0.0
    assert parent.data.params["lm_priced"] == "False"
    assert all(child.data.metrics["lm_prompt_tokens"] > 0 for child in children)
    assert sum(child.data.metrics["lm_prompt_tokens"] for child in children) \
        <= result.lm_usage["prompt_tokens"]
    # MLflow's DSPy autologging recorded the compile in the optimisation's run
    assert parent.data.tags["dspy_autolog"] == "on"
    # (the LM's settings as a param, the compiled program's state as an artifact)
    assert '"model": "canned/test"' in parent.data.params["lm_params"]
    logged = {a.path for a in c.list_artifacts(result.mlflow_run_id)}
    assert "best_model.json" in logged, logged
    print("autologged artifacts:", sorted(logged))


def test_optimize_with_an_unreachable_lm_exits_4() -> None:
    out = CliRunner().invoke(app, ["optimize", "--suite", str(SAMPLE), "--lm", "openai/x",
                                   "--lm-base-url", "http://127.0.0.1:9/v1"])
    assert out.exit_code == LM_EXIT_CODE, out.output
    assert "trial call" in out.output
