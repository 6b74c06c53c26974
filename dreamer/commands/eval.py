"""``dreamer eval``: score a bank on a suite of replay tasks at several memory budgets."""

import os
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
    print_json,
)

_BUDGETS = "0,256,512,1024,2048,4096,all"
_MARK = {"resolved": "[green]✓[/green]", "unresolved": "[red]✗[/red]",
         "infra_error": "[yellow]![/yellow]"}


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_(
        suite: Annotated[str, typer.Option(help="Suite name (see evals.tasks) or path.")],
        bank: Annotated[str | None, typer.Option(
            help="Bank id, id prefix, alias, or a bank JSON file; omit for no bank.")] = None,
        agent: Annotated[str, typer.Option(
            help="selector, embedding or llm (controls: none, largest, random, oracle).")] = "selector",
        budgets: Annotated[str, typer.Option(help="Token budgets; 'all' = no limit.")] = _BUDGETS,
        lm: Annotated[str | None, typer.Option(
            "--lm", help="litellm model for --agent llm.")] = None,
        lm_base_url: Annotated[str | None, typer.Option(help=LM_BASE_URL_HELP)] = None,
        lm_api_key_env: Annotated[str | None, typer.Option(help=LM_KEY_ENV_HELP)] = None,
        lm_max_failures: Annotated[float, typer.Option(help=LM_MAX_FAILURES_HELP)] = 0.05,
        option: Annotated[list[str] | None, typer.Option(
            "-A", "--agent-option", help="Agent option KEY=VALUE (repeatable).")] = None,
        compare: Annotated[str | None, typer.Option(
            help="A second bank to compare on the same tasks (McNemar).")] = None,
        repo: Annotated[str | None, typer.Option(
            help="Run this repository's tasks only (and resolve bank aliases in it).")] = None,
        split: Annotated[str | None, typer.Option(help="Split of a Hugging Face suite.")] = None,
        repos_dir: Annotated[Path | None, typer.Option(
            help="Mirrors of SWE-bench rows' repositories (default $DREAMER_REPOS_DIR).")] = None,
        timeout: Annotated[float, typer.Option(help="Seconds per test run.")] = 300.0,
        workers: Annotated[int | None, typer.Option(
            help="Parallel attempts (default: cores).")] = None,
        controls: Annotated[bool, typer.Option(
            help="Run the placebo arms and the controls (no memory, smallest, largest, random, "
                 "oracle).")] = True,
        permutations: Annotated[int, typer.Option(
            help="Relabellings of candidate ids per attempt (K).")] = 3,
        seed: Annotated[int, typer.Option(help="Seed of relabellings and draws.")] = 0,
        run_dir: Annotated[Path | None, typer.Option(help="Where artifacts go.")] = None,
        track: Annotated[bool, typer.Option(help="Record the run in MLflow.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    ) -> None:
        """Run every task of SUITE at every budget with BANK's packs; print, plot and track."""
        from dreamer.errors import LM_EXIT_CODE, DreamerError, LMRunError

        lm_settings = {"base_url": lm_base_url, "api_key_env": lm_api_key_env,
                       "max_failures": lm_max_failures}
        try:
            _run(suite, bank, agent, budgets, lm, option or [], compare, repo, split, timeout,
                 workers, controls, permutations, seed, run_dir, track, as_json, repos_dir,
                 lm_settings)
        except LMRunError as exc:
            fail(str(exc), code=LM_EXIT_CODE)
        except (DreamerError, ValueError) as exc:
            fail(str(exc), code=2)


def _run(suite: str, bank_ref: str | None, agent: str, budgets: str, lm: str | None,
         options: list[str], compare_ref: str | None, repo: str | None, split: str | None,
         timeout: float, workers: int | None, controls: bool, permutations: int, seed: int,
         run_dir: Path | None, track: bool, as_json: bool, repos_dir: Path | None = None,
         lm_settings: dict[str, Any] | None = None) -> None:
    from datetime import UTC, datetime

    from dreamer import settings
    from evals.metrics import parse_budgets
    from evals.plot import plot_suite
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import load_tasks

    tasks = load_tasks(suite, split=split, repos_dir=repos_dir)
    if not tasks:
        fail(f"suite {suite!r} holds no tasks")
    if repo is not None:
        known = sorted({t.repo for t in tasks})
        tasks = [t for t in tasks if t.repo == repo]
        if not tasks:
            fail(f"suite {suite!r} holds no task of {repo!r}; its repositories: "
                 f"{', '.join(known)}", code=2)
    repos = {t.repo for t in tasks}
    alias_repo = repo or (next(iter(repos)) if len(repos) == 1 else None)
    agent_options: dict[str, Any] = dict(_option(o) for o in options)
    if lm:
        agent_options["model"] = lm
    config = SuiteConfig(suite=suite, agent=agent, agent_options=agent_options,
                         budgets=tuple(parse_budgets(budgets)), timeout_s=timeout,
                         workers=workers or os.cpu_count() or 1, controls=controls,
                         permutations=permutations, seed=seed)
    the_bank = _bank(bank_ref, alias_repo) if bank_ref else None
    other = _bank(compare_ref, alias_repo) if compare_ref else None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = run_dir or settings.home() / "runs" / f"eval-{stamp}-{os.getpid()}"
    pool, times = _placebo_pool_and_times(suite, repos, bank_ref)
    worker = _llm_agent(agent_options, lm_settings or {}) if agent == "llm" else None
    result = run_suite(tasks, the_bank, config, folder, compare=other, placebo_pool=pool,
                       source_times=times, agent=worker)
    if worker is not None:
        summary_usage = worker.usage.as_dict()
        worker.usage.check(f"the evaluation with --agent llm on {suite}")
    folder.mkdir(parents=True, exist_ok=True)
    result.table.to_csv(folder / "results.csv", index=False)
    plot = plot_suite(result, folder / "success_vs_tokens.png")
    summary = result.summary()
    summary["plot"] = str(plot)
    if worker is not None:
        summary["lm_usage"] = summary_usage
    if track:
        from evals.tracking import log_suite

        summary["mlflow_run_id"] = log_suite(result, plot, lm_usage=summary.get("lm_usage"))
    if as_json:
        print_json(summary)
    else:
        _show(result, summary)


def _placebo_pool_and_times(suite: str, repos: set[str], bank_ref: str | None
                            ) -> tuple[list[Any], Any]:
    """Other repositories' memories for the other-repository placebo (the store's extraction
    banks), and when every cited source ended (the store's sessions, the suite's folder), for
    the leak check. Without a store yet, only the suite's folder."""
    from dreamer import settings
    from dreamer.sources import SourceTimes
    from dreamer.store import open_store
    from evals.suite import suite_times
    from evals.tasks import resolve_suite

    if not bank_ref and not (settings.home() / "dreamer.db").exists() \
            and "DREAMER_DATABASE_URL" not in os.environ:
        return [], None
    store = open_store()
    pool: list[Any] = []
    for repo, name, bank_id, _ in store.banks.aliases():
        if name == "extraction" and repo != "*":
            pool.extend(store.banks.get(bank_id).memories)
    try:
        path = resolve_suite(suite)
        folder = path if path.is_dir() else path.parent
    except Exception:
        return pool, suite_times(suite)
    return pool, SourceTimes(store, folder)


def _llm_agent(options: dict[str, Any], lm_settings: dict[str, Any]) -> Any:
    """The ``llm`` agent with its LM built by ``dreamer.lm.make_lm`` and tried once (exits 4
    when the model is unreachable); its ``usage`` counts every call and failure."""
    from dreamer.commands.common import open_lm
    from dreamer.lm import usage_for
    from evals.agents.base import make_agent
    from evals.agents.llm import LlmAgent, LlmConfig

    max_failures = lm_settings.get("max_failures", 0.05)
    for key in ("base_url", "api_key_env"):
        if lm_settings.get(key) is not None:
            options[key] = lm_settings[key]
    agent = make_agent("llm", options)
    assert isinstance(agent, LlmAgent) and isinstance(agent.config, LlmConfig)
    cfg = agent.config
    lm, _ = open_lm({"model": cfg.model, "base_url": cfg.base_url,
                     "api_key_env": cfg.api_key_env, "temperature": cfg.temperature,
                     "max_tokens": cfg.max_tokens, "cache": cfg.cache})
    agent.use(lm, usage_for(lm, max_failures))
    return agent


def _option(text: str) -> tuple[str, Any]:
    import json

    key, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"agent option {text!r} is not KEY=VALUE")
    try:
        return key.strip(), json.loads(value)
    except ValueError:
        return key.strip(), value


def _bank(ref: str, repo: str | None):  # type: ignore[no-untyped-def]
    from dreamer.commands.common import store_or_exit
    from dreamer.errors import NotFoundError
    from evals.bankfile import load_bank_file

    if Path(ref).is_file():
        return load_bank_file(Path(ref))
    banks = store_or_exit().banks
    try:
        return banks.resolve(ref, repo)
    except NotFoundError:
        if repo is None:
            raise
        return banks.resolve(ref, None)


def _show(result, summary: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    from rich.table import Table

    frame = result.table
    labels = list(result.success)
    k = result.config.permutations
    table = Table(title=f"{summary['suite']} · agent {summary['agent']} · bank "
                        f"{summary['bank'] or 'none'} · resolved of {k} relabellings")
    table.add_column("task")
    for label in labels:
        table.add_column(label, justify="center")
    controls = list(result.controls)
    for arm in controls:
        table.add_column(arm.replace("_", " "), justify="center")
    for instance, rows in frame.groupby("instance_id", sort=True):
        cells = []
        for label in labels:
            hit = rows[(rows["arm"] == "bank") & (rows["budget"] == label)]
            cells.append(_cell(hit))
        for arm in controls:
            cells.append(_cell(rows[rows["arm"] == arm]))
        table.add_row(esc(instance), *cells)
    table.add_row("[bold]success[/bold]", *(f"{r.rate:.0%}" for r in result.success.values()),
                  *(f"{r.rate:.0%}" for r in result.controls.values()))
    out = console()
    out.print(table)
    for label, rate in result.success.items():
        lift = result.lifts.get(label)
        said = (f" · lift {lift.lift:+.2f} over {lift.against} (95% CI {lift.low:+.2f} to "
                f"{lift.high:+.2f}, sign test p={lift.p_value:.3g})" if lift else "")
        out.print(f"  budget {label:>5}: {rate.rate:.0%} (95% CI {rate.low:.0%}–{rate.high:.0%}; "
                  f"relabellings {rate.spread_low:.0%}–{rate.spread_high:.0%}){said}",
                  highlight=False)
    out.print(f"chance (1/k) {result.chance:.0%} · area under curve {summary['auc']:.3f} · bank "
              f"{summary['bank_tokens']} tokens · {summary['tasks']} tasks, "
              f"{summary['attempts']} attempts · infra errors {summary['infra_errors']}",
              highlight=False)
    for what in ("leaks", "ties"):
        if summary[what]:
            out.print(f"  {what}: " + "; ".join(
                f"{arm} " + ", ".join(f"{b}: {n}" for b, n in by.items())
                for arm, by in summary[what].items()), highlight=False)
    excluded = summary["excluded_as_of"]
    if excluded.get("untimed"):
        out.print(f"  [yellow]![/yellow] {excluded['untimed']} memory showings left out: the "
                  "memory has no time, so it cannot be shown to predate the task")
    infra = frame[frame["status"] == "infra_error"]
    for _, row in infra.drop_duplicates(["instance_id", "reason"]).iterrows():
        out.print(f"  [yellow]![/yellow] {esc(row['instance_id'])}: {esc(row['reason'])}")
    for label, test in summary["comparison"].items():
        out.print(f"  vs the compared bank at {label}: {test['wins']} wins, {test['losses']} "
                  f"losses, lift {test['lift']:+.2f}, sign test p={test['p_value']:.3g}",
                  highlight=False)
    out.print(f"plot {esc(summary['plot'])} · artifacts {esc(summary['run_dir'])} · wall "
              f"{summary['wall_s']:.1f}s (tests {summary['test_time_s']:.1f}s)"
              + (f" · mlflow run {summary['mlflow_run_id']}" if "mlflow_run_id" in summary else ""),
              highlight=False)


def _cell(rows: Any) -> str:
    if not len(rows):
        return ""
    if (rows["status"] == "infra_error").all():
        return _MARK["infra_error"]
    hits = int(rows["resolved"].sum())
    colour = "green" if hits == len(rows) else "red" if hits == 0 else "yellow"
    return f"[{colour}]{hits}/{len(rows)}[/{colour}]"
