"""The closed loop's steps: ingest, extract, dream, evaluate, gate, promote.

Each step is a plain function over the store, so the Prefect flows in ``flows/`` only wire them
together (adding retries, caching and artifacts), and tests run them without Prefect. A nightly
run is configured by ``configs/nightly/<name>.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from dreamer.configs import load_config
from dreamer.fanout import FanOutConfig
from dreamer.gate import GateDecision, GateEvidence, decide, load_gate
from dreamer.lm import LMConfig
from dreamer.models import Bank, MemoryPack
from dreamer.store import Store

PROJECT_ROOT = Path(__file__).resolve().parents[1]


class CompareConfig(BaseModel):
    """What a comparison sweeps (``dreamer compare`` and its deployment), unless the command
    line says otherwise."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategies: tuple[str, ...] = ("none", "default", "aggressive", "no-forgetting")
    """Strategies (names or paths) to dream with and evaluate."""
    budgets: tuple[int | None, ...] = (0, 256, 1024, None)
    """Token budgets; ``all`` (or null) is no limit."""
    agents: tuple[str, ...] = ()
    """Agents; empty: the configuration's agent and ``embedding`` (the two offline agents)."""

    @field_validator("budgets", mode="before")
    @classmethod
    def _all(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(None if v in ("all", "inf", "none") else v for v in value)
        return value


class NightlyConfig(BaseModel):
    """A nightly run, as read from ``configs/nightly/<name>.yaml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "default"
    """The configuration's name, recorded with each run."""
    sources: tuple[str, ...] = ()
    """Trajectory files or folders to ingest (relative paths: from the project root), or an
    agent's standard place (``claude-code``, ``openhands``, ``swe-agent``); each is pulled from
    its watermark, so only what changed since the last run is read."""
    source_repo: str | None = None
    """The repository of every ingested session, for formats that do not record it (Claude
    Code records only a working directory)."""
    manifest: str | None = None
    """A sessions manifest (JSONL: ``file``, ``started_at``, ``ended_at``, ``repo``) for formats
    that record no time, such as a corpus's ``sessions.jsonl``."""
    repo_roots: tuple[str, ...] = ()
    """Folders of local git repositories (or bundles) from which cited lines are hashed."""
    repos: tuple[str, ...] = ()
    """The repositories to dream for; empty: every repository of the suite's tasks."""
    strategy: str = "default"
    """The dream strategy (name or path)."""
    suite: str = "sample"
    """The held-out tasks (a suite name or path)."""
    split: str | None = None
    """The split of the suite to evaluate on, when it has several."""
    certified_only: bool = True
    """Evaluate on the tasks that memory decides (corpus certification) only."""
    agent: str = "selector"
    """The agent that attempts the tasks."""
    gate: str = "default"
    """The promotion gate (name or path)."""
    timeout_s: float = Field(120.0, gt=0)
    """Per test run."""
    workers: int | None = None
    """Parallel attempts; default: all cores."""
    permutations: int = Field(3, ge=1)
    """Relabellings of the candidate ids each held-out task runs under."""
    lm: LMConfig | None = None
    """The language model of extraction and dreaming (``model``, ``base_url``,
    ``api_key_env``, ``max_failures``...); None: the strategy's, else offline."""
    compare: CompareConfig = CompareConfig()
    """The comparison's strategies, budgets and agents."""
    fan_out: FanOutConfig = FanOutConfig()
    """Where a comparison's attempts run: Prefect's threads (default) or a Dask cluster
    (``dreamer.fanout``)."""


def load_nightly(ref: str | Path = "default", **overrides: Any) -> NightlyConfig:
    return load_config("nightly", ref, NightlyConfig, **overrides)


def project_path(value: str) -> Path:
    """A config path: absolute as given, relative from the project root."""
    path = Path(value)
    return path if path.is_absolute() else PROJECT_ROOT / path


def ingest_sources(store: Store, config: NightlyConfig) -> dict[str, Any]:
    """Pull the configured sources (what changed since each one's watermark); returns the
    ingest summary. A file that cannot be read or stored is quarantined or skipped, with its
    reason, and the run goes on."""
    from dreamer.ingest.driver import Defaults, read_manifest
    from dreamer.ingest.pull import pull

    rows = read_manifest(project_path(config.manifest)) if config.manifest else {}
    defaults = Defaults(repo=config.source_repo, manifest=rows)
    pulled = pull(store, list(config.sources), defaults, base=PROJECT_ROOT)
    report = pulled.report
    return {"ingested": len(report.ingested), "duplicates": len(report.duplicates),
            "quarantined": len(report.quarantined), "skipped": len(report.skipped),
            "failed": len(report.failed), "warnings": len(report.warnings),
            "extended": len(pulled.summary()["extended"]),  # type: ignore[arg-type]
            "unchanged": sum(int(str(s["unchanged"])) for s in pulled.sources),
            "quarantined_files": [{"path": q["path"], "reason": q["reason"]}
                                  for q in report.quarantined]}


def lm_settings(*layers: Any) -> LMConfig:
    """The LM settings of a run: each layer (an ``LMConfig``, a dict of its fields, a model
    string, or None) over the previous one, so the command line wins over the nightly config,
    which wins over the strategy."""
    cfg = LMConfig()
    for layer in layers:
        if layer is None:
            continue
        if isinstance(layer, str):
            layer = {"model": layer}
        if isinstance(layer, LMConfig):
            layer = layer.model_dump(exclude_unset=True)
        cfg = cfg.merged(**layer)
    return cfg


def extract_new(store: Store, config: NightlyConfig, lm: Any = None) -> dict[str, Any]:
    """Extract the sessions not extracted yet; returns the extraction summary. ``lm`` (a model
    string, LM settings, or a ``dspy.LM``) goes over the config's ``lm``."""
    from dreamer.extract import extract
    from dreamer.lm import make_lm

    cfg = lm_settings(config.lm, None if _is_lm(lm) else lm)
    model = lm if _is_lm(lm) else make_lm(cfg)
    result = extract(store, lm=model, repo_roots=[project_path(r) for r in config.repo_roots],
                     max_failures=cfg.max_failures)
    return result.to_json()


def _is_lm(value: Any) -> bool:
    return value is not None and not isinstance(value, str | dict | LMConfig)


def dream_for(store: Store, repo: str, strategy: str, lm: Any = None,
              alias: str | None = "candidate") -> tuple[str, dict[str, Any]]:
    """Dream ``repo``'s extraction bank with ``strategy``: (candidate bank id, dream metrics).
    ``lm`` (a model string, LM settings, or a ``dspy.LM``) goes over the strategy's ``lm``; an
    LM failing past its threshold raises ``LMRunError`` before the bank is stored."""
    from dreamer.lm import make_lm, usage_for
    from dreamer.pipeline import dream, make_context, store_dream
    from dreamer.strategy import load_strategy

    bank = extraction_bank(store, repo)
    plan = load_strategy(strategy)
    cfg = lm_settings(plan.lm, None if _is_lm(lm) else lm)
    model = lm if _is_lm(lm) else make_lm(cfg)
    usage = usage_for(model, cfg.max_failures) if model is not None else None
    result = dream(bank, plan, make_context(plan, lm=model, lm_usage=usage))
    store_dream(store, result, alias=alias)
    return result.bank.id, result.metrics


def extraction_bank(store: Store, repo: str) -> Bank:
    """The newest extraction bank of ``repo`` (an empty bank when nothing was extracted)."""
    ref = store.banks.alias("extraction", repo)
    return store.banks.get(ref) if ref else Bank(repo=repo)


def heldout_tasks(config: NightlyConfig, repo: str | None = None) -> list[Any]:
    """The suite's evaluation tasks (certified only, by default), of ``repo`` if given."""
    from evals.tasks import load_tasks

    suite = project_path(config.suite)
    tasks = load_tasks(suite if suite.exists() else config.suite, split=config.split)
    if config.certified_only:
        tasks = [t for t in tasks if t.certified is not False]
    return [t for t in tasks if repo is None or t.repo == repo]


class GateRun(BaseModel):
    """A gate decision with what it was decided on (serialisable, so a flow can cache it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    repo: str
    candidate: str
    production: str | None
    decision: GateDecision
    evidence: GateEvidence
    summary: dict[str, Any]


def evaluate_and_gate(store: Store, config: NightlyConfig, repo: str, candidate_id: str,
                      run_dir: Path) -> GateRun:
    """Run candidate and production on ``repo``'s held-out tasks at the gate's budget, beside
    the placebo arms and the controls, then decide. Production is the ``production`` alias (no
    memory when there is none yet). Leaks are the suite's own check of every pack it handed out."""
    from dreamer.sources import SourceTimes
    from evals.suite import SuiteConfig, run_suite
    from evals.suite_result import per_task

    gate = load_gate(config.gate)
    candidate = store.banks.get(candidate_id)
    production_id = store.banks.alias("production", repo)
    production = store.banks.get(production_id) if production_id else Bank(repo=repo)
    tasks = heldout_tasks(config, repo)
    extra: dict[str, Any] = {"workers": config.workers} if config.workers else {}
    suite_config = SuiteConfig(
        suite=config.suite, agent=config.agent, budgets=(gate.budget,), timeout_s=config.timeout_s,
        permutations=config.permutations, **extra,
    )
    result = run_suite(tasks, candidate, suite_config, run_dir, compare=production,
                       placebo_pool=other_memories(store, repo),
                       source_times=SourceTimes(store, project_path(config.suite)))
    table, ids = result.table, [t.instance_id for t in tasks]
    outcome = {arm: per_task(table[table["arm"] == arm], ids) for arm in ("bank", "compare")}
    label = next(iter(result.success), None)
    evidence = GateEvidence(
        candidate=outcome["bank"], production=outcome["compare"],
        candidate_active_tokens=result.bank_tokens,
        lift=result.lifts.get(label) if label else None,
        controls={arm: rate.rate for arm, rate in result.controls.items()},
        leak_violations=tuple(f"{f.task}: {f.rule}: {f.detail}"
                              for f in result.leak_findings.get("bank", [])),
        scope_violations=tuple(f"{m.id} is scoped to {m.scope.repo}"
                               for m in candidate.memories if m.scope.repo != repo),
    )
    return GateRun(repo=repo, candidate=candidate.id, production=production_id,
                   decision=decide(gate, evidence), evidence=evidence, summary=result.summary())


def other_memories(store: Store, repo: str, alias: str = "extraction") -> list[Any]:
    """The memories of every other repository's ``alias`` bank: what the other-repository
    placebo draws from."""
    memories: list[Any] = []
    for other, name, bank_id, _ in store.banks.aliases():
        if name == alias and other not in (repo, "*"):
            memories.extend(m for m in store.banks.get(bank_id).memories if m.scope.repo != repo)
    return memories


def leaks(store: Store, config: NightlyConfig, tasks: list[Any],
          packs: Mapping[str, MemoryPack]) -> list[str]:
    """The leak check (``evals.leaks``) over ``packs``: memories from the future or carrying a
    fix."""
    from dreamer.sources import SourceTimes
    from evals.leaks import check_packs

    times = SourceTimes(store, project_path(config.suite))
    return [f"{f.task}: {f.rule}: {f.detail}" for f in check_packs(tasks, packs, times)]


def promote_if_passed(store: Store, run: GateRun) -> tuple[bool, list[str]]:
    """Record ``run``'s decision and promote when it passed: (promoted, reasons)."""
    from dreamer.errors import GateError
    from dreamer.promotion import promote, record_decision
    from dreamer.store import LockHeldError

    details = {"evaluation": run.summary}
    if not run.decision.passed:
        record_decision(store, run.repo, run.candidate, run.production, run.decision, False,
                        details)
        return False, run.decision.reasons
    try:
        promote(store, run.repo, run.candidate, run.decision,
                expected_production=run.production, actor="nightly")
    except (GateError, LockHeldError) as exc:  # production moved, or another run is promoting
        record_decision(store, run.repo, run.candidate, run.production, run.decision, False,
                        details | {"refused": str(exc)})
        return False, [str(exc)]
    record_decision(store, run.repo, run.candidate, run.production, run.decision, True, details)
    return True, []


def dream_union(store: Store, repos: list[str], strategy: str, lm: Any = None) -> Bank:
    """Dream each repository's extraction bank with ``strategy`` and return the union of the
    candidates: one bank for a suite spanning several repositories (the router's scope filter
    keeps each task to its own repository's memories). No alias moves."""
    from dreamer.models import BankOrigin, Memory
    from dreamer.strategy import load_strategy

    memories: list[Memory] = []
    parents: list[str] = []
    for repo in repos:
        bank_id, _ = dream_for(store, repo, strategy, lm=lm, alias=None)
        bank = store.banks.get(bank_id)
        parents.append(bank.id)
        memories.extend(bank.memories)
    plan = load_strategy(strategy)
    union = Bank(repo=None, origin=BankOrigin(kind="dream", config={"strategy": strategy,
                                                                    "union_of": parents},
                                              config_hash=plan.config_hash()),
                 memories=tuple(sorted(memories, key=lambda m: m.id)))
    # What is evaluated is what was stored (a bank read back may differ from the one built in
    # memory: a sweep and a later look at the stored bank must count the same tokens).
    return store.banks.get(store.banks.put(union))


def log_gate_run(run: GateRun, promoted: bool, reasons: list[str]) -> str:
    """Record a nightly gate decision as an MLflow run (experiment ``dreamer-nightly``)."""
    import json
    import tempfile

    from dreamer import tracking

    client = tracking.client()
    experiment = tracking.experiment_id("dreamer-nightly", client)
    mlrun = client.create_run(experiment, run_name=f"gate {run.repo}",
                              tags={"dreamer.kind": "gate", "repo": run.repo})
    rid = mlrun.info.run_id
    params = {"repo": run.repo, "candidate": run.candidate, "production": run.production or "none",
              "gate": run.decision.gate}
    metrics: dict[str, float] = {"passed": float(run.decision.passed), "promoted": float(promoted),
               "wins": run.decision.wins, "losses": run.decision.losses,
               "p_value": run.decision.p_value,
               "candidate_tokens": run.evidence.candidate_active_tokens,
               "candidate_success": _share(run.evidence.candidate),
               "production_success": _share(run.evidence.production)}
    if run.evidence.lift is not None:
        metrics.update({"lift": run.evidence.lift.lift, "lift_low": run.evidence.lift.low,
                        "lift_high": run.evidence.lift.high,
                        "lift_p_value": run.evidence.lift.p_value})
    metrics.update({f"control_{arm}": rate for arm, rate in run.evidence.controls.items()})
    from evals.tracking import log_run

    log_run(client, rid, params, metrics)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gate.json"
        path.write_text(json.dumps({"decision": run.decision.model_dump(mode="json"),
                                    "reasons": reasons, "promoted": promoted}, indent=1))
        client.log_artifact(rid, str(path))
    client.set_terminated(rid)
    return str(rid)


def _share(outcomes: Mapping[str, float]) -> float:
    return sum(outcomes.values()) / len(outcomes) if outcomes else 0.0
