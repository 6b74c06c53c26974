"""What every command shares: the console, JSON output, errors that exit cleanly."""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from typing import Any, NoReturn

import typer

show_app = typer.Typer(help="Show one stored record in full.", no_args_is_help=True)
"""``dreamer show KIND ID``: each subsystem adds its record kind here."""


@lru_cache(maxsize=2)
def console(stderr: bool = False):  # type: ignore[no-untyped-def]
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    # Piped output is read by people and tools alike: don't squeeze it to rich's 80 columns.
    width = None if stream.isatty() else 200
    return Console(stderr=stderr, soft_wrap=False, width=width)


def esc(value: Any) -> str:
    """``value`` as text that Rich prints as written: a repository named ``acme/[s]hop`` must
    not lose ``[s]`` as markup. Every value interpolated into a Rich string goes through it."""
    from rich.markup import escape

    return escape(str(value))


def print_json(value: Any) -> None:
    """Print one JSON document on stdout, nothing else."""
    sys.stdout.write(json.dumps(value, indent=2, default=str) + "\n")


def fail(message: str, code: int = 1) -> NoReturn:
    """Say what went wrong on stderr and exit with ``code``."""
    console(stderr=True).print(f"[red]error:[/red] {esc(message)}", highlight=False)
    raise typer.Exit(code)


def store_or_exit():  # type: ignore[no-untyped-def]
    """Open the store, or exit non-zero with the store's own explanation."""
    from dreamer.errors import StoreError
    from dreamer.store import open_store

    try:
        return open_store()
    except StoreError as exc:
        fail(str(exc), code=3)
