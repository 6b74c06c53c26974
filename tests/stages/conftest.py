"""A synthetic extraction bank with the corpus's planted noise, in realistic words.

Planted: one lesson in three phrasings (dedupe); a rule about the request timeout that changed
in commit c0ffee1 (conflicts); generic advice (forgetting); three ImportError episodes with one
cause (abstraction); a long narrative (compression); a procedure confirmed by three sessions
(promotion); a rule whose evidence lies in one module (specialization); and the first phrasing
again in another repository (scopes never leak).
"""

from __future__ import annotations

import types
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.models import Bank, BankOrigin, Citation, CitationKind, Memory, MemoryType, Scope
from dreamer.stages import STAGES, Similarity, StageContext, StageResult

REPO = "acme/shop"
OTHER_REPO = "acme/warehouse"
CHANGE_COMMIT = "c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b"


def _t(day: int) -> datetime:
    return datetime(2024, 1, 1, tzinfo=UTC).replace(day=1 + day % 28, month=1 + day // 28)


def session(sid: str, seq: int = 3) -> Citation:
    return Citation(kind=CitationKind.SESSION, ref=f"ses_{sid}:{seq}")


def file(path: str, start: int, end: int, commit: str = "a1b2c3d") -> Citation:
    return Citation(
        kind=CitationKind.FILE,
        ref=path,
        path=path,
        start_line=start,
        end_line=end,
        lines_sha256="0" * 64,
        commit=commit,
    )


def memory(
    kind: str, summary: str, cites: list[Citation], day: int, repo: str = REPO, **extra: object
) -> Memory:
    return Memory(
        type=MemoryType(kind),
        scope=Scope(repo=repo),
        summary=summary,
        citations=tuple(cites),
        created_at=_t(day),
        confidence=0.6,
        **extra,
    )


STATUS = [
    memory(
        "failure",
        "Order status must be persisted via LEGACY_STATUS_CODES, never OrderStatus.value.",
        [session("a1"), file("src/orders/models.py", 40, 52)],
        3,
    ),
    memory(
        "procedural",
        "Do not store OrderStatus.value in the orders table; map the status "
        "through LEGACY_STATUS_CODES before saving.",
        [session("b2"), file("src/orders/models.py", 40, 52)],
        5,
    ),
    memory(
        "domain",
        "When saving an order, persist the status using LEGACY_STATUS_CODES "
        "rather than OrderStatus.value.",
        [
            session("c3", 7),
            Citation(kind=CitationKind.TEST, ref="tests/test_orders.py::test_status_roundtrip"),
        ],
        8,
    ),
]
TIMEOUT_OLD = memory(
    "domain",
    "The request timeout is read from config/settings.toml (request_timeout = 30); "
    "change it there.",
    [session("d4"), file("config/settings.toml", 12, 12)],
    10,
)
TIMEOUT_NEW = memory(
    "domain",
    "request_timeout is no longer read from config/settings.toml; it is set in "
    "deploy/values.yaml (request_timeout: 60).",
    [
        session("e5"),
        Citation(kind=CitationKind.COMMIT, ref=CHANGE_COMMIT),
        file("deploy/values.yaml", 30, 31, commit=CHANGE_COMMIT),
    ],
    40,
)
GENERIC = [
    memory(
        "procedural", "Always test your changes carefully before submitting.", [session("f6")], 12
    ),
    memory(
        "procedural",
        "Be careful when editing code and double check your work.",
        [session("g7")],
        14,
    ),
]
EPISODES = [
    memory(
        "failure",
        "test_checkout failed with ImportError: cannot import name Money from "
        "shop.pricing; importing from shop.pricing.money fixed it.",
        [session("h8")],
        15,
    ),
    memory(
        "failure",
        "Adding discounts hit ImportError on Money from shop.pricing; the fix was "
        "to import shop.pricing.money directly.",
        [session("i9")],
        17,
    ),
    memory(
        "failure",
        "A circular import between shop.cart and shop.pricing raised ImportError "
        "for Money; import from shop.pricing.money to avoid the cycle.",
        [session("j10")],
        19,
    ),
]
INTEGRATION = memory(
    "procedural",
    "Run integration tests with INTEGRATION=1 make test-integration; plain make test skips them.",
    [session("k11"), session("l12"), session("m13")],
    20,
)
LONG = memory(
    "episodic",
    "First the agent tried to rerun the failing migration several times and looked "
    "at the logs for a while without progress. Then it opened the alembic history and compared "
    "revisions one by one, which took most of the session. Eventually it found that two heads "
    "existed after the merge. Migrations fail with 'Multiple head revisions' until "
    "alembic merge heads is run in migrations/; run it before alembic upgrade head.",
    [session("n14"), file("migrations/env.py", 1, 30)],
    22,
)
BILLING = memory(
    "domain",
    "Invoice totals are computed in cents by billing.totals.sum_cents; never round "
    "floats in invoice code.",
    [session("o15"), file("src/billing/totals.py", 5, 20), file("src/billing/invoice.py", 50, 61)],
    24,
)
OTHER = memory("failure", STATUS[0].summary, [session("p16")], 25, repo=OTHER_REPO)


def extraction_bank() -> Bank:
    """The planted bank, as extraction would store it."""
    memories = (
        *STATUS,
        TIMEOUT_OLD,
        TIMEOUT_NEW,
        *GENERIC,
        *EPISODES,
        INTEGRATION,
        LONG,
        BILLING,
        OTHER,
    )
    return Bank(repo=None, origin=BankOrigin(kind="extraction"), memories=memories)


@pytest.fixture
def planted() -> types.SimpleNamespace:
    """The planted bank and its parts, by name."""
    return types.SimpleNamespace(
        bank=extraction_bank(),
        STATUS=STATUS,
        TIMEOUT_OLD=TIMEOUT_OLD,
        TIMEOUT_NEW=TIMEOUT_NEW,
        GENERIC=GENERIC,
        EPISODES=EPISODES,
        INTEGRATION=INTEGRATION,
        LONG=LONG,
        BILLING=BILLING,
        OTHER=OTHER,
        REPO=REPO,
        CHANGE_COMMIT=CHANGE_COMMIT,
        memory=memory,
        session=session,
        file=file,
    )


@pytest.fixture
def context(tmp_path: Path) -> StageContext:
    """An offline context with the fast TF-IDF backend and skills under tmp."""
    return StageContext(similarity=Similarity("tfidf"), skills_dir=tmp_path / "skills")


def run_stage(name: str, bank: Bank, context: StageContext, **params: object) -> StageResult:
    """Run one registered stage with ``params``."""
    cls = STAGES.get(name)
    return cls(cls.Config(**params)).run(bank, context)


@pytest.fixture
def run() -> object:
    return run_stage


def bank_of(*memories: Memory) -> Bank:
    return Bank(origin=BankOrigin(kind="extraction"), memories=tuple(memories))


@pytest.fixture
def make_bank() -> object:
    return bank_of


@pytest.fixture
def canned(tmp_path: Path) -> object:
    """``canned(respond)`` -> (a context whose LM answers ``respond(prompt) -> fields``, the
    engine, which keeps every prompt)."""
    from dreamer.lm import canned_lm

    def build(respond):  # type: ignore[no-untyped-def]
        lm, engine = canned_lm(respond)
        return StageContext(
            similarity=Similarity("tfidf"), lm=lm, skills_dir=tmp_path / "skills"
        ), engine

    return build
