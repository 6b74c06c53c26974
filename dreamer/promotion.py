"""Promotion and rollback of the ``production`` bank, in the store and the MLflow registry.

The store is the source of truth. Promotion takes a database lock per repository, checks that
production is still the bank the gate compared against (so two runs never both promote), moves
the store's alias in one transaction, then points the MLflow registered model's ``production``
alias at the same bank's model version. Each call first brings MLflow's alias back in line with
the store, so a run killed between the two steps is repaired by the next one.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dreamer import tracking
from dreamer.errors import GateError
from dreamer.gate import GateDecision
from dreamer.models import Bank
from dreamer.store import Store
from dreamer.store.schema import GateDecisionRow

PRODUCTION = "production"
REGISTRY_EXPERIMENT = "dreamer-banks"
_UNSET: Any = object()


@dataclass(frozen=True)
class PromotionResult:
    repo: str
    previous: str | None
    production: str
    model_name: str
    model_version: str
    forced: bool
    reason: str


def model_name(repo: str) -> str:
    """The MLflow registered model that holds ``repo``'s banks."""
    return "dreamer-bank-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", repo).strip("-")


def record_decision(store: Store, repo: str, candidate: str, production: str | None,
                    decision: GateDecision, promoted: bool,
                    details: dict[str, Any] | None = None) -> None:
    """Keep a gate decision, with its reasons, in the store."""
    with store.sessions.begin() as db:
        db.add(GateDecisionRow(
            repo=repo, candidate=candidate, production=production, passed=decision.passed,
            promoted=promoted, reasons=decision.reasons,
            details={"decision": decision.model_dump(mode="json"), **(details or {})},
            at=datetime.now(UTC),
        ))


def promote(
    store: Store, repo: str, candidate: str, decision: GateDecision | None = None, *,
    force: bool = False, reason: str = "", expected_production: str | None = _UNSET,
    actor: str = "dreamer",
) -> PromotionResult:
    """Make ``candidate`` the production bank of ``repo`` if ``decision`` passed (or ``force``).

    ``expected_production`` is the production bank the gate compared against; if production has
    moved since, the promotion is refused.
    """
    bank = store.banks.resolve(candidate, repo)
    if force and not reason:
        raise GateError("a forced promotion needs a reason (--reason)")
    if not force:
        if decision is None:
            raise GateError(
                f"no gate decision for {bank.id}; run the gate or pass --force --reason"
            )
        if not decision.passed:
            raise GateError(f"the gate rejected {bank.id}", decision.reasons)
    with store.locks.hold(f"promote:{repo}"):
        sync_registry(store, repo)
        current = store.banks.alias(PRODUCTION, repo)
        if expected_production is not _UNSET and current != expected_production:
            raise GateError(
                f"production of {repo} moved to {current} while the gate compared against "
                f"{expected_production}; evaluate again before promoting"
            )
        why = reason or ("forced" if force else f"gate {decision.gate if decision else ''} passed")
        name, version = register_bank(bank, repo)
        store.banks.move_alias(PRODUCTION, bank.id, repo, reason=why, actor=actor)
        _set_registry_alias(name, version)
    return PromotionResult(repo, current, bank.id, name, version, force, why)


def rollback(store: Store, repo: str, reason: str = "rollback") -> PromotionResult:
    """Point production of ``repo`` back at the bank it pointed at before its latest move."""
    with store.locks.hold(f"promote:{repo}"):
        move = store.banks.rollback(PRODUCTION, repo, reason=reason)
        bank = store.banks.get(move.to_bank)
        name, version = register_bank(bank, repo)
        _set_registry_alias(name, version)
    return PromotionResult(repo, move.from_bank, move.to_bank, name, version, False, reason)


def sync_registry(store: Store, repo: str) -> None:
    """Make MLflow's production alias agree with the store's (the store is the truth)."""
    current = store.banks.alias(PRODUCTION, repo)
    if current is None:
        return
    name, version = register_bank(store.banks.get(current), repo)
    _set_registry_alias(name, version)


def register_bank(bank: Bank, repo: str) -> tuple[str, str]:
    """The MLflow model version holding ``bank`` as a pyfunc model (``dreamer.bank_model``),
    registered on first use: (name, version)."""
    with registry_errors():
        client = tracking.client()
        name = model_name(repo)
        if not _exists(client, name):
            try:
                client.create_registered_model(name,
                                               description=f"dreamer memory banks of {repo}")
            except Exception:
                if not _exists(client, name):  # not created meanwhile by another run
                    raise
        for version in client.search_model_versions(f"name='{name}'"):
            if version.tags.get("bank_id") == bank.id:
                return name, str(version.version)
        from dreamer import bank_model

        run = client.create_run(tracking.experiment_id(REGISTRY_EXPERIMENT, client),
                                run_name=f"register {bank.id}",
                                tags={"bank_id": bank.id, "repo": repo})
        with tempfile.TemporaryDirectory() as tmp:
            folder = bank_model.save(bank, Path(tmp) / "bank", repo=repo)
            client.log_artifacts(run.info.run_id, str(folder), artifact_path="bank")
        client.set_terminated(run.info.run_id)
        version = client.create_model_version(
            name, source=f"{run.info.artifact_uri}/bank", run_id=run.info.run_id,
            tags={"bank_id": bank.id, "repo": repo, "parent_id": bank.parent_id or ""},
            description=f"bank {bank.id}: {len(bank.active)} active of {len(bank.memories)} "
                        "memories",
        )
        return name, str(version.version)


def registry_alias(repo: str, alias: str = PRODUCTION) -> str | None:
    """The bank id that MLflow's ``alias`` of ``repo``'s model points at; None when the model or
    the alias does not exist. RegistryError when the registry cannot answer."""
    with registry_errors():
        client = tracking.client()
        try:
            version = client.get_model_version_by_alias(model_name(repo), alias)
        except Exception as exc:
            if _absent(exc):
                return None
            raise
        return version.tags.get("bank_id")


@contextmanager
def registry_errors() -> Iterator[None]:
    """MLflow's failures as RegistryError, saying which tracking URI failed."""
    from dreamer import settings
    from dreamer.errors import DreamerError, RegistryError

    try:
        yield
    except DreamerError:
        raise
    except Exception as exc:
        raise RegistryError(f"the MLflow registry at {settings.mlflow_tracking_uri()} failed: "
                            f"{type(exc).__name__}: {str(exc)[:500]}") from exc


def _set_registry_alias(name: str, version: str) -> None:
    with registry_errors():
        tracking.client().set_registered_model_alias(name, PRODUCTION, version)


def _exists(client: Any, name: str) -> bool:
    try:
        client.get_registered_model(name)
    except Exception as exc:
        if _absent(exc):
            return False
        raise
    return True


def _absent(exc: Exception) -> bool:
    """Whether MLflow's ``exc`` says "no such model, version or alias" (and nothing else)."""
    from mlflow.exceptions import MlflowException

    if not isinstance(exc, MlflowException):
        return False
    code = exc.error_code
    return code == "RESOURCE_DOES_NOT_EXIST" or (
        code == "INVALID_PARAMETER_VALUE" and "not found" in exc.message)


def latest_decision(store: Store, repo: str, candidate: str) -> GateDecision | None:
    """The newest recorded gate decision for ``candidate`` against the current production."""
    from sqlalchemy import select

    production = store.banks.alias(PRODUCTION, repo)
    stmt = (
        select(GateDecisionRow)
        .where(GateDecisionRow.repo == repo, GateDecisionRow.candidate == candidate)
        .order_by(GateDecisionRow.id.desc())
    )
    with store.sessions() as db:
        for row in db.scalars(stmt):
            if row.production == production:
                return GateDecision.model_validate(row.details["decision"])
            return None
    return None
