"""A bank as an MLflow model: a pyfunc whose ``predict`` takes queries and returns the packs the
router makes from the bank, so that anything that serves MLflow models serves a bank::

    import mlflow
    model = mlflow.pyfunc.load_model("models:/dreamer-bank-pytoolz-toolz@production")
    model.predict(["why does curry fail on keyword-only arguments"])
    # -> [{"bank": ..., "query": ..., "text": ..., "tokens": ..., "memories": [...]}]

The input is a query, a list of queries, or a DataFrame with a ``query`` column (and, per row,
optional ``repo``, ``budget``, ``module``, ``phase``); ``params`` may give ``budget`` for all.
Each answer is ``RecallResult.to_json()``. The model loads wherever dreamer is installed
(``mlflow models serve --env-manager local``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import mlflow.pyfunc

from dreamer.errors import ConfigError
from dreamer.models import Bank

ROW_FIELDS = ("repo", "budget", "branch", "module", "phase")


class BankModel(mlflow.pyfunc.PythonModel):  # type: ignore[misc,name-defined]
    """Serves the bank saved beside it through dreamer's router."""

    def load_context(self, context: Any) -> None:
        self.bank = Bank.model_validate_json(Path(context.artifacts["bank"]).read_text())
        config = context.model_config or {}
        self.repo: str | None = config.get("repo") or self.bank.repo
        self.budget: int | None = config.get("budget")

    # No type hints: MLflow would read them as a schema; the input's forms are documented above.
    def predict(self, context, model_input, params=None):  # type: ignore[no-untyped-def]
        from dreamer.router import recall

        shared = dict(params or {})
        answers = []
        for row in _rows(model_input):
            fields = {**shared, **row}
            repo = fields.get("repo") or self.repo
            if not repo:
                raise ConfigError("this bank spans several repositories: give each query a "
                                  "'repo' (a column of the input, or params={'repo': ...})")
            budget = _budget(fields.get("budget", self.budget))
            answers.append(recall(self.bank, str(fields["query"]), repo=str(repo), budget=budget,
                                  branch=fields.get("branch"), module=fields.get("module"),
                                  phase=fields.get("phase")).to_json())
        return answers


def save(bank: Bank, path: Path, repo: str | None = None) -> Path:
    """Save ``bank`` as an MLflow pyfunc model in the new folder ``path``."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "bank.json"
        data.write_text(bank.model_dump_json(indent=1))
        mlflow.pyfunc.save_model(
            str(path), python_model=BankModel(), artifacts={"bank": str(data)},
            model_config={"repo": repo or bank.repo},
            # dreamer itself is the model's code: it loads wherever dreamer is installed.
            pip_requirements=[f"mlflow=={mlflow.__version__}"],
            metadata={"bank_id": bank.id, "repo": repo or bank.repo or "",
                      "memories": len(bank.memories), "active": len(bank.active)},
        )
    return path


def _rows(model_input: Any) -> list[dict[str, Any]]:
    import pandas as pd

    if isinstance(model_input, str):
        return [{"query": model_input}]
    if isinstance(model_input, dict):
        model_input = pd.DataFrame(model_input if any(isinstance(v, list)
                                                     for v in model_input.values())
                                   else [model_input])
    if isinstance(model_input, pd.Series):
        return [{"query": q} for q in model_input.tolist()]
    if isinstance(model_input, pd.DataFrame):
        if "query" not in model_input.columns:
            if len(model_input.columns) != 1:
                raise ConfigError("a bank model's input needs a 'query' column; got columns "
                                  f"{list(model_input.columns)}")
            model_input = model_input.rename(columns={model_input.columns[0]: "query"})
        keep = ["query", *(c for c in ROW_FIELDS if c in model_input.columns)]
        return [{k: v for k, v in row.items() if not _missing(v)}
                for row in model_input[keep].to_dict("records")]
    if isinstance(model_input, list | tuple):
        return [r if isinstance(r, dict) else {"query": r} for r in model_input]
    raise ConfigError(f"a bank model takes queries (a string, a list or a DataFrame with a "
                      f"'query' column), not {type(model_input).__name__}")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _budget(value: Any) -> int | None:
    if value is None or value == "all":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"a budget is a number of tokens or 'all', not {value!r}") from None
