"""What every command shares: the console, JSON output, errors that exit cleanly."""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup


class Group(TyperGroup):
    """A command group whose unused ``--help`` reads as False, not None.

    typer coerces a None flag value through a pydantic adapter, so ``dreamer <cmd> --help``
    imported pydantic (a third of its time) for the group's own unused help option."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option


show_app = typer.Typer(help="Show one stored record in full.", no_args_is_help=True, cls=Group)
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


LM_BASE_URL_HELP = "Base URL of an OpenAI-compatible server for --lm (e.g. http://127.0.0.1:8080/v1)."
LM_KEY_ENV_HELP = "Environment variable holding the LM's API key (never the key itself)."
LM_MAX_FAILURES_HELP = ("Share of failed LM calls (0-1) above which the run aborts with exit code 4 "
                        "and moves no alias (default 0.05).")


def open_lm(config: Any = None, **overrides: Any) -> tuple[Any, Any]:
    """(the LM, its ``LMConfig``) from a config (YAML's ``lm:``) with command-line ``overrides``
    (``model``, ``base_url``, ``api_key_env``, ``max_failures``), after one trial call; exits
    with ``LM_EXIT_CODE`` saying why when the model is unreachable, 2 when the settings are
    invalid. The LM is None offline."""
    from pydantic import ValidationError

    from dreamer.errors import LM_EXIT_CODE, ConfigError, LMRunError
    from dreamer.lm import LMConfig, make_lm, probe

    try:
        base = config if isinstance(config, LMConfig) else LMConfig.model_validate(config or {})
        cfg = base.merged(**overrides)
    except ValidationError as exc:
        fail(f"invalid LM settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}", code=2)
    if cfg.offline:
        return None, cfg
    try:
        lm = make_lm(cfg)
    except ConfigError as exc:
        fail(str(exc), code=2)
    try:
        probe(lm)
    except LMRunError as exc:
        fail(str(exc), code=LM_EXIT_CODE)
    return lm, cfg


def usage_line(usage: dict[str, Any]) -> str:
    """An LM run's tokens and cost in one phrase (cost unknown for an unpriced model)."""
    cost = (f"${usage.get('cost_usd', 0):.4f}" if usage.get("priced", True)
            else f"cost unknown ({', '.join(usage.get('unpriced_models') or ())} unpriced)")
    return (f"{usage.get('prompt_tokens', 0)} prompt + {usage.get('completion_tokens', 0)} "
            f"completion tokens, {cost}")
