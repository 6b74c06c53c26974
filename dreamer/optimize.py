"""``dreamer optimize``: compile a strategy's dream program with a DSPy optimizer against the
replay metric.

The suite's families are split into a train set and held-out families (by default the last
family in name order is held out). Each train example is the extraction bank of a family's
repository with the family's oracle memories; the inner-loop metric is a cheap proxy of replay
success: the share of the oracle fact's identifiers that survive in one active memory of the
bank the program writes. The compiled program is saved with DSPy's ``save``; then it dreams the
held-out families' extraction banks into candidate banks that the gate judges by replay (lift
over placebo, beating production), which is the final score. Every trial (one metric call) is
a nested MLflow run under the optimisation's run in experiment ``dreamer-optimize``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from dreamer import settings
from dreamer.errors import ConfigError

Optimizer = Literal["bootstrap", "mipro", "gepa"]
OPTIMIZERS: tuple[str, ...] = ("bootstrap", "mipro", "gepa")
EXPERIMENT = "dreamer-optimize"
TRIAL_LM_KEYS = ("calls", "failures", "prompt_tokens", "completion_tokens", "cost_usd")


@dataclass
class OptimizeResult:
    """What an optimisation did: the split, the trials, the saved program, and per held-out
    repository the candidate bank and the gate's decision."""

    strategy: str
    optimizer: str
    train_families: list[str]
    heldout_families: list[str]
    program: Path
    trials: list[dict[str, Any]] = field(default_factory=list)
    train_score: float = 0.0
    heldout_proxy: float = 0.0
    candidates: dict[str, str] = field(default_factory=dict)
    gate: dict[str, dict[str, Any]] = field(default_factory=dict)
    lm_usage: dict[str, Any] = field(default_factory=dict)
    mlflow_run_id: str | None = None
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "optimizer": self.optimizer,
                "train_families": self.train_families,
                "heldout_families": self.heldout_families, "program": str(self.program),
                "trials": len(self.trials), "train_score": self.train_score,
                "heldout_proxy": self.heldout_proxy, "candidates": self.candidates,
                "gate": self.gate, "lm_usage": self.lm_usage,
                "mlflow_run_id": self.mlflow_run_id, "wall_s": round(self.wall_s, 2)}


def split_families(tasks: list[Any], heldout: list[str] | None = None
                   ) -> tuple[list[str], list[str]]:
    """(train families, held-out families) of ``tasks``; ``heldout`` names them, else the last
    family in name order is held out. Both sides must be non-empty."""
    families = sorted({t.family for t in tasks if t.family})
    if len(families) < 2:
        raise ConfigError(f"optimizing needs tasks of two families or more (a train split and a "
                          f"held-out one); the suite has {families or 'none'}")
    held = list(heldout) if heldout else families[-1:]
    unknown = sorted(set(held) - set(families))
    if unknown:
        raise ConfigError(f"--heldout {', '.join(unknown)}: no such family; the suite's "
                          f"families: {', '.join(families)}")
    train = [f for f in families if f not in held]
    if not train:
        raise ConfigError("every family is held out: nothing is left to train on")
    return train, sorted(held)


def oracle_anchors(tasks: list[Any]) -> list[list[str]]:
    """The identifiers of each distinct oracle memory of ``tasks`` (what must survive)."""
    from dreamer.stages.text import anchors

    seen: dict[str, list[str]] = {}
    for task in tasks:
        for memory in task.oracle_memories:
            found = sorted(anchors(str(memory.get("summary", ""))))
            if found:
                seen.setdefault(str(memory.get("id") or memory.get("summary")), found)
    return list(seen.values())


def survival(bank: Any, oracles: list[list[str]]) -> float:
    """The replay proxy: for each oracle fact, the largest share of its identifiers that one
    active memory of ``bank`` keeps; averaged over the facts (0 with no fact)."""
    from dreamer.stages.base import memory_text
    from dreamer.stages.text import anchors

    if not oracles:
        return 0.0
    kept = [anchors(memory_text(m)) for m in bank.active]
    scores = []
    for wanted in oracles:
        need = set(wanted)
        scores.append(max((len(need & have) / len(need) for have in kept), default=0.0))
    return round(sum(scores) / len(scores), 4)


class _Trials:
    """Each metric call of the optimizer, kept and logged as a nested MLflow run."""

    def __init__(self, parent_run: str | None, experiment: str | None) -> None:
        self.rows: list[dict[str, Any]] = []
        self.parent_run, self.experiment = parent_run, experiment
        self._lock = threading.Lock()

    def record(self, family: str, score: float, metrics: dict[str, Any]) -> None:
        usage = metrics.get("lm_usage") or {}
        row = {"trial": 0, "family": family, "score": score,
               **{f"lm_{key}": usage.get(key, 0) for key in TRIAL_LM_KEYS},
               "active_memories": metrics.get("active_memories", {}).get("after")}
        with self._lock:
            row["trial"] = len(self.rows)
            self.rows.append(row)
        if self.parent_run is None or self.experiment is None:
            return
        from dreamer.tracking import client

        c = client()
        run = c.create_run(self.experiment, run_name=f"trial-{row['trial']}",
                           tags={"mlflow.parentRunId": self.parent_run, "family": family})
        rid = run.info.run_id
        for key in ("score", *(f"lm_{k}" for k in TRIAL_LM_KEYS), "active_memories"):
            if row[key] is not None:
                c.log_metric(rid, key, float(row[key]))
        c.set_terminated(rid)


def _compile(optimizer: str, program: Any, trainset: list[Any], metric: Any, lm: Any,
             trials: int, max_demos: int) -> Any:
    import dspy

    if optimizer == "bootstrap":
        teleprompter = dspy.BootstrapFewShot(
            metric=metric, metric_threshold=0.5, max_bootstrapped_demos=max_demos,
            max_labeled_demos=0, max_rounds=1)
        return teleprompter.compile(program, trainset=trainset)
    if optimizer == "mipro":
        teleprompter = dspy.MIPROv2(
            metric=metric, auto=None, num_candidates=max(2, trials), num_threads=1,
            max_bootstrapped_demos=max_demos, max_labeled_demos=0, prompt_model=lm,
            task_model=lm, verbose=False)
        return teleprompter.compile(program, trainset=trainset, valset=trainset,
                                    num_trials=trials, minibatch=False)
    if optimizer == "gepa":
        def feedback(gold: Any, pred: Any, trace: Any = None, pred_name: Any = None,
                     pred_trace: Any = None) -> Any:
            score = metric(gold, pred)
            return dspy.Prediction(score=score, feedback=(
                f"{score:.0%} of the oracle fact's identifiers survived the dream; keep exact "
                "identifiers, paths, commands and values"))

        teleprompter = dspy.GEPA(metric=feedback, max_metric_calls=max(2, trials) * len(trainset),
                                 reflection_lm=lm, num_threads=1)
        return teleprompter.compile(program, trainset=trainset, valset=trainset)
    raise ConfigError(f"unknown optimizer {optimizer!r}; known: {', '.join(OPTIMIZERS)}")


def optimize(store: Any, strategy_ref: str, suite: str, optimizer: str, lm: Any, *,
             heldout: list[str] | None = None, trials: int = 2, max_demos: int = 2,
             max_failures: float = 0.05, out: Path | None = None, gate_config: Any = None,
             strategy_sets: list[str] | None = None, track: bool = True,
             autolog: bool = True) -> OptimizeResult:
    """Compile ``strategy_ref``'s dream program with ``optimizer`` on the train families of
    ``suite`` (their repositories' extraction banks in ``store``), save it, dream the held-out
    families' banks with it and let the gate judge each candidate by replay. With ``track``
    and ``autolog``, MLflow's DSPy autologging records the compile in the optimisation's run
    (``dreamer.tracking.dspy_autologged``)."""
    import dspy

    from dreamer.lm import lm_name, usage_for
    from dreamer.loop import evaluate_and_gate, extraction_bank, load_nightly
    from dreamer.pipeline import dream, make_context, store_dream
    from dreamer.programs import DreamProgram, save_program
    from dreamer.strategy import load_strategy, modify
    from dreamer.tracking import dspy_autologged
    from evals.tasks import load_tasks

    if optimizer not in OPTIMIZERS:
        raise ConfigError(f"unknown optimizer {optimizer!r}; known: {', '.join(OPTIMIZERS)}")
    if lm is None:
        raise ConfigError("optimizing a dream program needs a language model (--lm)")
    started = time.monotonic()
    strategy = modify(load_strategy(strategy_ref), sets=strategy_sets or [])
    tasks = [t for t in load_tasks(suite) if t.certified is not False]
    train, held = split_families(tasks, heldout)
    by_family: dict[str, list[Any]] = {}
    for task in tasks:
        if task.family:
            by_family.setdefault(task.family, []).append(task)

    def example(family: str) -> Any:
        repo = by_family[family][0].repo
        return dspy.Example(bank=extraction_bank(store, repo), family=family,
                            oracles=oracle_anchors(by_family[family])).with_inputs("bank")

    trainset = [example(f) for f in train]
    if not any(len(e.bank.memories) for e in trainset):
        raise ConfigError("the train families' repositories have no extraction bank: run "
                          "`dreamer ingest` and `dreamer extract` first")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    parent, experiment = _start_run(strategy.name, optimizer, suite, lm_name(lm), train, held,
                                    trials, track)
    log = _Trials(parent, experiment)
    usage = usage_for(lm, max_failures)

    def metric(gold: Any, pred: Any, trace: Any = None) -> float:
        score = survival(pred.bank, gold.oracles)
        metrics = dict(pred.metrics)
        # One count for the whole optimisation; the enclosing ``metered`` counts the tokens
        # (the optimizer's own calls too: MIPRO's proposals, GEPA's reflections).
        usage.absorb(metrics["lm_usage"], tokens=False)
        log.record(gold.family, score, metrics)
        return score

    program = DreamProgram(strategy=strategy)
    with usage.metered(), dspy_autologged(parent if autolog else None), \
            dspy.context(lm=lm):
        compiled = _compile(optimizer, program, trainset, metric, lm, trials, max_demos)
    usage.check(f"optimizing {strategy.name} with {optimizer}")
    folder = out or settings.home() / "programs"
    path = save_program(compiled, folder / f"{strategy.name}-{optimizer}-{stamp}.json")
    result = OptimizeResult(strategy=strategy.name, optimizer=optimizer, train_families=train,
                            heldout_families=held, program=path, trials=log.rows)
    train_scores = [r["score"] for r in log.rows]
    result.train_score = round(max(train_scores, default=0.0), 4)
    # The final score: the compiled program dreams the held-out families' banks, and the gate
    # judges each candidate by replay on that family's tasks.
    nightly = gate_config or load_nightly("default")
    nightly = nightly.model_copy(update={"suite": suite, "strategy": strategy_ref})
    proxies = []
    for family in held:
        repo = by_family[family][0].repo
        run_usage = usage_for(lm, max_failures)
        context = make_context(strategy, lm, program=compiled, lm_usage=run_usage)
        dreamt = dream(extraction_bank(store, repo), strategy, context)
        usage.absorb(run_usage.as_dict())
        dreamt.metrics["program"] = str(path)
        store_dream(store, dreamt)
        proxies.append(survival(dreamt.bank, oracle_anchors(by_family[family])))
        run_dir = settings.home() / "runs" / f"optimize-{stamp}" / repo.replace("/", "__")
        gate_run = evaluate_and_gate(store, nightly, repo, dreamt.bank.id, run_dir)
        result.candidates[repo] = dreamt.bank.id
        lift = gate_run.evidence.lift
        result.gate[repo] = {
            "passed": gate_run.decision.passed, "reasons": list(gate_run.decision.reasons),
            "wins": gate_run.decision.wins, "losses": gate_run.decision.losses,
            "lift": None if lift is None else {k: getattr(lift, k, None)
                                               for k in ("lift", "low", "high", "p_value")},
            "candidate_success": _rate(gate_run.evidence.candidate),
            "production_success": _rate(gate_run.evidence.production),
        }
    result.heldout_proxy = round(sum(proxies) / len(proxies), 4) if proxies else 0.0
    result.lm_usage = usage.as_dict()
    result.wall_s = time.monotonic() - started
    result.mlflow_run_id = parent
    if parent is not None:
        _finish_run(parent, result)
    return result


def _rate(outcome: dict[str, float]) -> float | None:
    """The mean success over tasks (each task's share of relabellings resolved)."""
    values = list(outcome.values())
    return round(sum(values) / len(values), 4) if values else None


def _start_run(strategy: str, optimizer: str, suite: str, model: str | None, train: list[str],
               held: list[str], trials: int, track: bool) -> tuple[str | None, str | None]:
    if not track:
        return None, None
    from dreamer.tracking import client, experiment_id

    c = client()
    experiment = experiment_id(EXPERIMENT, c)
    run = c.create_run(experiment, run_name=f"optimize-{strategy}-{optimizer}",
                       tags={"strategy": strategy, "optimizer": optimizer})
    rid = run.info.run_id
    for key, value in {"strategy": strategy, "optimizer": optimizer, "suite": suite,
                       "lm": model, "train_families": ",".join(train),
                       "heldout_families": ",".join(held), "trials": trials}.items():
        c.log_param(rid, key, value)
    return rid, experiment


def _finish_run(run_id: str, result: OptimizeResult) -> None:
    from dreamer.tracking import client, lm_metrics, lm_params

    c = client()
    c.log_metric(run_id, "train_proxy_best", result.train_score)
    c.log_metric(run_id, "heldout_proxy", result.heldout_proxy)
    c.log_metric(run_id, "trials", len(result.trials))
    c.log_metric(run_id, "wall_s", result.wall_s)
    for key, value in lm_metrics(result.lm_usage).items():
        c.log_metric(run_id, key, value)
    for key, text in lm_params(result.lm_usage).items():
        c.log_param(run_id, key, text)
    for repo, gate in result.gate.items():
        slug = repo.replace("/", "__")
        c.log_metric(run_id, f"gate_passed.{slug}", float(bool(gate["passed"])))
        if gate["lift"] and gate["lift"].get("lift") is not None:
            c.log_metric(run_id, f"lift.{slug}", float(gate["lift"]["lift"]))
    c.log_artifact(run_id, str(result.program), "program")
    c.set_tag(run_id, "candidates", ",".join(result.candidates.values()))
    c.set_terminated(run_id)
