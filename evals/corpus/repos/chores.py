"""Background work in each repository: small real commits, and the sessions that made them.

Chores carry the noise of real logs (generic lessons, secrets, instructions aimed at the memory
writer); a few have special roles: the two sides of a rule that changed, and a file move that
leaves older sessions citing a path that no longer exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from evals.corpus.gitrepo import FileChanges
from evals.corpus.spec import Chore

Edit = Callable[[Mapping[str, str]], FileChanges]


def append(path: str, text: str) -> Edit:
    return lambda files: {path: files.get(path, "") + text}


def replace(path: str, old: str, new: str) -> Edit:
    def edit(files: Mapping[str, str]) -> FileChanges:
        if old not in files[path]:
            raise ValueError(f"chore edit: {old!r} not in {path}")
        return {path: files[path].replace(old, new, 1)}
    return edit


def create(path: str, text: str) -> Edit:
    return lambda files: {path: text}


def move(old: str, new: str, fix: tuple[tuple[str, str, str], ...] = ()) -> Edit:
    def edit(files: Mapping[str, str]) -> FileChanges:
        changes: dict[str, str | None] = {old: None, new: files[old]}
        for path, before, after in fix:
            changes[path] = files[path].replace(before, after)
        return changes
    return edit


def nothing(files: Mapping[str, str]) -> FileChanges:
    return {}


SHOP_CHORES: tuple[Chore, ...] = (
    Chore("Document local setup", "docs: local setup in README",
          append("README.md", "\n## Local setup\n\n"
                 "    python -m venv .venv && . .venv/bin/activate\n"
                 "    pip install -e . pytest\n"), ("README.md",)),
    Chore("Add ruff configuration", "chore: ruff config",
          append("pyproject.toml", '\n[tool.ruff]\nline-length = 100\n'), ("pyproject.toml",)),
    Chore("Check pagination size for the mobile app", "", nothing, ("shop/config.py",),
          tag="rule_old"),
    Chore("Customer search", "feat: find orders by customer",
          create("shop/search.py", '"""Order search."""\n\nfrom __future__ import annotations\n\n'
                 "from shop.db import Database\n\n\n"
                 "def orders_of(db: Database, customer_id: str) -> list[str]:\n"
                 '    return sorted(key for key, row in db.tables["orders"].items()\n'
                 '                  if row["customer_id"] == customer_id)\n'), ("shop/db.py",)),
    Chore("Investigate slow test run", "", nothing, ("tests/conftest.py",)),
    Chore("Raise the page size", "config: PAGE_SIZE 100 for the mobile app",
          replace("shop/config.py", "PAGE_SIZE = 50", "PAGE_SIZE = 100"), ("shop/config.py",),
          tag="rule_change"),
    Chore("CI workflow", "ci: run the tests on push",
          create(".github/workflows/ci.yml", "name: ci\non: [push]\njobs:\n  test:\n"
                 "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                 "      - run: pip install -e . pytest && make test\n"), ("Makefile",)),
    Chore("Page size question from the app team", "", nothing, ("shop/config.py",),
          tag="rule_new"),
    Chore("Move warehouse integration", "refactor: move warehouse dashboard to shop/integrations",
          move("shop/warehouse.py", "shop/integrations/warehouse.py",
               (("README.md", "shop/warehouse.py", "shop/integrations/warehouse.py"),)),
          ("shop/warehouse.py",), tag="move"),
    Chore("Changelog for 0.2.0", "chore: release 0.2.0",
          create("CHANGELOG.md", "# Changelog\n\n## 0.2.0\n\n- new payment methods\n"
                 "- order search\n"), ("pyproject.toml",)),
    Chore("Type hints in the db module", "refactor: annotate Database.rows",
          replace("shop/db.py", "    def rows(self, table: str)",
                  "    def rows(self, table: str, /)"),
          ("shop/db.py",)),
    Chore("Flaky fixture investigation", "", nothing, ("tests/conftest.py",)),
    Chore("Order total formatting", "feat: Order.total_display",
          append("shop/models.py", "\n\ndef format_amount(value: Decimal) -> str:\n"
                 '    return f"{value:.2f} EUR"\n'), ("shop/models.py",)),
    Chore("Currency setting docs", "docs: explain CURRENCY",
          replace("shop/config.py", 'CURRENCY = "EUR"\n',
                  'CURRENCY = "EUR"\n"""ISO 4217 code of every amount the shop stores."""\n'),
          ("shop/config.py",)),
)

SHOP_CHORES = SHOP_CHORES + (
    Chore("Why is the stock admin slow", "", nothing, ("shop/inventory.py",)),
    Chore("Makefile lint target", "chore: make lint",
          append("Makefile", "\nlint:\n\truff check shop tests\n"), ("Makefile",)),
    Chore("Order id format question", "", nothing, ("shop/models.py", "shop/warehouse.py")),
    Chore("Fulfilment state docs", "docs: fulfilment states",
          replace("shop/fulfilment.py", '"""Fulfilment requests for the warehouse."""',
                  '"""Fulfilment requests for the warehouse (states: open, picked, shipped)."""'),
          ("shop/fulfilment.py",)),
)

BILLING_CHORES: tuple[Chore, ...] = (
    Chore("Document the release checklist", "docs: release checklist",
          create("docs/release.md", "# Release checklist\n\n1. bump the chart tag\n"
                 "2. tag the release\n3. announce in #billing\n"), ("README.md",)),
    Chore("Pin the PayGate API version", "", nothing, ("billing/gateway.py",), tag="rule_old"),
    Chore("Invoice numbering helper", "feat: invoice_number()",
          append("billing/invoices.py", "\n\ndef invoice_number(year: int, seq: int) -> str:\n"
                 '    return f"INV-{year}-{seq:06d}"\n'),
          ("billing/invoices.py", "billing/reports.py")),
    Chore("Debug failing deploy", "", nothing, ("deploy/values.yaml",)),
    Chore("Upgrade PayGate API version", "chore: PayGate API version 2024-06-01",
          replace("billing/gateway.py", 'API_VERSION = "2023-10-01"', 'API_VERSION = "2024-06-01"'),
          ("billing/gateway.py",), tag="rule_change"),
    Chore("Resource limits", "deploy: raise memory limit to 384Mi",
          replace("deploy/values.yaml", "memory: 256Mi", "memory: 384Mi"), ("deploy/values.yaml",)),
    Chore("PayGate version for webhooks", "", nothing, ("billing/gateway.py",), tag="rule_new"),
    Chore("Move reports module", "refactor: reports live in billing/reporting/",
          move("billing/reports.py", "billing/reporting/invoices.py",
               (("tests/test_invoices.py", "billing.reports", "billing.reporting.invoices"),)),
          ("billing/reports.py",), tag="move"),
    Chore("Makefile lint target", "chore: make lint",
          append("Makefile", "\nlint:\n\truff check billing tests\n"), ("Makefile",)),
    Chore("Look into the transport error", "", nothing, ("billing/http.py",)),
    Chore("Customer id validation", "feat: validate customer ids",
          append("billing/invoices.py", "\n\ndef valid_customer_id(value: str) -> bool:\n"
                 '    return value.startswith("cus_") and len(value) > 4\n'),
          ("billing/invoices.py",)),
    Chore("Changelog", "chore: changelog for 1.5.0",
          create("CHANGELOG.md", "# Changelog\n\n## 1.5.0\n\n- PayGate API 2024-06-01\n"),
          ("pyproject.toml",)),
)

BILLING_CHORES = BILLING_CHORES + (
    Chore("Retry policy question", "", nothing, ("billing/settings.py",)),
    Chore("HTTP timeout docs", "docs: document the transport protocol",
          replace("billing/http.py", '"""The HTTP transport used to reach PayGate."""',
                  '"""The HTTP transport used to reach PayGate (one POST per call, '
                  'JSON bodies)."""'),
          ("billing/http.py",)),
    Chore("Where do invoices get their due date", "", nothing, ("billing/invoices.py",)),
    Chore("Chart tag bump", "deploy: chart tag 1.5.0",
          replace("deploy/values.yaml", 'tag: "1.4.0"', 'tag: "1.5.0"'), ("deploy/values.yaml",)),
)

TOOLZ_CHORES: tuple[Chore, ...] = (
    Chore("Read the contributing notes", "", nothing, ("README.rst",)),
    Chore("Typo in get docstring", "docs: typo in itertoolz.get",
          replace("toolz/itertoolz.py", "Works on any value that supports indexing/getitem",
                  "Works on any value that supports indexing (__getitem__)"),
          ("toolz/itertoolz.py",)),
    Chore("Local test instructions", "docs: how to run the tests from a checkout",
          append("README.rst", "\nRunning the tests from a checkout::\n\n"
                 "    python -m pytest toolz/tests\n"), ("README.rst",)),
    Chore("Investigate curry pickling", "", nothing, ("toolz/functoolz.py",)),
    Chore("Benchmark groupby", "", nothing, ("toolz/itertoolz.py",)),
    Chore("Clarify partition_all docs", "docs: partition_all keeps the short tail",
          replace("toolz/itertoolz.py",
                  "    The final tuple may be shorter to accommodate extra elements.",
                  "    The final tuple may be shorter to accommodate extra elements (it is\n"
                  "    never padded)."), ("toolz/itertoolz.py",)),
)

PARCELS_CHORES: tuple[Chore, ...] = (
    Chore("Document the hubs", "docs: hubs and their codes",
          append("README.md", "\n## Hubs\n\nAMS, RTM, LIS and ATH; see `parcels/depots.py`.\n"),
          ("parcels/depots.py",)),
    Chore("Add ruff configuration", "chore: ruff config",
          append("pyproject.toml", '\n[tool.ruff]\nline-length = 100\n'), ("pyproject.toml",)),
    Chore("Why are rate tables in cents", "", nothing, ("parcels/rating/bands.py",)),
    Chore("CI workflow", "ci: run the tests on push",
          create(".github/workflows/ci.yml", "name: ci\non: [push]\njobs:\n  test:\n"
                 "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                 "      - run: pip install -e . pytest && make test\n"), ("Makefile",)),
    Chore("Checkout option order question", "", nothing, ("parcels/checkout.py",)),
    Chore("Makefile lint target", "chore: make lint",
          append("Makefile", "\nlint:\n\truff check parcels tests\n"), ("Makefile",)),
    Chore("Customs value currency question", "", nothing, ("parcels/customs/units.py",)),
    Chore("Quote error message", "fix: name the grams in the over-limit error",
          replace("parcels/rating/bands.py", "is over the carrier's limit",
                  "is over the carrier's weight limit"), ("parcels/rating/bands.py",)),
    Chore("Changelog for 0.4.0", "chore: release 0.4.0",
          create("CHANGELOG.md", "# Changelog\n\n## 0.4.0\n\n- new carriers and services\n"),
          ("pyproject.toml",)),
    Chore("Scan status values", "docs: scan statuses are lower case",
          replace("parcels/carriers/scan.py", '"""Scan events from the carriers."""',
                  '"""Scan events from the carriers (statuses in lower case)."""'),
          ("parcels/carriers/scan.py",)),
)
