"""``dreamer extract``: turn the sessions not yet extracted into a new extraction bank."""

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import typer

from dreamer.commands.common import (
    LM_BASE_URL_HELP,
    LM_KEY_ENV_HELP,
    LM_MAX_FAILURES_HELP,
    console,
    fail,
    open_lm,
    print_json,
    store_or_exit,
    usage_line,
)

_RELATIVE = re.compile(r"^(\d+)\s*([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str | None) -> datetime | None:
    """An ISO time (``2026-11-30``, ``2026-11-30T08:00Z``) or an age (``12h``, ``7d``, ``2w``)."""
    if not value:
        return None
    if match := _RELATIVE.match(value.strip()):
        return datetime.now(UTC) - timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        fail(f"--since {value!r} is neither an ISO time (2026-11-30T08:00) nor an age (12h, 7d)", 2)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _track(result: Any, repo: str | None, since: str | None) -> str:
    """Record an extraction that called an LM in MLflow (experiment ``dreamer-extract``)."""
    from dreamer.tracking import log_lm_run

    assert result.lm_usage is not None
    return log_lm_run("extract", result.lm_usage, {
        "repo": repo or "all", "since": since or "all",
        "banks": ",".join(sorted(result.banks.values())) or "none"}, {
        "sessions": result.sessions, "candidates": result.candidates, "kept": result.kept})


def register(app: typer.Typer) -> None:
    @app.command()
    def extract(
        repo: Annotated[str | None, typer.Option(help="Only sessions of this repository.")] = None,
        since: Annotated[
            str | None,
            typer.Option(help="Only sessions ingested since this time (ISO) or age (12h, 7d)."),
        ] = None,
        lm: Annotated[
            str | None,
            typer.Option(
                help="Write memories with this litellm model (e.g. openai/gpt-4o-mini) instead of "
                "the offline rules."
            ),
        ] = None,
        lm_base_url: Annotated[str | None, typer.Option(help=LM_BASE_URL_HELP)] = None,
        lm_api_key_env: Annotated[str | None, typer.Option(help=LM_KEY_ENV_HELP)] = None,
        lm_max_failures: Annotated[
            float | None, typer.Option(help=LM_MAX_FAILURES_HELP)] = None,
        repos: Annotated[
            list[Path] | None,
            typer.Option(
                "--repos",
                help="A folder of git repositories (or bundles) to hash cited lines from; "
                "repeatable. DREAMER_REPOS adds more.",
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        explain: Annotated[
            bool,
            typer.Option("--explain", help="Also list every rejected candidate with its reason."),
        ] = False,
    ) -> None:
        """Extract evidenced memories from new sessions into a new extraction bank version."""
        from dreamer.errors import LM_EXIT_CODE, DreamerError, LMRunError
        from dreamer.extract import extract as run_extract

        store = store_or_exit()
        model, lm_cfg = open_lm(None, model=lm, base_url=lm_base_url,
                                api_key_env=lm_api_key_env, max_failures=lm_max_failures)
        try:
            result = run_extract(
                store, repo=repo, since=parse_since(since), lm=model,
                repo_roots=list(repos or []), max_failures=lm_cfg.max_failures,
            )
        except LMRunError as exc:
            fail(str(exc), code=LM_EXIT_CODE)
        except DreamerError as exc:
            fail(str(exc))
        run_id = _track(result, repo, since) if result.lm_usage else None
        if as_json:
            print_json(result.to_json(explain=explain) | ({"mlflow_run_id": run_id}
                                                          if run_id else {}))
            return
        out = console()
        out.print(
            f"sessions {result.sessions}  candidates {result.candidates}  kept {result.kept}  "
            f"rejected {sum(result.rejected.values())}  redacted {sum(result.redacted.values())}",
            highlight=False,
        )
        for reason, count in sorted(result.rejected.items()):
            out.print(f"  rejected {reason}: {count}", highlight=False)
        for bank_repo, bank in sorted(result.banks.items()):
            out.print(f"bank {bank} (alias extraction of {bank_repo})", highlight=False)
        if not result.banks:
            out.print("no new bank: nothing new was kept", highlight=False)
        if result.lm_usage:
            u = result.lm_usage
            out.print(f"LM {u['model']}: {u['calls']} calls, {u['failures']} failed "
                      f"(each fell back to the rules); {usage_line(u)} (MLflow run {run_id})",
                      highlight=False, markup=False)
        if explain:
            for r in result.rejections:
                where = f"{r.session_id}:{r.event_seq}" if r.event_seq is not None else r.session_id
                out.print(
                    f"- [{r.reason}] {r.rule} at {where}: {r.text}", highlight=False, markup=False
                )
                if r.detail:
                    out.print(f"    {r.detail}", highlight=False, markup=False)
