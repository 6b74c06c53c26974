"""``dreamer corpus``: build the replay benchmark corpus, summarise it, check it for leaks."""

import json
from pathlib import Path
from typing import Annotated

import typer

from dreamer.commands.common import Group


def register(app: typer.Typer) -> None:
    corpus = typer.Typer(help="The replay benchmark corpus: tasks, sessions, repositories.",
                         no_args_is_help=True, cls=Group)
    app.add_typer(corpus, name="corpus")

    @corpus.command("build")
    def build(
        out: Annotated[Path, typer.Option("--out", help="Folder to write.")] = Path(
            ".dreamer/corpus"),
        seed: Annotated[int, typer.Option("--seed", help="Seed of noise and random packs.")] = 0,
        family: Annotated[list[str] | None, typer.Option(
            "--family", help="Build only this family (repeat).")] = None,
        per_family: Annotated[int | None, typer.Option(
            "--per-family", help="Keep the first N tasks of each family.")] = None,
        certify: Annotated[bool, typer.Option(
            "--certify/--no-certify", help="Certify tasks through the harness.")] = True,
        workers: Annotated[int, typer.Option("--workers", help="Processes for test runs.")] = 2,
        bundles: Annotated[bool, typer.Option(
            "--bundles", help="Ship repositories as git bundles.")] = False,
    ) -> None:
        """Build the corpus (deterministic for a seed)."""
        from evals.corpus.build import build_corpus
        from evals.corpus.config import CorpusConfig

        report = build_corpus(CorpusConfig(
            out=out, seed=seed, families=tuple(family or ()), variants_per_family=per_family,
            certify=certify, workers=workers, bundles=bundles))
        m = report.manifest
        typer.echo(f"built {report.out} in {report.seconds:.0f}s: {len(m['families'])} families, "
                   f"{m['tasks']} tasks ({m['certified']} certified), {m['sessions']} sessions, "
                   f"{m['leaks']} leaks")

    @corpus.command("info")
    def info(
        path: Annotated[Path | None, typer.Argument(
            help="Corpus folder (default: .dreamer/corpus when built, else the sample).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Families, tasks, certified and uncertified counts, sessions, noise counts."""
        from evals.corpus.info import corpus_info, default_corpus

        summary = corpus_info(path or default_corpus())
        if as_json:
            typer.echo(json.dumps(summary, indent=1, sort_keys=True))
            return
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        console = Console()
        console.print(f"[bold]{escape(str(summary['path']))}[/]: {summary['families']} families over "
                      f"{len(summary['repos'])} repositories, {summary['tasks']} tasks "
                      f"({summary['certified']} certified, {summary['uncertified']} uncertified), "
                      f"{summary['sessions']} sessions, {summary['leaks']} leaks")
        table = Table("family", "repo", "tasks", "certified", "uncertified", "sessions")
        for name, row in summary["by_family"].items():
            table.add_row(escape(name), escape(row["repo"]), str(row["tasks"]), str(row["certified"]),
                          str(row["uncertified"]), str(row.get("sessions", 0)))
        console.print(table)
        console.print("noise: " + ", ".join(f"{k}={v}" for k, v in summary["noise"].items()))
        if summary["uncertified_tasks"]:
            console.print("uncertified (kept as no-regression checks): "
                          + escape(", ".join(summary["uncertified_tasks"])))

    @corpus.command("facts")
    def facts(
        path: Annotated[Path | None, typer.Argument(help="Corpus folder.")] = None,
        bank: Annotated[list[str] | None, typer.Option(
            "--bank", help="Bank alias (per repository) or id to check (repeatable; default "
                           "extraction and candidate).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Which of the corpus's hidden facts the store's banks carry: a memory naming at least
        half of the fact's identifiers and citing a session and code."""
        from dreamer.commands.common import store_or_exit
        from evals.corpus.info import default_corpus
        from evals.coverage import corpus_facts, coverage

        folder = path or default_corpus()
        hidden = corpus_facts(folder)
        store = store_or_exit()
        results: dict[str, list[dict[str, object]]] = {}
        for ref in bank or ["extraction", "candidate"]:
            rows: list[dict[str, object]] = []
            for repo in sorted({f.repo for f in hidden}):
                bank_id = store.banks.alias(ref, repo)
                if bank_id is None and not ref.startswith("bank_"):
                    memories: tuple = ()  # no such alias for this repository: nothing carried
                else:
                    found = store.banks.get(bank_id or ref)
                    memories = found.memories if found.repo in (repo, None) else ()
                rows += [c.to_json() for c in coverage([f for f in hidden if f.repo == repo],
                                                         memories)]
            results[ref] = rows
        if as_json:
            typer.echo(json.dumps(results, indent=1))
            return
        for ref, rows in results.items():
            carried = sum(1 for r in rows if r["carried"])
            typer.echo(f"{ref}: {carried} of {len(rows)} facts carried")
            for r in rows:
                named = ", ".join(r["named"]) or "-"  # type: ignore[arg-type]
                ids = r["identifiers"]
                typer.echo(f"  {'yes' if r['carried'] else 'no ':3} {r['family']:32} "
                           f"names {len(r['named'])}/{len(ids)}: {named}")  # type: ignore[arg-type]
                if r["changed_in"]:
                    commit = str(r["changed_in"])[:12]
                    typer.echo(f"      rule changed in {commit}: older memory superseded naming "
                               f"it: {'yes' if r['superseded_naming_commit'] else 'no'}; an "
                               f"active memory names it: {'yes' if r['commit_named'] else 'no'}")

    @corpus.command("check-leaks")
    def check_leaks(
        path: Annotated[Path | None, typer.Argument(help="Corpus folder.")] = None,
        bank: Annotated[list[str] | None, typer.Option(
            "--bank", help="Also check this bank's packs (id, prefix or alias; repeatable); "
                           "'stored' checks every bank alias of the store.")] = None,
        budget: Annotated[list[str] | None, typer.Option(
            "--budget", help="Budgets to pack banks at (repeatable; default 256, 1024, all).")
        ] = None,
    ) -> None:
        """Check every task's oracle pack, and the packs banks would hand out, for memories from
        later than the task or carrying its fix: the harness's own leak check."""
        from evals.corpus.audit import audit_banks, audit_corpus
        from evals.corpus.info import default_corpus
        from evals.metrics import parse_budgets

        folder = path or default_corpus()
        findings = [("oracle", f) for f in audit_corpus(folder)]
        if bank:
            budgets = parse_budgets(",".join(budget or ["256", "1024", "all"]))
            findings += audit_banks(folder, bank, budgets)
        for where, finding in findings:
            typer.echo(f"LEAK {finding.task} [{where}] [{finding.rule}] {finding.detail}")
        checked = "the oracle packs" + (f" and {len(bank)} bank reference(s)" if bank else "")
        typer.echo(f"{len(findings)} leaks in {checked}")
        raise typer.Exit(1 if findings else 0)
