"""A promoted bank is a real MLflow model: ``mlflow.pyfunc.load_model`` on the production alias
loads it and answers queries with the router's packs. A registry that cannot answer is an error,
never "no production"."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dreamer.errors import RegistryError
from dreamer.models import Bank, Citation, Memory, Scope
from dreamer.promotion import model_name, promote, registry_alias
from dreamer.store import open_store


def _bank() -> Bank:
    facts = ("order status goes through LEGACY_STATUS_CODES before it is shown",
             "reserve stock with the fulfilment client, never by writing the stock table",
             "the invoice totals are rounded half-even in cents")
    return Bank(repo="acme/shop", memories=tuple(
        Memory(type="domain", scope=Scope(repo="acme/shop"), summary=f,
               citations=(Citation(kind="session", ref=f"ses_1:{i}"),))
        for i, f in enumerate(facts)))


def test_the_production_bank_loads_with_mlflow_pyfunc_and_answers_queries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    import mlflow

    monkeypatch.setenv("DREAMER_ROUTER_EMBEDDINGS", "0")  # BM25 and graph: quick, same packs
    store = open_store()
    bank = _bank()
    store.banks.put(bank)
    promote(store, "acme/shop", bank.id, force=True, reason="test")

    # dst_path: MLflow downloads a registered model into a new folder under /tmp otherwise
    model = mlflow.pyfunc.load_model(f"models:/{model_name('acme/shop')}@production",
                                     dst_path=str(tmp_path))
    assert model.metadata.metadata["bank_id"] == bank.id
    answers = model.predict(["how is the order status shown", "reserve stock"])
    assert [a["query"] for a in answers] == ["how is the order status shown", "reserve stock"]
    assert all(a["bank"] == bank.id for a in answers)
    assert "LEGACY_STATUS_CODES" in answers[0]["memories"][0]["summary"]
    assert "fulfilment" in answers[1]["memories"][0]["summary"]

    # A DataFrame with per-row budgets: the pack holds to its budget.
    framed = model.predict(pd.DataFrame({"query": ["reserve stock"], "budget": [5]}))
    assert framed[0]["tokens"] <= 5 and framed[0]["budget"] == 5
    with pytest.raises(Exception, match="query"):
        model.predict(pd.DataFrame({"a": ["x"], "b": ["y"]}))


def test_a_missing_model_is_absent_but_an_unreachable_registry_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert registry_alias("nobody/nothing") is None  # no such model: absent

    monkeypatch.setenv("MLFLOW_TRACKING_URI", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_TIMEOUT", "5")
    with pytest.raises(RegistryError, match="127.0.0.1:9"):
        registry_alias("acme/shop")
    store = open_store()
    bank = _bank()
    store.banks.put(bank)
    with pytest.raises(RegistryError, match="MLflow registry"):
        promote(store, "acme/shop", bank.id, force=True, reason="outage")
    assert store.banks.alias("production", "acme/shop") is None  # nothing moved
