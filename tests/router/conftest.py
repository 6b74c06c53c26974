"""Fixtures of the router's tests: memories with real citations, banks, working copies."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.models import Bank, Citation, Link, Memory, Scope
from dreamer.router import Router, RouterConfig, lines_sha256

WHEN = datetime(2026, 3, 1, tzinfo=UTC)

ORDERS_PY = [
    "def parse_order(raw):",
    "    data = json.loads(raw)",
    "    if 'tax' not in data:",
    "        raise KeyError('tax')",
    "    return Order(**data)",
    "",
    "def total(order):",
    "    return order.net + order.tax",
]


def file_citation(path: str, lines: Sequence[str], start: int, end: int) -> Citation:
    """A file citation of lines ``start``..``end`` of ``lines``, hashed as extraction does."""
    return Citation(kind="file", ref=path, path=path, start_line=start, end_line=end,
                    lines_sha256=lines_sha256(lines[start - 1:end]))


def memory(
    summary: str, repo: str = "acme/shop", *, citations: Sequence[Citation] = (),
    kind: str = "failure", confidence: float = 0.5, links: Sequence[Link] = (),
    status: str = "active", created_at: datetime = WHEN, **scope: str | None,
) -> Memory:
    session = f"ses_{hashlib.sha256(summary.encode()).hexdigest()[:12]}:1"
    cites = tuple(citations) or (Citation(kind="session", ref=session),)
    return Memory(
        type=kind, scope=Scope(repo=repo, **scope), summary=summary, citations=cites,
        confidence=confidence, links=tuple(links), status=status, created_at=created_at,
    )


def bank_of(*memories: Memory) -> Bank:
    return Bank(memories=tuple(memories))


@pytest.fixture
def mem() -> Callable[..., Memory]:
    """``mem(summary, repo="acme/shop", citations=..., branch=..., ...)`` -> Memory."""
    return memory


@pytest.fixture
def cite() -> Callable[..., Citation]:
    """``cite(path, lines, start, end)`` -> a file citation hashed as extraction does."""
    return file_citation


@pytest.fixture
def bank() -> Callable[..., Bank]:
    """``bank(*memories)`` -> Bank."""
    return bank_of


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A working copy holding ``src/orders.py``."""
    root = tmp_path / "checkout"
    (root / "src").mkdir(parents=True)
    (root / "src" / "orders.py").write_text("\n".join(ORDERS_PY) + "\n")
    return root


@pytest.fixture
def bm25_router() -> Router:
    """A fresh router without the vector leg (fast, no model)."""
    return Router(RouterConfig(embeddings=False))


@pytest.fixture
def orders_lines() -> list[str]:
    """The lines of ``src/orders.py`` in the ``checkout`` fixture."""
    return list(ORDERS_PY)
