"""``dreamer swebench``: real SWE-bench rows without Docker: build environments, validate."""

from pathlib import Path
from typing import Annotated, Any

import typer

from dreamer.commands.common import Group, console, fail, print_json

app = typer.Typer(help="Real SWE-bench rows: environments from swebench's specs, gold validation.",
                  no_args_is_help=True, cls=Group)

_SUITE = typer.Option(help="Suite of SWE-bench rows: .parquet/.jsonl/.json, a folder or hf:NAME.")
_REPOS = typer.Option(help="Folder of mirrors: <instance_id>.tar.gz, owner__name.git, "
                           "owner__name.bundle (default $DREAMER_REPOS_DIR).")
_INSTANCES = typer.Option(help="Only these instance ids (comma-separated or repeated).")
_MARK = {"resolved": "[green]resolved[/green]", "unresolved": "[red]unresolved[/red]",
         "infra_error": "[yellow]infra error[/yellow]"}


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="swebench")


@app.command("envs")
def envs(
    suite: Annotated[str, _SUITE],
    repos_dir: Annotated[Path | None, _REPOS] = None,
    instances: Annotated[list[str] | None, _INSTANCES] = None,
    split: Annotated[str | None, typer.Option(help="Split of a Hugging Face suite.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcomes as JSON.")] = False,
) -> None:
    """Build the isolated environment of every row's (repository, version) spec, once each;
    exit 1 when any row's environment could not be built (each says why)."""
    from evals.swebench.validate import build_envs

    tasks = _tasks(suite, repos_dir, instances, split)
    with _progress(len(tasks), "environments") as step:
        outcomes = build_envs(tasks, step)
    failed = any(o.state == "failed" for o in outcomes)
    if as_json:
        print_json([o.__dict__ for o in outcomes])
        raise typer.Exit(1 if failed else 0)
    from rich.table import Table

    table = Table(title=f"environments of {suite}")
    for column in ("instance", "python", "environment", "state", "seconds"):
        table.add_column(column)
    for o in outcomes:
        state = o.state if o.state != "failed" else f"[yellow]failed[/yellow]: {o.reason}"
        table.add_row(o.instance_id, o.python, o.key, state, f"{o.seconds:.0f}")
    console().print(table)
    if failed:
        raise typer.Exit(1)


@app.command("validate")
def validate(
    suite: Annotated[str, _SUITE],
    repos_dir: Annotated[Path | None, _REPOS] = None,
    instances: Annotated[list[str] | None, _INSTANCES] = None,
    split: Annotated[str | None, typer.Option(help="Split of a Hugging Face suite.")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per test run.")] = 900.0,
    run_dir: Annotated[Path | None, typer.Option(help="Where report.json files go.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """Grade each row's gold patch and the empty patch; print which rows the harness can judge."""
    import os
    from datetime import UTC, datetime

    from dreamer import settings
    from evals.swebench.validate import validate as run_validation

    tasks = _tasks(suite, repos_dir, instances, split)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = run_dir or settings.home() / "runs" / f"swebench-validate-{stamp}-{os.getpid()}"
    with _progress(len(tasks), "rows") as step:
        rows = run_validation(tasks, folder, timeout=timeout, on_step=step)
    if as_json:
        print_json({"run_dir": str(folder), "rows": [r.model_dump() | {"judged": r.judged}
                                                      for r in rows]})
        return
    _show(rows, folder)


@app.command("run")
def run(
    suite: Annotated[str, _SUITE],
    repos_dir: Annotated[Path | None, _REPOS] = None,
    repo: Annotated[str | None, typer.Option(help="The repository whose rows run (default: "
                                                  "the suite's only one).")] = None,
    bank: Annotated[str | None, typer.Option(
        help="Bank id, alias or bank JSON file whose memories may be drawn on.")] = None,
    agent: Annotated[str, typer.Option(help="llm (writes the patch), selector, none, oracle.")]
    = "llm",
    lm: Annotated[str | None, typer.Option("--lm", help="litellm model for --agent llm.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "-A", "--agent-option", help="Agent option KEY=VALUE (repeatable).")] = None,
    budget: Annotated[str, typer.Option(help="Pack token budget; 'all' = no limit.")] = "1024",
    instances: Annotated[list[str] | None, _INSTANCES] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per test run.")] = 900.0,
    run_dir: Annotated[Path | None, typer.Option(help="Where artifacts go.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """Run one repository's rows in time order, each row's pack drawn only from memories of
    sessions of earlier rows (SWE-Bench-CL style)."""
    import os
    from datetime import UTC, datetime

    from dreamer import settings
    from dreamer.commands.common import store_or_exit
    from dreamer.commands.eval import _option
    from dreamer.errors import DreamerError
    from dreamer.models import Bank
    from evals.agents.base import make_agent
    from evals.metrics import parse_budgets
    from evals.swebench.ordered import in_time_order, run_in_order

    try:
        rows = in_time_order(_tasks(suite, repos_dir, instances, None), repo)
        budgets = parse_budgets(budget)
        if len(budgets) != 1:
            raise ValueError(f"--budget takes one budget, not {budget!r}")
        the_budget = budgets[0]
        options: dict[str, Any] = dict(_option(o) for o in option or [])
        if lm:
            options["model"] = lm
        worker = make_agent(agent, options)
        store = store_or_exit()
        memories = _bank(store, bank, rows[0].repo) if bank else Bank(repo=rows[0].repo)
        sessions = store.evidence.sessions(repo=rows[0].repo)
    except (DreamerError, ValueError) as exc:
        fail(str(exc), code=2)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = run_dir or settings.home() / "runs" / f"swebench-ordered-{stamp}-{os.getpid()}"
    with _progress(len(rows), "rows") as step:
        done = run_in_order(rows, memories, sessions, worker, agent, folder, the_budget, timeout,
                            on_row=lambda r: step(r.instance_id, r.status))
    if as_json:
        print_json({"run_dir": str(folder), "rows": [r.model_dump(mode="json") for r in done]})
        return
    from rich.table import Table

    table = Table(title=f"{rows[0].repo} in time order · agent {agent} · budget {budget}")
    for column in ("#", "instance", "created", "earlier sessions", "pack", "status", "reason"):
        table.add_column(column)
    for r in done:
        created = r.created_at.date().isoformat() if r.created_at else ""
        table.add_row(str(r.position), r.instance_id, created, str(r.earlier_sessions),
                      f"{r.pack_memories} mem / {r.pack_tokens} tok", _MARK[r.status],
                      r.note or r.reason)
    console().print(table)
    resolved = sum(r.status == "resolved" for r in done)
    console().print(f"resolved {resolved}/{len(done)} · artifacts {folder}", highlight=False)


def _bank(store: Any, ref: str, repo: str) -> Any:
    from evals.bankfile import load_bank_file

    if Path(ref).is_file():
        return load_bank_file(Path(ref))
    return store.banks.resolve(ref, repo)


def _show(rows: list[Any], folder: Path) -> None:
    from rich.table import Table

    table = Table(title="SWE-bench gold validation")
    for column in ("instance", "version", "env", "gold", "empty", "wall s", "reason"):
        table.add_column(column)
    for r in rows:
        table.add_row(r.instance_id, r.version, r.env, _MARK[r.gold], _MARK[r.empty],
                      f"{r.wall_s:.0f}", r.reason)
    out = console()
    out.print(table)
    judged = sum(r.judged for r in rows)
    out.print(f"{judged}/{len(rows)} rows judged (gold resolved, empty not) · reports under "
              f"{folder}", highlight=False)
    for r in rows:
        if not r.judged:
            out.print(f"  [yellow]cannot judge[/yellow] {r.instance_id}: {r.reason}")


def _tasks(suite: str, repos_dir: Path | None, instances: list[str] | None,
           split: str | None) -> list[Any]:
    from dreamer.errors import DreamerError
    from evals.tasks import load_tasks

    try:
        tasks = load_tasks(suite, split=split, repos_dir=repos_dir)
    except DreamerError as exc:
        fail(str(exc), code=2)
    wanted = [i.strip() for item in instances or [] for i in item.split(",") if i.strip()]
    if wanted:
        known = {t.instance_id for t in tasks}
        unknown = [i for i in wanted if i not in known]
        if unknown:
            fail(f"{suite} holds no instance {', '.join(unknown)}", code=2)
        tasks = [t for t in tasks if t.instance_id in wanted]
    if not tasks:
        fail(f"suite {suite!r} holds no tasks", code=2)
    return tasks


class _progress:
    """A progress bar over rows whose description follows the current row's step."""

    def __init__(self, total: int, what: str) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self._bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=console(stderr=True), transient=False)
        self._task = self._bar.add_task(what, total=total)
        self._seen: set[str] = set()
        self._what = what

    def __enter__(self):  # type: ignore[no-untyped-def]
        self._bar.start()
        return self.step

    def __exit__(self, *exc: object) -> None:
        self._bar.update(self._task, completed=len(self._seen))
        self._bar.stop()

    def step(self, instance_id: str, step: str) -> None:
        if step == "gold" and self._what != "grading":  # environments done: grade the rows
            self._what, self._seen = "grading", set()
        if instance_id not in self._seen:
            self._bar.update(self._task, completed=len(self._seen))
            self._seen.add(instance_id)
        self._bar.update(self._task, description=f"{self._what}: {instance_id} · {step}")
