"""The nightly dream: ingest → extract → dream → evaluate candidate and production → gate →
promote or reject, per repository, with the reasons in a table and a markdown artifact."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NONE as NO_CACHE

from dreamer import settings
from dreamer.loop import (
    GateRun,
    dream_for,
    evaluate_and_gate,
    extract_new,
    extraction_bank,
    heldout_tasks,
    ingest_sources,
    load_nightly,
    log_gate_run,
    promote_if_passed,
)
from dreamer.models import content_hash
from dreamer.store import open_store


@task(retries=2, retry_delay_seconds=5, cache_policy=NO_CACHE)
def ingest(config_ref: str) -> dict[str, Any]:
    return ingest_sources(open_store(), load_nightly(config_ref))


@task(retries=1, retry_delay_seconds=5, cache_policy=NO_CACHE)
def extract(config_ref: str, lm: str | dict[str, Any] | None) -> dict[str, Any]:
    return extract_new(open_store(), load_nightly(config_ref), lm=lm)


def _dream_key(_context: Any, args: dict[str, Any]) -> str:
    # The same extraction bank and strategy give the same candidate: key on both, and on the
    # store, so that a cache never names a bank another store does not hold.
    store = open_store()
    bank = extraction_bank(store, args["repo"])
    return content_hash([store.url, bank.id, args["strategy"], args["lm"]], prefix="dream-")


@task(cache_key_fn=_dream_key, persist_result=True)
def dream(repo: str, strategy: str, lm: str | dict[str, Any] | None) -> str:
    bank_id, _ = dream_for(open_store(), repo, strategy, lm=lm)
    return bank_id


def _evaluation_key(_context: Any, args: dict[str, Any]) -> str:
    # Evaluation is the expensive step: key on everything that decides its outcome.
    store = open_store()
    config = load_nightly(args["config_ref"])
    tasks = [(t.instance_id, t.base_commit, t.patch) for t in heldout_tasks(config, args["repo"])]
    production = store.banks.alias("production", args["repo"])
    return content_hash([store.url, config.model_dump(mode="json"), args["candidate"],
                         production, tasks], prefix="eval-")


@task(cache_key_fn=_evaluation_key, persist_result=True, retries=1, retry_delay_seconds=5)
def evaluate(config_ref: str, repo: str, candidate: str, run_dir: str) -> dict[str, Any]:
    run = evaluate_and_gate(open_store(), load_nightly(config_ref), repo, candidate, Path(run_dir))
    return run.model_dump(mode="json")


@task(cache_policy=NO_CACHE)
def promote(gate_run: dict[str, Any]) -> dict[str, Any]:
    run = GateRun.model_validate(gate_run)
    promoted, reasons = promote_if_passed(open_store(), run)
    mlflow_run = log_gate_run(run, promoted, reasons)
    return {
        "repo": run.repo, "candidate": run.candidate, "production_before": run.production,
        "passed": run.decision.passed, "promoted": promoted, "reasons": reasons,
        "wins": run.decision.wins, "losses": run.decision.losses,
        "p_value": round(run.decision.p_value, 5),
        "candidate_tokens": run.evidence.candidate_active_tokens, "mlflow_run": mlflow_run,
    }


@flow(name="nightly-dream", log_prints=True)
def nightly_dream(config_ref: str = "default",
                  lm: str | dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One nightly run of the configuration ``config_ref`` (``configs/nightly/<name>.yaml``)."""
    config = load_nightly(config_ref)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    run_dir = settings.home() / "runs" / f"nightly-{stamp}-{os.getpid()}"
    ingested = ingest(config_ref)
    extracted = extract(config_ref, lm, wait_for=[ingested])
    repos = list(config.repos) or sorted({t.repo for t in heldout_tasks(config)})
    outcomes = []
    for repo in repos:
        candidate = dream(repo, config.strategy, lm, wait_for=[extracted])
        gate_run = evaluate(config_ref, repo, candidate, str(run_dir / repo.replace("/", "__")))
        outcomes.append(promote(gate_run))
    _artifacts(ingested, extracted, outcomes)
    return outcomes


def _artifacts(ingested: dict[str, Any], extracted: dict[str, Any],
               outcomes: list[dict[str, Any]]) -> None:
    create_table_artifact(
        key="nightly-gate", table=outcomes,
        description="Per repository: the candidate, the gate's decision and why.",
    )
    lines = [
        "# Nightly dream",
        f"Ingested {ingested['ingested']} files ({ingested['duplicates']} duplicates, "
        f"{ingested['quarantined']} quarantined); extraction kept {extracted.get('kept', 0)} of "
        f"{extracted.get('candidates', 0)} candidates.",
        "",
        "| repo | candidate | promoted | reasons |",
        "| --- | --- | --- | --- |",
    ]
    for o in outcomes:
        why = "; ".join(o["reasons"]) or "gate passed"
        lines.append(f"| {o['repo']} | {o['candidate']} | {o['promoted']} | {why} |")
    create_markdown_artifact(key="nightly-summary", markdown="\n".join(lines))


if __name__ == "__main__":
    nightly_dream()
