"""Commands of the closed loop: nightly, compare, demo."""

import contextlib
import os
import sys
from typing import Annotated, Any

import typer

from dreamer.commands.common import (
    LM_BASE_URL_HELP,
    LM_KEY_ENV_HELP,
    LM_MAX_FAILURES_HELP,
    console,
    esc,
    fail,
    open_lm,
    print_json,
)

DEMO_STRATEGIES = "none,default,aggressive,no-forgetting"
DEMO_BUDGETS = "0,256,1024,all"


def prefect_environment() -> None:
    """Quiet, offline Prefect whose state (and result cache) lives beside dreamer's; a
    watchdog that stops every child of this run (Prefect's server, test runs) when it ends,
    however it ends (``dreamer.watchdog``); MLflow's and Prefect's local databases created whole
    before first use (``dreamer.databases``)."""
    from dreamer import settings
    from dreamer.watchdog import watch

    watch()
    os.environ.setdefault("PREFECT_HOME", str(settings.home() / "prefect"))
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    # ... but the runs' own logs at INFO: the steps' progress lines (``dreamer.progress``), in
    # the terminal and in the Prefect UI.
    os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_FLOW_RUNS_LEVEL", "INFO")
    os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL", "INFO")
    # The ephemeral API starts in-process; on a loaded 2-core machine 20 s is not always enough.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    from dreamer.databases import prepare_local_databases

    prepare_local_databases()  # whole or not at all: a killed run never leaves half of one

def register(app: typer.Typer) -> None:
    @app.command()
    def nightly(
        config: Annotated[str, typer.Option(help="configs/nightly/<name>.yaml, or a path.")] = "default",
        lm: Annotated[str | None, typer.Option(help="A litellm model for extraction and dreaming.")] = None,
        lm_base_url: Annotated[str | None, typer.Option(help=LM_BASE_URL_HELP)] = None,
        lm_api_key_env: Annotated[str | None, typer.Option(help=LM_KEY_ENV_HELP)] = None,
        lm_max_failures: Annotated[float | None, typer.Option(help=LM_MAX_FAILURES_HELP)] = None,
        serve: Annotated[bool, typer.Option(help="Serve on a cron schedule (needs a Prefect server).")] = False,
        deploy: Annotated[bool, typer.Option(help="Register it as a deployment of the stack's work pool, on --cron.")] = False,
        pool: Annotated[str, typer.Option(help="The work pool, with --deploy.")] = "dreamer",
        cron: Annotated[str, typer.Option(help="The schedule, with --serve or --deploy.")] = "0 3 * * *",
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Run the nightly dream once now: ingest, extract, dream, evaluate, gate, promote.

        With --serve, serve it on a cron schedule (default 03:00) against a Prefect server
        (`prefect server start`; PREFECT_API_URL pointing at it).
        """
        prefect_environment()
        from dreamer.errors import LM_EXIT_CODE, LMRunError
        from dreamer.loop import lm_settings, load_nightly
        from dreamer.strategy import load_strategy

        nightly_config = load_nightly(config)  # a bad config fails here, before Prefect starts
        given = {"model": lm, "base_url": lm_base_url, "api_key_env": lm_api_key_env,
                 "max_failures": lm_max_failures}
        # The nightly config's lm with the command line over it; the strategy's lm beneath.
        spec = {**(nightly_config.lm.model_dump(exclude_unset=True) if nightly_config.lm
                   else {}), **{k: v for k, v in given.items() if v is not None}} or None
        # One trial call with the settings extraction will use, and dreaming's if they differ.
        first = lm_settings(spec)
        open_lm(first)
        dreaming = lm_settings(load_strategy(nightly_config.strategy).lm, spec)
        if dreaming != first:
            open_lm(dreaming)
        from flows.nightly_dream_flow import nightly_dream

        if deploy:
            if not os.environ.get("PREFECT_API_URL"):
                fail("--deploy needs a Prefect server: `dreamer stack up` (or set "
                     "PREFECT_API_URL)", code=2)
            deployment = deploy_flow("flows/nightly_dream_flow.py:nightly_dream", "nightly-dream",
                                     f"nightly-{_slug(config)}", pool, cron,
                                     {"config_ref": config, "lm": lm})
            _print_deployment(deployment, as_json)
            return
        if serve:
            if not os.environ.get("PREFECT_API_URL"):
                fail("--serve needs a Prefect server: run `prefect server start` and set "
                     "PREFECT_API_URL=http://127.0.0.1:4200/api", code=2)
            nightly_dream.serve(name=f"nightly-{config}", cron=cron,
                                parameters={"config_ref": config, "lm": spec})
            return
        try:
            outcomes = nightly_dream(config_ref=config, lm=spec)
        except LMRunError as exc:
            fail(str(exc), code=LM_EXIT_CODE)
        if as_json:
            print_json(outcomes)
            return
        _print_outcomes(outcomes)

    @app.command()
    def compare(
        strategies: Annotated[str | None, typer.Option(help="Comma-separated strategy names or paths (default: the config's compare.strategies).")] = None,
        budgets: Annotated[str | None, typer.Option(help="Comma-separated token budgets; 'all' for no limit (default: the config's compare.budgets).")] = None,
        config: Annotated[str, typer.Option(help="configs/nightly/<name>.yaml: suite, agent, sources, compare, fan_out.")] = "default",
        agents: Annotated[str, typer.Option(help="Comma-separated agents (default: the config's, else its agent and embedding).")] = "",
        lm: Annotated[str | None, typer.Option(help="A litellm model for dreaming.")] = None,
        runner: Annotated[str | None, typer.Option(help="threads or dask (default: the config's fan_out.runner).")] = None,
        dask_address: Annotated[str | None, typer.Option(help="A Dask scheduler (tcp://host:8786); default $DREAMER_DASK_ADDRESS, else a LocalCluster with --runner dask.")] = None,
        deploy: Annotated[bool, typer.Option(help="Register it as a deployment of the stack's work pool, on --cron, with the config's parameters.")] = False,
        pool: Annotated[str, typer.Option(help="The work pool, with --deploy.")] = "dreamer",
        cron: Annotated[str, typer.Option(help="The schedule, with --deploy.")] = "0 4 * * 0",
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Dream with each strategy and evaluate them all on the same tasks and budgets."""
        prefect_environment()
        from dreamer.loop import load_nightly
        from evals.metrics import parse_budgets

        if runner not in (None, "threads", "dask"):
            fail(f"--runner {runner!r}: choose threads or dask", code=2)
        compare_config = load_nightly(config).compare  # a bad config fails before Prefect
        names = [s.strip() for s in (strategies or "").split(",") if s.strip()] \
            or list(compare_config.strategies)
        sizes = parse_budgets(budgets) if budgets else list(compare_config.budgets)
        chosen = [a.strip() for a in agents.split(",") if a.strip()] \
            or list(compare_config.agents) or None
        if deploy:
            if not os.environ.get("PREFECT_API_URL"):
                fail("--deploy needs a Prefect server: `dreamer stack up` (or set "
                     "PREFECT_API_URL)", code=2)
            parameters = {"config_ref": config, "strategies": names, "budgets": sizes,
                          "agents": chosen, "lm": lm, "runner": runner,
                          "dask_address": dask_address}
            deployment = deploy_flow("flows/compare_flow.py:compare_strategies",
                                     "compare-strategies", f"compare-{_slug(config)}", pool,
                                     cron, parameters)
            _print_deployment(deployment, as_json)
            return
        from flows.compare_flow import compare_strategies

        out = compare_strategies(names, sizes, config_ref=config, lm=lm, agents=chosen,
                                 runner=runner, dask_address=dask_address)
        _print_comparison(out, as_json)

    @app.command()
    def demo(
        strategies: Annotated[str, typer.Option(help="Strategies to compare.")] = DEMO_STRATEGIES,
        budgets: Annotated[str, typer.Option(help="Token budgets to compare at.")] = DEMO_BUDGETS,
    ) -> None:
        """The whole loop on the bundled sample: ingest, extract, dream, evaluate, gate, promote.

        Dreams with several strategies, evaluates each at several memory budgets on the sample's
        certified tasks, gates the default strategy's candidate against production and promotes
        it if it passes; prints the table of strategies × budgets and where the plot is.
        """
        prefect_environment()
        from dreamer import settings
        from dreamer.loop import extract_new, ingest_sources, load_nightly
        from dreamer.store import open_store
        from evals.metrics import parse_budgets

        out = console()
        config = load_nightly("default")
        store = open_store()
        out.rule("1/4 ingest the sample's sessions")
        ingested = ingest_sources(store, config)
        out.print(f"{ingested['ingested']} files ingested, "
                  f"{ingested['duplicates'] + ingested['unchanged']} already there, "
                  f"{ingested['quarantined']} quarantined; {store.evidence.count_sessions()} sessions")
        out.rule("2/4 extract memories")
        extracted = extract_new(store, config)
        out.print(f"{extracted['sessions']} new sessions: {extracted['kept']} memories kept of "
                  f"{extracted['candidates']} candidates; rejected {dict(extracted['rejected'])}; "
                  f"secrets redacted {extracted['redacted']}")
        out.rule("3/4 dream with each strategy; evaluate at each budget")
        from flows.compare_flow import compare_strategies

        compared = compare_strategies([s.strip() for s in strategies.split(",") if s.strip()],
                                      parse_budgets(budgets), config_ref="default")
        out.rule("4/4 nightly: gate the default strategy's candidate against production")
        from flows.nightly_dream_flow import nightly_dream

        outcomes = nightly_dream(config_ref="default")
        _print_outcomes(outcomes)
        _print_comparison(compared, False)
        out.print(f"\nMLflow holds the runs and the registered banks: "
                  f"mlflow ui --backend-store-uri {settings.mlflow_tracking_uri()}")


def deploy_flow(entrypoint: str, flow_name: str, name: str, pool: str, cron: str,
                parameters: dict[str, Any]) -> dict[str, Any]:
    """Register a flow of this project's folder (``entrypoint``) as the deployment ``name`` of
    ``pool`` on ``cron``, with ``parameters``."""
    from prefect import flow

    from dreamer.loop import PROJECT_ROOT

    source = flow.from_source(source=str(PROJECT_ROOT), entrypoint=entrypoint)
    with contextlib.redirect_stdout(sys.stderr):  # Prefect's table: stdout stays for --json
        deployment_id = source.deploy(  # type: ignore[union-attr]
            name=name, work_pool_name=pool, cron=cron, parameters=parameters,
            print_next_steps=False, ignore_warnings=True)
    return {"id": str(deployment_id), "name": f"{flow_name}/{name}", "work_pool": pool,
            "cron": cron, "parameters": parameters}


def _print_deployment(deployment: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(deployment)
        return
    console().print(f"deployment {esc(deployment['name'])} ({deployment['id']}) on work pool "
                    f"{esc(deployment['work_pool'])}, cron {esc(deployment['cron'])}")


def _slug(config: str) -> str:
    import re
    from pathlib import Path

    return re.sub(r"[^A-Za-z0-9_-]+", "-", Path(config).stem).strip("-") or "default"


def _print_outcomes(outcomes: list[dict[str, Any]]) -> None:
    out = console()
    for o in outcomes:
        verdict = "[green]promoted[/green]" if o["promoted"] else "[yellow]not promoted[/yellow]"
        out.print(f"{esc(o['repo'])}: candidate {o['candidate']} {verdict} "
                  f"({o['wins']} wins, {o['losses']} losses, p={o['p_value']}, "
                  f"{o['candidate_tokens']} tokens)")
        for reason in o["reasons"]:
            out.print(f"  - {esc(reason)}", highlight=False)


def _print_comparison(result: dict[str, Any], as_json: bool) -> None:
    table = result["table"]
    if as_json:
        print_json({"table": table.to_dict("records"), "plot": str(result["plot"]),
                    "run_id": result["run_id"]})
        return
    from rich.table import Table

    from evals.compare import display_rows

    first = next(iter(result.get("results", {}).values()), None)
    k = first.config.permutations if first is not None else "?"
    header, rows = display_rows(table)
    view = Table(title=f"strategies × budgets: share of tasks resolved (mean of {k} "
                       "relabellings) and lift over placebo [95% CI] p")
    for column in header:
        view.add_column(column, justify="left" if column in ("strategy", "agent") else "right")
    for row in rows:
        view.add_row(*(esc(cell) for cell in row))
    out = console()
    out.print(view)
    out.print(f"plot: {esc(result['plot'])}")
    out.print(f"MLflow parent run: {result['run_id']}")
