"""Every LM path for real, against a local model: Gemma 3 270M (GGUF, from the package index)
behind llama-cpp-python's OpenAI-compatible server, reached through litellm and DSPy.

It is a small base model: most of its answers do not parse. The point is that extraction, a
dream, the ``llm`` agent and ``dreamer optimize`` run end to end, that every malformed answer is
counted and handled (never a crash), and that calls, failures, tokens and wall times land in
MLflow. Skipped, with the reason, when ``make lm-local`` has not installed the model and the
server. The slices are small so that both tests end within about half an hour on 2 busy cores:
three sessions of one repository, one task, one budget; optimisation on banks cut to the
memories that carry their family's oracle identifiers.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dreamer.localserver import LM_MODEL, LocalServer, unavailable

pytestmark = [pytest.mark.local_lm, pytest.mark.slow,
              pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
              # Opt-in (`make test-lm-local`): a run takes tens of minutes on 2 cores, far more
              # than the rest of the suite.
              pytest.mark.skipif(os.environ.get("DREAMER_LOCAL_LM") != "1",
                                 reason="set DREAMER_LOCAL_LM=1 (make test-lm-local) to run it")]

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "datasets" / "sample"
REPO = "pytoolz/toolz"  # the fewest sessions (9): the fewest extraction calls
SESSIONS = 3
"""Sessions of ``REPO`` extracted with the model (each is one call with a long prompt)."""
BANK_CUT = 5
"""Memories per bank in the optimisation (dedupe and conflicts ask about every close pair)."""
MAX_TOKENS = 128
"""A base model rambles to the limit; the chat adapter's fields fit well within it."""
THREADS = int(os.environ.get("DREAMER_LOCAL_LM_THREADS", "0")) or None
"""llama.cpp's threads (default: every core). On a machine loaded past its cores, 1 thread
avoids OpenMP's barriers between threads that the scheduler keeps apart."""


def _local_lm(server: LocalServer) -> Any:
    from dreamer.lm import make_lm, probe

    lm = make_lm(LM_MODEL, base_url=server.base_url, cache=False, max_tokens=MAX_TOKENS,
                 num_retries=0)
    probe(lm)
    return lm


def _log(run_name: str, figures: dict[str, float], usages: dict[str, dict[str, Any]]) -> Any:
    """One MLflow run (experiment ``dreamer-local-lm``) with the figures and, per path, the LM's
    calls, failures, tokens and cost."""
    from dreamer.tracking import client, experiment_id, lm_metrics

    c = client()
    run = c.create_run(experiment_id("dreamer-local-lm", c), run_name=run_name,
                       tags={"model": LM_MODEL, "repo": REPO})
    values = dict(figures)
    for path, usage in usages.items():
        values.update({f"{path}_{k}": v for k, v in lm_metrics(usage).items()})
    for key, value in values.items():
        c.log_metric(run.info.run_id, key, float(value))
    c.set_terminated(run.info.run_id)
    print(run_name, {k: round(v, 3) for k, v in values.items()}, flush=True)
    return c.get_run(run.info.run_id)


def test_extraction_a_dream_and_the_llm_agent_run_on_a_local_model(tmp_path: Path) -> None:
    from dreamer.cli import app
    from dreamer.extract import extract
    from dreamer.lm import usage_for
    from dreamer.loop import extraction_bank
    from dreamer.pipeline import dream, make_context
    from dreamer.store import open_store
    from dreamer.strategy import load_strategy, modify
    from evals.agents.base import make_agent
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import load_tasks

    began_all = time.monotonic()
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for path in sorted((SAMPLE / "sessions").glob("pytoolz__toolz-*"))[:SESSIONS]:
        shutil.copy(path, sessions / path.name)
    assert CliRunner().invoke(app, ["ingest", str(sessions)]).exit_code == 0
    store = open_store()
    figures: dict[str, float] = {}
    usages: dict[str, dict[str, Any]] = {}
    with LocalServer(threads=THREADS, log=tmp_path / "server.log") as server:
        figures["server_start_s"] = server.started_s
        lm = _local_lm(server)

        began = time.monotonic()
        extracted = extract(store, repo=REPO, lm=lm, repo_roots=[SAMPLE / "repos"],
                            max_failures=1.0)
        figures["extract_wall_s"] = time.monotonic() - began
        usages["extract"] = usage = extracted.lm_usage or {}
        assert usage["calls"] == extracted.sessions == SESSIONS
        assert usage["failures"] == usage["fallbacks"]  # each failure fell back to the rules
        assert usage["prompt_tokens"] > 0 and usage["priced"] is False
        assert extracted.banks, "the rules' fallback still writes the extraction bank"

        strategy = modify(load_strategy("default"), sets=["embedding=tfidf"])
        dream_usage = usage_for(lm, 1.0)
        began = time.monotonic()
        result = dream(extraction_bank(store, REPO), strategy,
                       make_context(strategy, lm, skills_dir=tmp_path / "skills",
                                    lm_usage=dream_usage))
        figures["dream_wall_s"] = time.monotonic() - began
        usages["dream"] = result.metrics["lm_usage"]
        assert usages["dream"]["calls"] > 0 and usages["dream"]["prompt_tokens"] > 0
        assert result.bank.origin.config["lm_usage"] == usages["dream"]

        tasks = [t for t in load_tasks(SAMPLE) if t.repo == REPO][:1]
        agent = make_agent("llm", {"model": LM_MODEL, "base_url": server.base_url,
                                   "max_tokens": MAX_TOKENS, "allow_new": False})
        began = time.monotonic()
        suite = run_suite(tasks, result.bank, SuiteConfig(
            suite=str(SAMPLE), agent="llm", budgets=(1024,), controls=False, permutations=1,
            workers=1, timeout_s=120), tmp_path / "run", agent=agent)
        figures["agent_wall_s"] = time.monotonic() - began
        usages["agent"] = agent.usage.as_dict()  # type: ignore[attr-defined]
        assert usages["agent"]["calls"] == len(suite.table) > 0  # every attempt asked the model
    figures["total_wall_s"] = time.monotonic() - began_all

    run = _log("gemma3-270m-sample", figures, usages)
    assert {"extract_lm_calls", "dream_lm_failures", "agent_lm_prompt_tokens",
            "agent_wall_s"} <= set(run.data.metrics)


def _cut_extraction_banks(store: Any, tasks: list[Any], keep: int) -> None:
    """Each repository's extraction bank cut to the ``keep`` memories that carry the most of
    its tasks' oracle identifiers (so the replay proxy can still score), as a new version."""
    from dreamer.loop import extraction_bank
    from dreamer.models import Bank
    from dreamer.optimize import oracle_anchors
    from dreamer.stages.base import memory_text
    from dreamer.stages.text import anchors

    for repo in sorted({t.repo for t in tasks}):
        bank = extraction_bank(store, repo)
        wanted = {a for anchor_set in oracle_anchors([t for t in tasks if t.repo == repo])
                  for a in anchor_set}
        ranked = sorted(bank.memories,
                        key=lambda m: (-len(wanted & anchors(memory_text(m))), m.id))
        cut = Bank(repo=repo, parent_id=bank.id, origin=bank.origin,
                   memories=tuple(sorted(ranked[:keep], key=lambda m: m.id)))
        store.banks.put_and_move(cut, "extraction", repo, reason=f"cut to {keep} for a test")


def test_optimize_compiles_a_program_with_a_local_model(tmp_path: Path) -> None:
    from dreamer.cli import app
    from dreamer.loop import load_nightly
    from dreamer.optimize import optimize
    from dreamer.programs import load_dream_program
    from dreamer.store import open_store
    from dreamer.tracking import client
    from evals.tasks import load_tasks

    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(SAMPLE / "sessions")]).exit_code == 0
    out = runner.invoke(app, ["extract", "--repos", str(SAMPLE / "repos")])  # offline rules
    assert out.exit_code == 0, out.output
    store = open_store()
    _cut_extraction_banks(store, load_tasks(SAMPLE), BANK_CUT)
    with LocalServer(threads=THREADS, log=tmp_path / "server.log") as server:
        lm = _local_lm(server)
        began = time.monotonic()
        result = optimize(
            store, "default", str(SAMPLE), "bootstrap", lm, trials=1, max_demos=1,
            max_failures=1.0, out=tmp_path / "programs", strategy_sets=["embedding=tfidf"],
            gate_config=load_nightly("default", permutations=1, timeout_s=120))
        wall = time.monotonic() - began
    # a saved program that loads back, a nested MLflow run per trial, a gated candidate
    assert result.program.is_file() and load_dream_program(result.program).stage_names
    assert result.trials
    c = client()
    parent = c.get_run(result.mlflow_run_id)
    children = c.search_runs([parent.info.experiment_id],
                             f"tags.mlflow.parentRunId = '{result.mlflow_run_id}'")
    assert len(children) == len(result.trials)
    (repo,) = result.candidates
    assert store.banks.alias("candidate", repo) == result.candidates[repo]
    gate = result.gate[repo]
    assert isinstance(gate["passed"], bool) and (gate["passed"] or gate["reasons"])
    assert result.lm_usage["calls"] > 0 and result.lm_usage["prompt_tokens"] > 0
    assert parent.data.metrics["lm_prompt_tokens"] == result.lm_usage["prompt_tokens"]
    _log("gemma3-270m-optimize", {"optimize_wall_s": wall, "trials": len(result.trials),
                                  "train_proxy_best": result.train_score,
                                  "heldout_proxy": result.heldout_proxy,
                                  "gate_passed": float(gate["passed"])},
         {"optimize": result.lm_usage})
    print("gate", repo, gate, "autolog", parent.data.tags.get("dspy_autolog"), flush=True)
