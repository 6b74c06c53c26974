"""``dreamer stack up|down|status``: Prefect server, work pool and worker, MLflow server, Chroma
server, on loopback (see ``dreamer.stack``)."""

from typing import Annotated

import typer

from dreamer.commands.common import Group, console, esc, fail, print_json

stack_app = typer.Typer(help="Start, stop or check the scale-out stack (Prefect, MLflow, Chroma "
                             "servers; PostgreSQL store).", no_args_is_help=True, cls=Group)


def register(app: typer.Typer) -> None:
    app.add_typer(stack_app, name="stack")


@stack_app.command()
def up(
    host: Annotated[str, typer.Option(help="Address the servers listen on.")] = "127.0.0.1",
    postgres: Annotated[str, typer.Option(help="PostgreSQL server (SQLAlchemy URL without a "
                                               "database).")] = "postgresql+psycopg://postgres@127.0.0.1:5432",
    prefix: Annotated[str, typer.Option(help="Prefix of the databases created there.")] = "dreamer",
    pool: Annotated[str, typer.Option(help="The Prefect work pool.")] = "dreamer",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Start the stack and point dreamer at it (writes $DREAMER_HOME/stack/env)."""
    from dreamer import stack
    from dreamer.errors import DreamerError

    try:
        started = stack.up(host=host, postgres=postgres, prefix=prefix, work_pool=pool)
    except DreamerError as exc:
        fail(str(exc))
    if as_json:
        print_json({"env": started.env, "ui": started.ui(), "env_file": str(stack.env_file()),
                    "work_pool": started.work_pool})
        return
    out = console()
    for name, url in started.ui().items():
        out.print(f"{esc(name)}: {esc(url)}")
    out.print(f"work pool {esc(started.work_pool)} with a process worker")
    out.print(f"dreamer reads {esc(stack.env_file())}; for other tools: "
              "eval \"$(dreamer stack env)\"")


@stack_app.command()
def down(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Stop every service the stack started."""
    from dreamer import stack

    stopped = stack.down()
    if as_json:
        print_json({"stopped": stopped})
        return
    console().print(f"stopped: {', '.join(stopped) or 'nothing was running'}")


@stack_app.command()
def status(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Whether each service runs and answers."""
    from dreamer import stack

    report = stack.status()
    if as_json:
        print_json(report)
    else:
        for row in report["services"]:
            state = "[green]up[/green]" if row["answers"] else "[red]down[/red]"
            console().print(f"{esc(row['name'])} {state} {esc(row['url'])} (pid {row['pid']})")
        if not report["services"]:
            console().print("no stack: `dreamer stack up`")
    if not report["running"]:
        raise typer.Exit(1)


@stack_app.command("env")
def env() -> None:
    """The stack's variables as shell exports."""
    from dreamer import stack

    current = stack.current()
    if current is None:
        fail("no stack: `dreamer stack up`")
    for key, value in current.env.items():
        typer.echo(f"export {key}={value}")
