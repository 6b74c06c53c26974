"""Commands that move the production bank: promote and rollback."""

from typing import Annotated

import typer

from dreamer.commands.common import console, esc, fail, print_json, store_or_exit


def register(app: typer.Typer) -> None:
    @app.command()
    def promote(
        candidate: Annotated[str, typer.Argument(help="Bank id, unique prefix, or alias (e.g. candidate).")],
        repo: Annotated[str | None, typer.Option(help="Repository; default: the bank's own.")] = None,
        force: Annotated[bool, typer.Option(help="Promote without a passing gate decision.")] = False,
        reason: Annotated[str, typer.Option(help="Why (required with --force).")] = "",
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Make CANDIDATE the production bank, in the store and the MLflow registry.

        Without --force, the latest gate decision recorded for this candidate against the
        current production bank must have passed (`dreamer nightly` records them).
        """
        from dreamer.errors import DreamerError
        from dreamer.promotion import latest_decision
        from dreamer.promotion import promote as do_promote

        store = store_or_exit()
        try:
            bank = store.banks.resolve(candidate, repo)
            target = repo or bank.repo
            if target is None:
                fail(f"bank {bank.id} serves no single repository; pass --repo", code=2)
            decision = None if force else latest_decision(store, target, bank.id)
            result = do_promote(store, target, bank.id, decision, force=force, reason=reason,
                                actor="cli")
        except DreamerError as exc:
            fail(str(exc))
        _report(result, as_json, "promoted")

    @app.command()
    def rollback(
        repo: Annotated[str | None, typer.Option(help="Repository whose production bank to roll back.")] = None,
        reason: Annotated[str, typer.Option(help="Why.")] = "rollback",
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Point production back at the bank it pointed at before its latest move."""
        from dreamer.errors import DreamerError
        from dreamer.promotion import rollback as do_rollback

        store = store_or_exit()
        if repo is None:
            repos = sorted({r for r, name, _, _ in store.banks.aliases() if name == "production"})
            if len(repos) != 1:
                fail(f"pass --repo; production banks exist for: {', '.join(repos) or 'none'}", code=2)
            repo = repos[0]
        try:
            result = do_rollback(store, repo, reason=reason)
        except DreamerError as exc:
            fail(str(exc))
        _report(result, as_json, "rolled back")


def _report(result, as_json: bool, verb: str) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import asdict

    if as_json:
        print_json(asdict(result))
        return
    console().print(
        f"{verb}: production of [bold]{esc(result.repo)}[/bold] is now {result.production} "
        f"(was {result.previous}); MLflow model {result.model_name} version {result.model_version}"
    )
