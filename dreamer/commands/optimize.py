"""``dreamer optimize``: compile a strategy's dream program against the replay metric."""

from pathlib import Path
from typing import Annotated

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
    store_or_exit,
)


def register(app: typer.Typer) -> None:
    @app.command()
    def optimize(
        strategy: Annotated[str, typer.Option(help="Strategy name or YAML path.")] = "default",
        suite: Annotated[str, typer.Option(help="Suite whose families train and judge it.")]
        = "datasets/sample",
        optimizer: Annotated[str, typer.Option(
            help="bootstrap (BootstrapFewShot), mipro (MIPROv2) or gepa (GEPA).")] = "bootstrap",
        lm: Annotated[str | None, typer.Option("--lm", help="litellm model (required).")] = None,
        lm_base_url: Annotated[str | None, typer.Option(help=LM_BASE_URL_HELP)] = None,
        lm_api_key_env: Annotated[str | None, typer.Option(help=LM_KEY_ENV_HELP)] = None,
        lm_max_failures: Annotated[float | None, typer.Option(help=LM_MAX_FAILURES_HELP)] = None,
        heldout: Annotated[list[str] | None, typer.Option(
            help="A family to hold out (repeatable; default: the last one by name).")] = None,
        trials: Annotated[int, typer.Option(help="Optimizer trials / candidates.")] = 2,
        max_demos: Annotated[int, typer.Option(help="Demonstrations per predictor.")] = 2,
        setting: Annotated[list[str] | None, typer.Option(
            "-S", "--set", help="stage.key=value, or embedding=tfidf (repeatable).")] = None,
        out: Annotated[Path | None, typer.Option(
            help="Folder of the saved program (default: <home>/programs).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Compile the strategy's dream program with a DSPy optimizer (inner metric: the oracle
        fact survives with its identifiers), save it, dream the held-out families with it and
        let the gate judge each candidate by replay; trials are logged to MLflow."""
        from dreamer.errors import LM_EXIT_CODE, DreamerError, LMRunError
        from dreamer.optimize import OPTIMIZERS
        from dreamer.optimize import optimize as run
        from dreamer.strategy import load_strategy

        if optimizer not in OPTIMIZERS:
            fail(f"--optimizer {optimizer!r}: choose one of {', '.join(OPTIMIZERS)}", code=2)
        try:
            base = load_strategy(strategy).lm
        except DreamerError as exc:
            fail(str(exc), code=2)
        model, cfg = open_lm(base, model=lm, base_url=lm_base_url, api_key_env=lm_api_key_env,
                             max_failures=lm_max_failures)
        if model is None:
            fail("optimize needs a language model: give --lm (or lm: in the strategy)", code=2)
        store = store_or_exit()
        try:
            result = run(store, strategy, suite, optimizer, model, heldout=heldout,
                         trials=trials, max_demos=max_demos, max_failures=cfg.max_failures,
                         out=out, strategy_sets=setting)
        except LMRunError as exc:
            fail(str(exc), code=LM_EXIT_CODE)
        except DreamerError as exc:
            fail(str(exc), code=2)
        summary = result.to_json()
        if as_json:
            print_json(summary)
            return
        show = console()
        show.print(f"program {esc(result.program)} ({optimizer}, {len(result.trials)} trials, "
                   f"best train proxy {result.train_score:.2f}, held-out proxy "
                   f"{result.heldout_proxy:.2f}, {result.wall_s:.0f} s)", highlight=False)
        for repo, gate in result.gate.items():
            verdict = "passes" if gate["passed"] else "fails"
            show.print(f"  candidate {result.candidates[repo]} of {esc(repo)}: the gate "
                       f"{verdict}" + "".join(f"\n    - {esc(r)}" for r in gate["reasons"]),
                       highlight=False)
        show.print(f"  MLflow run {result.mlflow_run_id} (experiment dreamer-optimize)",
                   highlight=False)
