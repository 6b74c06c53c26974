"""Commands over bank versions and their aliases: banks, aliases, show bank."""

from typing import Annotated

import typer

from dreamer.commands.common import console, esc, fail, print_json, show_app, store_or_exit


def register(app: typer.Typer) -> None:
    @app.command()
    def banks(
        repo: Annotated[str | None, typer.Option(help="Only this repository's banks.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """List stored bank versions, oldest first."""
        rows = store_or_exit().banks.versions(repo)
        items = [
            {"id": r.id, "repo": r.repo, "parent": r.parent_id, "made_by": r.origin.get("kind"),
             "memories": r.memory_count, "active": r.active_count,
             "created_at": r.created_at.isoformat()}
            for r in rows
        ]
        if as_json:
            print_json(items)
            return
        from rich.table import Table

        table = Table("id", "repo", "parent", "made by", "memories", "active", "created")
        for i in items:
            table.add_row(*(esc(i[k] or "") for k in
                            ("id", "repo", "parent", "made_by", "memories", "active", "created_at")))
        console().print(table)

    @app.command()
    def aliases(
        repo: Annotated[str | None, typer.Option(help="Only this repository's aliases.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """List aliases (production, candidate, ...) and the bank each points at."""
        rows = store_or_exit().banks.aliases(repo)
        items = [{"repo": r, "name": n, "bank": b, "moved_at": t.isoformat()} for r, n, b, t in rows]
        if as_json:
            print_json(items)
            return
        for i in items:
            console().print(f"{esc(i['repo']):<30} {esc(i['name']):<12} {i['bank']}  "
                            f"(since {i['moved_at']})", highlight=False)

    @show_app.command("bank")
    def show_bank(
        ref: Annotated[str, typer.Argument(help="Bank id, unique prefix, or alias.")],
        repo: Annotated[str | None, typer.Option(help="Repository of the alias.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Show a bank version and its memories."""
        from dreamer.errors import StoreError

        try:
            bank = store_or_exit().banks.resolve(ref, repo)
        except StoreError as exc:
            fail(str(exc))
        if as_json:
            print_json(bank.model_dump(mode="json"))
            return
        out = console()
        out.print(f"[bold]{bank.id}[/bold] repo={esc(bank.repo)} parent={bank.parent_id} "
                  f"made by {bank.origin.kind}; {len(bank.memories)} memories, "
                  f"{len(bank.active)} active")
        for m in bank.memories:
            out.print(f"- {m.id} \\[{m.type.value}/{m.status.value}] {esc(m.summary)}",
                      highlight=False)
