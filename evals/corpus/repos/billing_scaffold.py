"""The first commit of ``acme/billing-api``: invoices, settings and the PayGate client."""

from __future__ import annotations

from evals.corpus.gitrepo import FileChanges

SETTING_DEFAULTS: tuple[tuple[str, int], ...] = (
    ("invoice_due_days", 30), ("payment_retry_attempts", 3), ("webhook_timeout_seconds", 10),
    ("dunning_grace_days", 7), ("statement_day", 1), ("max_invoice_lines", 200),
    ("refund_window_days", 60), ("trial_days", 14), ("reminder_interval_days", 3),
    ("export_batch_size", 500), ("card_expiry_warning_days", 30), ("late_fee_percent", 2),
)

PYPROJECT = '''[project]
name = "billing-api"
version = "1.4.0"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["integration: talks to the PayGate sandbox"]
'''

README = '''# billing-api

Invoices, dunning and payments through PayGate.

    make test          # unit tests
    make integration   # the PayGate sandbox suite

Deployment values live in `deploy/values.yaml`.
'''

MAKEFILE = '''test:
\tpython -m pytest -q

integration:
\tBILLING_INTEGRATION=1 python -m pytest -q -m integration tests/integration
'''


def settings_module(values: dict[str, int]) -> str:
    """``billing/settings.py`` with the given defaults."""
    rows = "".join(f'    "{key}": {value},\n' for key, value in values.items())
    return f'''"""Service settings: defaults, overridable by ``BILLING_<KEY>`` variables."""

from __future__ import annotations

import os

DEFAULTS: dict[str, int] = {{
{rows}}}


def get_setting(key: str) -> int:
    raw = os.environ.get(f"BILLING_{{key.upper()}}")
    return int(raw) if raw is not None else DEFAULTS[key]
'''


def values_yaml(values: dict[str, int]) -> str:
    """``deploy/values.yaml`` with the given settings in its ``env`` block."""
    rows = "".join(f'  BILLING_{key.upper()}: "{value}"\n' for key, value in values.items())
    return f'''# Helm values for the billing-api deployment.
replicaCount: 2
image:
  repository: registry.example.com/acme/billing-api
  tag: "1.4.0"
env:
{rows}resources:
  limits:
    memory: 256Mi
'''


def compose_yaml(values: dict[str, int]) -> str:
    """``docker-compose.yml``: the local development environment, with the same variables."""
    rows = "".join(f'      BILLING_{key.upper()}: "{value}"\n' for key, value in values.items())
    return f'''# Local development: `docker compose up`.
services:
  billing-api:
    build: .
    ports:
      - "8080:8080"
    environment:
{rows}'''


GATEWAY = '''"""PayGate endpoints."""

from __future__ import annotations

import os

PRODUCTION_HOST = "https://api.paygate.example.com"
SANDBOX_HOST = "https://sandbox.paygate.example.com"
API_VERSION = "2023-10-01"


def gateway_url(endpoint: str) -> str:
    host = SANDBOX_HOST if os.environ.get("BILLING_INTEGRATION") == "1" else PRODUCTION_HOST
    return f"{host}/v2/{endpoint}"
'''

HTTP = '''"""The HTTP transport used to reach PayGate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Transport(Protocol):
    def post(self, url: str, payload: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class Call:
    url: str
    payload: dict[str, Any]


@dataclass
class RecordingTransport:
    """Records calls instead of sending them; answers every call with ``{"ok": True}``."""

    calls: list[Call] = field(default_factory=list)

    def post(self, url: str, payload: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(Call(url, payload))
        return {"ok": True}


def default_transport() -> Transport:
    raise RuntimeError("no network transport configured in this environment")
'''

INVOICES = '''"""Invoices and their due dates."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from billing.settings import get_setting


@dataclass
class Invoice:
    id: str
    customer_id: str
    amount_cents: int
    issued: date

    @property
    def due(self) -> date:
        return self.issued + timedelta(days=get_setting("invoice_due_days"))
'''

REPORTS = '''"""Monthly invoice reports for finance."""

from __future__ import annotations

from billing.invoices import Invoice


def monthly_total(invoices: list[Invoice], year: int, month: int) -> int:
    return sum(i.amount_cents for i in invoices if (i.issued.year, i.issued.month) == (year, month))
'''

TEST_INVOICES = '''from datetime import date

from billing.invoices import Invoice
from billing.reports import monthly_total


def test_due_date_uses_setting(monkeypatch):
    monkeypatch.setenv("BILLING_INVOICE_DUE_DAYS", "10")
    assert Invoice("i1", "c1", 100, date(2024, 1, 1)).due == date(2024, 1, 11)


def test_monthly_total():
    invoices = [Invoice("i1", "c", 100, date(2024, 1, 5)), Invoice("i2", "c", 50, date(2024, 2, 1))]
    assert monthly_total(invoices, 2024, 1) == 100
'''

TEST_SANDBOX = '''import os

import pytest

from billing.gateway import gateway_url

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(os.environ.get("BILLING_INTEGRATION") != "1",
                       reason="integration suite: run `make integration`"),
]


def test_sandbox_host_in_integration_runs():
    assert gateway_url("ping").startswith("https://sandbox.")
'''


def scaffold() -> FileChanges:
    """Every file of the repository's first commit."""
    values = dict(SETTING_DEFAULTS)
    return {
        "pyproject.toml": PYPROJECT, "README.md": README, "Makefile": MAKEFILE,
        ".gitignore": "__pycache__/\n.pytest_cache/\n.env\n",
        "conftest.py": "# Keeps the repository root importable when pytest runs from anywhere.\n",
        "billing/__init__.py": '"""Invoices, dunning and payments through PayGate."""\n',
        "billing/settings.py": settings_module(values), "deploy/values.yaml": values_yaml(values),
        "docker-compose.yml": compose_yaml(values),
        "billing/gateway.py": GATEWAY, "billing/http.py": HTTP, "billing/invoices.py": INVOICES,
        "billing/reports.py": REPORTS, "tests/test_invoices.py": TEST_INVOICES,
        "tests/integration/test_sandbox.py": TEST_SANDBOX,
    }
