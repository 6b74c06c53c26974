"""``dreamer eval``: score a bank on a suite of replay tasks at several memory budgets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dreamer.commands.common import console, esc, fail, print_json

_BUDGETS = "0,256,512,1024,2048,4096,all"
_MARK = {"resolved": "[green]✓[/green]", "unresolved": "[red]✗[/red]",
         "infra_error": "[yellow]![/yellow]"}


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_(
        suite: Annotated[str, typer.Option(help="Suite name (see evals.tasks) or path.")],
        bank: Annotated[str | None, typer.Option(
            help="Bank id, id prefix, alias, or a bank JSON file; omit for no bank.")] = None,
        agent: Annotated[str, typer.Option(help="none, selector, oracle or llm.")] = "selector",
        budgets: Annotated[str, typer.Option(help="Token budgets; 'all' = no limit.")] = _BUDGETS,
        lm: Annotated[str | None, typer.Option(
            "--lm", help="litellm model for --agent llm.")] = None,
        option: Annotated[list[str] | None, typer.Option(
            "-A", "--agent-option", help="Agent option KEY=VALUE (repeatable).")] = None,
        compare: Annotated[str | None, typer.Option(
            help="A second bank to compare on the same tasks (McNemar).")] = None,
        repo: Annotated[str | None, typer.Option(help="Repository of the bank aliases.")] = None,
        split: Annotated[str | None, typer.Option(help="Split of a Hugging Face suite.")] = None,
        timeout: Annotated[float, typer.Option(help="Seconds per test run.")] = 300.0,
        workers: Annotated[int | None, typer.Option(
            help="Parallel attempts (default: cores).")] = None,
        baselines: Annotated[bool, typer.Option(help="Run no-memory and oracle arms.")] = True,
        run_dir: Annotated[Path | None, typer.Option(help="Where artifacts go.")] = None,
        track: Annotated[bool, typer.Option(help="Record the run in MLflow.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    ) -> None:
        """Run every task of SUITE at every budget with BANK's packs; print, plot and track."""
        from dreamer.errors import DreamerError

        try:
            _run(suite, bank, agent, budgets, lm, option or [], compare, repo, split, timeout,
                 workers, baselines, run_dir, track, as_json)
        except (DreamerError, ValueError) as exc:
            fail(str(exc), code=2)


def _run(suite: str, bank_ref: str | None, agent: str, budgets: str, lm: str | None,
         options: list[str], compare_ref: str | None, repo: str | None, split: str | None,
         timeout: float, workers: int | None, baselines: bool, run_dir: Path | None, track: bool,
         as_json: bool) -> None:
    import os
    from datetime import UTC, datetime

    from dreamer import settings
    from evals.metrics import parse_budgets
    from evals.plot import plot_suite
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import load_tasks

    tasks = load_tasks(suite, split=split)
    if not tasks:
        fail(f"suite {suite!r} holds no tasks")
    repos = {t.repo for t in tasks}
    alias_repo = repo or (next(iter(repos)) if len(repos) == 1 else None)
    agent_options: dict[str, Any] = dict(_option(o) for o in options)
    if lm:
        agent_options["model"] = lm
    config = SuiteConfig(suite=suite, agent=agent, agent_options=agent_options,
                         budgets=tuple(parse_budgets(budgets)), timeout_s=timeout,
                         workers=workers or os.cpu_count() or 1, baselines=baselines)
    the_bank = _bank(bank_ref, alias_repo) if bank_ref else None
    other = _bank(compare_ref, alias_repo) if compare_ref else None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = run_dir or settings.home() / "runs" / f"eval-{stamp}-{os.getpid()}"
    result = run_suite(tasks, the_bank, config, folder, compare=other)
    folder.mkdir(parents=True, exist_ok=True)
    result.table.to_csv(folder / "results.csv", index=False)
    plot = plot_suite(result, folder / "success_vs_tokens.png")
    summary = result.summary()
    summary["plot"] = str(plot)
    if track:
        from evals.tracking import log_suite

        summary["mlflow_run_id"] = log_suite(result, plot)
    if as_json:
        print_json(summary)
    else:
        _show(result, summary)


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
    table = Table(title=f"{summary['suite']} · agent {summary['agent']} · bank "
                        f"{summary['bank'] or 'none'}")
    table.add_column("task")
    for label in labels:
        table.add_column(label, justify="center")
    for arm in ("no_memory", "oracle"):
        if arm in result.baselines:
            table.add_column(arm.replace("_", " "), justify="center")
    for instance, rows in frame.groupby("instance_id", sort=True):
        cells = []
        for label in labels:
            hit = rows[(rows["arm"] == "bank") & (rows["budget"] == label)]
            cells.append(_MARK[hit["status"].iloc[0]] if len(hit) else "")
        for arm in ("no_memory", "oracle"):
            if arm in result.baselines:
                hit = rows[rows["arm"] == arm]
                cells.append(_MARK[hit["status"].iloc[0]] if len(hit) else "")
        table.add_row(esc(instance), *cells)
    rates = [f"{r.rate:.0%}" for r in result.success.values()]
    table.add_row("[bold]success[/bold]", *rates,
                  *(f"{r.rate:.0%}" for r in result.baselines.values()))
    out = console()
    out.print(table)
    for label, rate in result.success.items():
        out.print(f"  budget {label:>5}: {rate.successes}/{rate.trials} = {rate.rate:.0%} "
                  f"(95% CI {rate.low:.0%}–{rate.high:.0%})", highlight=False)
    out.print(f"area under curve {summary['auc']:.3f} · bank {summary['bank_tokens']} tokens · "
              f"resolved {summary['resolved']} · unresolved {summary['unresolved']} · "
              f"infra errors {summary['infra_errors']}", highlight=False)
    infra = frame[frame["status"] == "infra_error"]
    for _, row in infra.drop_duplicates(["instance_id", "reason"]).iterrows():
        out.print(f"  [yellow]![/yellow] {esc(row['instance_id'])}: {esc(row['reason'])}")
    for label, test in summary["comparison"].items():
        if label != "bank":
            out.print(f"  vs {summary['comparison']['bank']} at {label}: only this "
                      f"{test['only_first']}, only that {test['only_second']}, "
                      f"McNemar p={test['p_value']:.3g}", highlight=False)
    out.print(f"plot {esc(summary['plot'])} · artifacts {esc(summary['run_dir'])} · wall "
              f"{summary['wall_s']:.1f}s (tests {summary['test_time_s']:.1f}s)"
              + (f" · mlflow run {summary['mlflow_run_id']}" if "mlflow_run_id" in summary else ""),
              highlight=False)
