"""Every LM path for real, against a local model: Gemma 3 270M (GGUF, from the package index)
behind llama-cpp-python's OpenAI-compatible server, reached through litellm and DSPy.

It is a small base model: most of its answers do not parse. The point is that extraction, a
dream and the ``llm`` agent run end to end, that every malformed answer is counted and handled
(never a crash), and that calls, failures and wall times land in MLflow. Skipped, with the
reason, when ``make lm-local`` has not installed the model and the server.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

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


def test_extraction_a_dream_and_the_llm_agent_run_on_a_local_model(tmp_path: Path) -> None:
    from dreamer.cli import app
    from dreamer.extract import extract
    from dreamer.lm import make_lm, probe
    from dreamer.loop import extraction_bank
    from dreamer.pipeline import dream, make_context
    from dreamer.store import open_store
    from dreamer.strategy import load_strategy, modify
    from dreamer.tracking import client, experiment_id
    from evals.agents.base import make_agent
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import load_tasks

    assert CliRunner().invoke(app, ["ingest", str(SAMPLE / "sessions")]).exit_code == 0
    store = open_store()
    figures: dict[str, float] = {}
    with LocalServer(log=tmp_path / "server.log") as server:
        figures["server_start_s"] = server.started_s
        lm = make_lm(LM_MODEL, base_url=server.base_url, cache=False, max_tokens=256,
                     num_retries=0)
        probe(lm)

        began = time.monotonic()
        extracted = extract(store, repo=REPO, lm=lm, repo_roots=[SAMPLE / "repos"],
                            max_failures=1.0)
        figures["extract_wall_s"] = time.monotonic() - began
        usage = extracted.lm_usage or {}
        assert usage["calls"] == extracted.sessions > 0
        assert usage["failures"] == usage["fallbacks"]  # each failure fell back to the rules
        assert extracted.banks, "the rules' fallback still writes the extraction bank"
        for key in ("calls", "failures"):
            figures[f"extract_lm_{key}"] = usage[key]

        strategy = modify(load_strategy("default"), sets=["embedding=tfidf"])
        from dreamer.lm import usage_for

        dream_usage = usage_for(lm, 1.0)
        began = time.monotonic()
        result = dream(extraction_bank(store, REPO), strategy,
                       make_context(strategy, lm, skills_dir=tmp_path / "skills",
                                    lm_usage=dream_usage))
        figures["dream_wall_s"] = time.monotonic() - began
        assert result.metrics["lm_usage"]["calls"] > 0
        figures["dream_lm_calls"] = dream_usage.calls
        figures["dream_lm_failures"] = dream_usage.failures

        tasks = [t for t in load_tasks(SAMPLE) if t.repo == REPO][:2]
        agent = make_agent("llm", {"model": LM_MODEL, "base_url": server.base_url,
                                   "max_tokens": 256, "allow_new": False})
        began = time.monotonic()
        suite = run_suite(tasks, result.bank, SuiteConfig(
            suite=str(SAMPLE), agent="llm", budgets=(1024,), controls=False, permutations=1,
            workers=1, timeout_s=120), tmp_path / "run", agent=agent)
        figures["agent_wall_s"] = time.monotonic() - began
        agent_usage = agent.usage.as_dict()  # type: ignore[attr-defined]
        assert agent_usage["calls"] == len(suite.table) > 0  # every attempt asked the model
        figures["agent_lm_calls"] = agent_usage["calls"]
        figures["agent_lm_failures"] = agent_usage["failures"]

    c = client()
    run = c.create_run(experiment_id("dreamer-local-lm", c), run_name="gemma3-270m-sample",
                       tags={"model": LM_MODEL, "repo": REPO})
    for key, value in figures.items():
        c.log_metric(run.info.run_id, key, float(value))
    c.set_terminated(run.info.run_id)
    logged = c.get_run(run.info.run_id).data.metrics
    assert {"extract_lm_calls", "dream_lm_failures", "agent_wall_s"} <= set(logged)
    print({k: round(v, 2) for k, v in figures.items()})
