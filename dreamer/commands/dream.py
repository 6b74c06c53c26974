"""``dreamer dream``, ``dreamer diff`` and ``dreamer ablate``: consolidate a bank into a
candidate, show what became of every memory, and compare every ablation with ``default``."""

from pathlib import Path
from typing import Annotated, Any

import typer

from dreamer.commands.common import (
    LM_BASE_URL_HELP,
    LM_KEY_ENV_HELP,
    LM_MAX_FAILURES_HELP,
    console,
    esc,
    fail,
    open_lm,
    print_json,
    store_or_exit,
    usage_line,
)

_SKIP = typer.Option("--skip-stage", help="Leave this stage out (repeatable).")
_SET = typer.Option("-S", "--set", help="stage.key=value, or embedding=tfidf (repeatable).")
_BASE_URL = typer.Option("--lm-base-url", help=LM_BASE_URL_HELP)
_KEY_ENV = typer.Option("--lm-api-key-env", help=LM_KEY_ENV_HELP)
_MAX_FAILURES = typer.Option("--lm-max-failures", help=LM_MAX_FAILURES_HELP)


def register(app: typer.Typer) -> None:
    @app.command("dream")
    def dream_(
        bank: Annotated[str, typer.Option(help="Bank id, unique prefix, or alias.")],
        strategy: Annotated[str, typer.Option(help="Strategy name or YAML path.")] = "default",
        skip_stage: Annotated[list[str] | None, _SKIP] = None,
        setting: Annotated[list[str] | None, _SET] = None,
        lm: Annotated[str | None, typer.Option(
            "--lm", help="litellm model for the stages' judgement (default: the strategy's "
            "lm, else offline).")] = None,
        lm_base_url: Annotated[str | None, _BASE_URL] = None,
        lm_api_key_env: Annotated[str | None, _KEY_ENV] = None,
        lm_max_failures: Annotated[float | None, _MAX_FAILURES] = None,
        repo: Annotated[str | None, typer.Option(help="Repository of the bank alias.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Dream: write a consolidated candidate bank (alias `candidate`), diff and provenance.
        With an LM, a trial call comes first; an unreachable LM, or failures past
        --lm-max-failures, stop the dream with exit code 4 and no alias moves."""
        from dreamer.pipeline import store_dream

        store = store_or_exit()
        lm_opts = {"model": lm, "base_url": lm_base_url, "api_key_env": lm_api_key_env,
                   "max_failures": lm_max_failures}
        the_bank, strat, lm_obj = _prepare(store, bank, repo, strategy, skip_stage, setting,
                                           lm_opts)
        result = _run(store, the_bank, strat, lm_obj)
        report = store_dream(store, result)
        summary = _summary(result, the_bank.id) | {"alias": "candidate", "report": str(report)}
        if (result.metrics.get("lm_usage") or {}).get("model"):
            summary["lm_usage"] = result.metrics["lm_usage"]
            summary["mlflow_run_id"] = _track(result, the_bank.id)
        if as_json:
            print_json(summary)
            return
        out = console()
        out.print(f"[bold]{result.bank.id}[/bold] (candidate) from {the_bank.id} with strategy "
                  f"{esc(strat.name)}", highlight=False)
        for key in ("active_memories", "active_tokens"):
            out.print(f"  {key.replace('_', ' ')}: {summary[key]['before']} -> "
                      f"{summary[key]['after']}")
        usage = result.metrics.get("lm_usage") or {}
        if usage.get("model"):
            out.print(f"  LM {esc(usage['model'])}: {usage['calls']} calls, {usage['failures']} "
                      f"failed, {usage['fallbacks']} decided by the offline rule; "
                      f"{usage_line(usage)} (MLflow run {summary['mlflow_run_id']})",
                      highlight=False)
        for name, counts in summary["stages"].items():
            shown = ", ".join(f"{k}={v}" for k, v in counts.items()
                              if isinstance(v, int) and v) or "no change"
            out.print(f"  {esc(name):<15} {esc(shown)}", highlight=False)
        out.print(f"  diff and provenance: {esc(report)}; `dreamer diff {the_bank.id[:14]} "
                  f"{result.bank.id[:14]}` shows them", highlight=False)

    @app.command("diff")
    def diff(
        before: Annotated[str, typer.Argument(help="The earlier bank (id, prefix, alias).")],
        after: Annotated[str, typer.Argument(help="The later bank (id, prefix, alias).")],
        repo: Annotated[str | None, typer.Option(help="Repository of the aliases.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Where each memory of BEFORE went in AFTER, and what each new memory came from."""
        from dreamer.errors import StoreError
        from dreamer.pipeline import load_provenance, trace

        store = store_or_exit()
        try:
            a, b = store.banks.resolve(before, repo), store.banks.resolve(after, repo)
        except StoreError as exc:
            fail(str(exc), code=2)
        report = trace(a, b, load_provenance(b.id))
        if as_json:
            print_json(report)
            return
        _show_trace(report)

    @app.command("ablate")
    def ablate(
        bank: Annotated[str | None, typer.Option(help=(
            "Bank id, unique prefix, or alias (omit: dream the extraction bank of every "
            "repository of --suite and evaluate their union)."))] = None,
        suite: Annotated[str | None, typer.Option(
            help="Suite to evaluate each candidate on (omit: sizes and counts only).")] = None,
        budgets: Annotated[str, typer.Option(
            help="Token budgets; 'all' = no limit.")] = "0,256,512,1024,all",
        strategies: Annotated[list[str] | None, typer.Option(
            "--strategy", help="Strategies to compare (default: none, default, no-*).")] = None,
        setting: Annotated[list[str] | None, _SET] = None,
        agent: Annotated[str, typer.Option(help="The harness's agent.")] = "selector",
        lm: Annotated[str | None, typer.Option("--lm", help="litellm model (stages).")] = None,
        lm_base_url: Annotated[str | None, _BASE_URL] = None,
        lm_api_key_env: Annotated[str | None, _KEY_ENV] = None,
        lm_max_failures: Annotated[float | None, _MAX_FAILURES] = None,
        repo: Annotated[str | None, typer.Option(
            help="Repository of the bank alias; with --suite, only this repository's tasks "
                 "are evaluated.")] = None,
        timeout: Annotated[float, typer.Option(help="Seconds per test run.")] = 300.0,
        permutations: Annotated[int, typer.Option(
            help="Relabellings of candidate ids per attempt (K).")] = 3,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Dream with every ablation and tabulate it against `default`: tokens, success, lift
        over placebo with its interval, the controls, and what each stage's removal changes."""
        from dreamer.strategy import list_strategies

        lm_opts = {"model": lm, "base_url": lm_base_url, "api_key_env": lm_api_key_env,
                   "max_failures": lm_max_failures}
        names = strategies or ["none", "default",
                               *(n for n in list_strategies() if n.startswith("no-"))]
        store = store_or_exit()
        rows = []
        tasks = _tasks(suite) if suite else None
        if tasks is not None and repo:
            tasks = [t for t in tasks if t.repo == repo]
            if not tasks:
                fail(f"{suite} has no task of {repo}", code=2)
        grades: dict[str, Any] = {}
        if bank is None and not tasks:
            fail("give --bank, or --suite to dream its repositories' extraction banks", code=2)
        for name in names:
            if bank is None:
                row: dict[str, Any] = {"strategy": name, **_dream_union(
                    store, sorted({t.repo for t in tasks or ()}), name, setting, lm_opts)}
                union: Any = store.banks.get(row["bank"])
            else:
                the_bank, strat, lm_obj = _prepare(store, bank, repo, name, None, setting,
                                                   lm_opts)
                result = _run(store, the_bank, strat, lm_obj)
                store.banks.put(result.bank)  # kept for later study; no alias moves
                row = {"strategy": name, **_summary(result, the_bank.id)}
                union = result.bank
            if tasks is not None:
                row |= _evaluate(store, tasks, union, suite or "", budgets, agent, timeout,
                                 permutations, grades)
            rows.append(row)
        _mark_changes(rows)
        if as_json:
            print_json(rows)
        else:
            _show_ablation(rows)


def _prepare(store: Any, bank: str, repo: str | None, strategy: str, skip: list[str] | None,
             sets: list[str] | None, lm: dict[str, Any]) -> tuple[Any, Any, Any]:
    from dreamer.errors import DreamerError

    strat, lm_obj = _strategy(strategy, skip, sets, lm)
    try:
        return store.banks.resolve(bank, repo), strat, lm_obj
    except DreamerError as exc:
        fail(str(exc), code=2)


def _strategy(strategy: str, skip: list[str] | None, sets: list[str] | None,
              lm: dict[str, Any] | None) -> tuple[Any, Any]:
    """The strategy with ``--skip-stage`` and ``-S`` applied, and the LM (None offline): the
    strategy's ``lm`` with the command line's ``lm`` settings over it, tried once (exit 4 when
    it does not answer)."""
    from dreamer.errors import DreamerError
    from dreamer.strategy import load_strategy, modify

    try:
        strat = modify(load_strategy(strategy), skip or [], sets or [])
    except DreamerError as exc:
        fail(str(exc), code=2)
    lm_obj, cfg = open_lm(strat.lm, **(lm or {}))
    if lm_obj is not None:
        from dreamer.lm import usage_for

        lm_obj = (lm_obj, usage_for(lm_obj, cfg.max_failures))
    return strat, lm_obj


def _run(store: Any, bank: Any, strategy: Any, lm: Any) -> Any:
    """Dream with the sessions the bank cites as context (for branches). ``lm`` is None or
    (the LM, a fresh usage count with the run's failure threshold). An LM that fails past the
    threshold exits with code 4 before anything is stored."""
    from dreamer.errors import LM_EXIT_CODE, LMRunError
    from dreamer.lm import usage_for
    from dreamer.models import CitationKind
    from dreamer.pipeline import dream, make_context

    ids = sorted({c.ref.split(":", 1)[0] for m in bank.memories for c in m.citations
                  if c.kind is CitationKind.SESSION})
    sessions = {s.id: s for s in store.evidence.sessions(ids=ids)} if ids else {}
    model, usage = lm if lm is not None else (None, None)
    if usage is not None:  # one count per dream
        usage = usage_for(model, usage.max_failures)
    context = make_context(strategy, model, sessions=sessions, lm_usage=usage)
    try:
        return dream(bank, strategy, context)
    except LMRunError as exc:
        fail(str(exc), code=LM_EXIT_CODE)


def _dream_union(store: Any, repos: list[str], strategy: str, sets: list[str] | None,
                 lm: dict[str, Any] | None) -> dict[str, Any]:
    """Dream each repository's extraction bank and keep the union of the candidates (the
    router's scope filter keeps each task to its repository): a suite spanning several
    repositories is evaluated on one bank, as ``dreamer.loop.dream_union`` builds it. Returns
    the ablation row's summary; no alias moves."""
    from dreamer.bank_tokens import active_tokens
    from dreamer.loop import extraction_bank
    from dreamer.models import Bank, BankOrigin

    strat, lm_obj = _strategy(strategy, None, sets, lm)
    results: list[Any] = []
    raw: list[Any] = []
    for name in repos:
        source = extraction_bank(store, name)
        if not source.memories:
            continue  # nothing extracted for this repository
        result = _run(store, source, strat, lm_obj)
        store.banks.put(result.bank)
        results.append(result)
        raw.extend(source.memories)
    union = Bank(repo=None, origin=BankOrigin(
        kind="dream", config={"strategy": strategy, "union_of": [r.bank.id for r in results]},
        config_hash=results[0].metrics["config_hash"] if results else None),
        memories=tuple(sorted((m for r in results for m in r.bank.memories), key=lambda m: m.id)))
    store.banks.put(union)
    before = Bank(repo=None, memories=tuple(raw))
    return {"bank": union.id, "parent": [r.bank.parent_id for r in results],
            "config_hash": union.origin.config_hash,
            "active_memories": {"before": len(before.active), "after": len(union.active)},
            "active_tokens": {"before": active_tokens(before), "after": active_tokens(union)},
            "stages": {r.bank.repo: r.metrics["stages"] for r in results}}


def _track(result: Any, parent: str) -> str:
    """Record a dream that called an LM in MLflow (experiment ``dreamer-dream``)."""
    from dreamer.tracking import log_lm_run

    m = result.metrics
    return log_lm_run("dream", m["lm_usage"], {
        "bank": result.bank.id, "parent": parent, "strategy": m["strategy"],
        "config_hash": m["config_hash"]}, {
        "active_memories": m["active_memories"]["after"],
        "active_tokens": m["active_tokens"]["after"]})


def _summary(result: Any, parent: str) -> dict[str, Any]:
    """What --json prints: ids, sizes before and after, and per-stage counts."""
    stages = result.metrics["stages"]
    return {"bank": result.bank.id, "parent": parent, "strategy": result.metrics["strategy"],
            "config_hash": result.metrics["config_hash"],
            "active_memories": result.metrics["active_memories"],
            "active_tokens": result.metrics["active_tokens"], "stages": stages}


def _tasks(suite: str) -> list[Any]:
    """The suite's tasks that memory decides (certified, or not certified either way), as the
    nightly loop evaluates them."""
    from evals.tasks import load_tasks

    return [t for t in load_tasks(suite) if t.certified is not False]


def _evaluate(store: Any, tasks: list[Any], bank: Any, suite: str, budgets: str, agent: str,
              timeout: float, permutations: int, grades: dict[str, Any]) -> dict[str, Any]:
    """Success, lift over placebo and controls per budget, from the harness
    (``evals.suite.run_suite``); ``grades`` keeps one grade cache for every ablation."""
    import os

    from dreamer import settings
    from dreamer.sources import SourceTimes
    from evals.metrics import parse_budgets
    from evals.runner import GradeCache
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import resolve_suite

    config = SuiteConfig(suite=suite, agent=agent, budgets=tuple(parse_budgets(budgets)),
                         timeout_s=timeout, workers=os.cpu_count() or 1,
                         permutations=permutations)
    folder = settings.home() / "runs" / f"ablate-{bank.id}"
    where = resolve_suite(suite)
    times = SourceTimes(store, where if where.is_dir() else where.parent)
    cache = grades.setdefault("cache", GradeCache())
    result = run_suite(tasks, bank, config, Path(folder), source_times=times, cache=cache)
    summary = result.summary()
    return {"success": {k: r.rate for k, r in result.success.items()}, "auc": result.auc,
            "lift": {k: summary["lift"][k] for k in summary["lift"]},
            "controls": summary["controls"], "chance": result.chance,
            "leaks": sum(n for by in summary["leaks"].values() for n in by.values()),
            "resolved": summary["resolved"]}


def _mark_changes(rows: list[dict[str, Any]]) -> None:
    """For each ablation, what differs from ``default``: the bank, tokens, the curve area."""
    base = next((r for r in rows if r["strategy"] == "default"), None)
    if base is None:
        return
    for row in rows:
        row["same_bank_as_default"] = row["bank"] == base["bank"]
        row["tokens_vs_default"] = row["active_tokens"]["after"] - base["active_tokens"]["after"]
        if "auc" in row and "auc" in base:
            row["auc_vs_default"] = round(row["auc"] - base["auc"], 4)


def _show_ablation(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table

    labels = list(rows[0].get("success", {})) if rows else []
    lifted = [k for k in labels if any(k in r.get("lift", {}) for r in rows)]
    table = Table("strategy", "active", "tokens", "Δtok vs default", *labels,
                  *(f"lift@{k} [95% CI] p" for k in lifted), "area", "Δarea",
                  "same bank as default", title="ablations: success, and lift over placebo")
    for r in rows:
        lifts = []
        for k in lifted:
            lift = r.get("lift", {}).get(k)
            lifts.append(f"{lift['lift']:+.2f} [{lift['low']:+.2f},{lift['high']:+.2f}] "
                         f"p={lift['p_value']:.2g}" if lift else "-")
        table.add_row(
            esc(r["strategy"]), str(r["active_memories"]["after"]), str(r["active_tokens"]["after"]),
            str(r.get("tokens_vs_default", "")),
            *(f"{r['success'][k]:.2f}" for k in labels), *lifts,
            f"{r['auc']:.3f}" if "auc" in r else "-", str(r.get("auc_vs_default", "-")),
            "yes" if r.get("same_bank_as_default") else "no",
        )
    out = console()
    out.print(table)
    first = next((r for r in rows if "controls" in r), None)
    if first is not None:
        out.print("controls: " + ", ".join(f"{arm.replace('_', ' ')} {rate:.2f}"
                                           for arm, rate in first["controls"].items())
                  + f", chance 1/k {first['chance']:.2f}", highlight=False)
    leaking = [r["strategy"] for r in rows if r.get("leaks")]
    if leaking:
        out.print("[yellow]leaking cells (counted unresolved)[/yellow]: "
                  + ", ".join(f"{r['strategy']} {r['leaks']}" for r in rows if r.get("leaks")))


def _show_trace(report: dict[str, Any]) -> None:
    out = console()
    out.print(f"[bold]{report['before']}[/bold] -> [bold]{report['after']}[/bold]  "
              + ", ".join(f"{k}: {v}" for k, v in sorted(report["counts"].items())),
              highlight=False)
    for row in report["inputs"]:
        where = f" -> {row['into']} ({row['stage']})" if row.get("into") else ""
        commit = f", changed in {row['changed_in']}" if row.get("changed_in") else ""
        out.print(f"  {row['fate']:<10} {row['memory']}{esc(where)}{esc(commit)}  "
                  f"{esc(row['summary'][:70])}",
                  highlight=False)
        if row.get("reason"):
            out.print(f"             why: {esc(row['reason'])}", highlight=False)
    for row in report["outputs"]:
        out.print(f"  new \\[{esc(row['stage'])}] {row['memory']} <- {', '.join(row['inputs'])}",
                  highlight=False)
        out.print(f"             {esc(row['summary'][:100])}", highlight=False)
