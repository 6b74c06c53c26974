"""The ``dreamer`` command. Each subsystem adds its commands from ``dreamer/commands/<name>.py``
through a ``register(app)`` function; heavy libraries are imported inside the commands."""

from __future__ import annotations

import importlib
import pkgutil

import typer

import dreamer.commands
from dreamer.commands.common import Group, show_app

app = typer.Typer(
    name="dreamer",
    help="Make coding agents learn from their own past sessions: ingest, extract, dream, "
    "evaluate, promote.",
    no_args_is_help=True,
    cls=Group,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help and errors: rich's formatting costs a third of `dreamer <cmd> --help`
    # (benchmarks/cli_startup.py measures it).
    rich_markup_mode=None,
)

for _info in sorted(pkgutil.iter_modules(dreamer.commands.__path__), key=lambda i: i.name):
    _register = getattr(importlib.import_module(f"dreamer.commands.{_info.name}"), "register", None)
    if _register is not None:  # helper modules such as ``common`` add no commands
        _register(app)
app.add_typer(show_app, name="show")


def quiet_libraries() -> None:
    """Keep third-party chatter (model-loading bars, debug logs) out of dreamer's output."""
    import logging
    import os

    os.environ.setdefault("TQDM_DISABLE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("MLFLOW_LOGGING_LEVEL", "WARNING")  # MLflow sets its level at import
    for name in ("bm25s", "sentence_transformers", "transformers", "chromadb", "httpx", "alembic"):
        logging.getLogger(name).setLevel(logging.WARNING)


def main() -> None:
    quiet_libraries()
    from dreamer.stack import load_env

    load_env()  # a running `dreamer stack`: its servers (explicit variables win)
    app()


if __name__ == "__main__":
    main()
