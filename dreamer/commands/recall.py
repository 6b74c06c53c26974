"""Commands of the router: recall, feedback, mcp."""

from pathlib import Path
from typing import Annotated

import typer

from dreamer.commands.common import console, esc, fail, print_json, store_or_exit

Repo = Annotated[str, typer.Option("--repo", help="Repository the query is for (owner/name).")]
BankRef = Annotated[
    str | None,
    typer.Option("--bank", help="Bank alias or id (default: the repository's production alias)."),
]


def register(app: typer.Typer) -> None:
    @app.command()
    def recall(
        query: Annotated[str, typer.Argument(help="What the agent is about to do.")],
        repo: Repo,
        branch: Annotated[str | None, typer.Option(help="Branch of the task.")] = None,
        module: Annotated[str | None, typer.Option(help="Module or path prefix.")] = None,
        phase: Annotated[str | None, typer.Option(help="Task phase: explore, edit, test.")] = None,
        budget: Annotated[int | None, typer.Option(help="Token budget (default: none).")] = None,
        checkout: Annotated[
            Path | None,
            typer.Option(help="Working copy to verify citations against.", exists=True,
                         file_okay=False),
        ] = None,
        bank: BankRef = None,
        embeddings: Annotated[
            bool, typer.Option("--embeddings/--no-embeddings", help="Run the vector leg.")
        ] = True,
        task: Annotated[str | None, typer.Option(help="Task id to record with the recall.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Recall memories for QUERY: scoped, ranked, verified against --checkout, packed."""
        from dreamer.router import Router, RouterConfig, RouterError
        from dreamer.router.serving import BankResolver

        store = store_or_exit()
        config = RouterConfig.from_env()
        if not embeddings:
            config = config.model_copy(update={"embeddings": False})
        try:
            chosen = BankResolver(store).resolve(bank, repo)
            result = Router(config, store=store).recall(
                chosen, query, repo=repo, branch=branch, module=module, phase=phase,
                budget=budget, checkout=checkout, task_id=task,
            )
        except RouterError as exc:
            fail(str(exc))
        if as_json:
            print_json(result.to_json())
            return
        out = console()
        for note in result.notes:
            console(stderr=True).print(f"[yellow]note:[/yellow] {esc(note)}", highlight=False)
        if not result.pack.items:
            out.print(f"no memories for this query in {esc(repo)} (bank {result.bank_id})")
            return
        out.print(result.pack.text, highlight=False, markup=False)
        stale = sum(1 for i in result.pack.items if i.verification == "stale")
        console(stderr=True).print(
            f"{len(result.pack.items)} memories, {result.pack.tokens} tokens"
            f"{f' of {budget}' if budget is not None else ''}, bank {result.bank_id}"
            f"{f', {stale} UNVERIFIED' if stale else ''}", highlight=False,
        )

    @app.command()
    def feedback(
        memory_ids: Annotated[list[str], typer.Argument(help="Ids of the memories reported on.")],
        repo: Repo,
        helped: Annotated[
            bool, typer.Option("--helped/--hurt", help="Whether they helped or hurt the task.")
        ] = True,
        task: Annotated[str | None, typer.Option(help="The task they were used on.")] = None,
        bank: BankRef = None,
    ) -> None:
        """Report memories that helped (or, with --hurt, hurt) a task: feeds rerank and
        forgetting."""
        from dreamer.router import Router, RouterConfig, RouterError
        from dreamer.router.serving import BankResolver

        store = store_or_exit()
        try:
            bank_id = BankResolver(store).resolve(bank, repo).id if bank else None
            count = Router(RouterConfig(embeddings=False), store=store).feedback(
                memory_ids, "helped" if helped else "hurt", bank_id=bank_id, repo=repo,
                task_id=task, source="cli",
            )
        except RouterError as exc:
            fail(str(exc))
        console().print(f"recorded {count} {'helped' if helped else 'hurt'} report(s)")

    @app.command()
    def mcp(
        bank: BankRef = None,
        embeddings: Annotated[
            bool, typer.Option("--embeddings/--no-embeddings", help="Run the vector leg.")
        ] = True,
        checkout: Annotated[
            Path | None, typer.Option(help="Default working copy to verify citations against.")
        ] = None,
        warm: Annotated[bool, typer.Option(
            "--warm/--no-warm", help="Load the model and indexes at start-up, in the background "
            "(recalls meanwhile run without the vector leg), or at the first recall.")] = True,
    ) -> None:
        """Serve recall and feedback to agents over the Model Context Protocol (stdio)."""
        from dreamer.router import RouterConfig
        from dreamer.router.mcp_server import serve

        config = RouterConfig.from_env()
        if not embeddings:
            config = config.model_copy(update={"embeddings": False})
        serve(bank, config, str(checkout) if checkout else None, warm=warm)
