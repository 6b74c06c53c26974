"""setting: a stated value of a setting in a file becomes a memory only when observed."""

from __future__ import annotations

from dreamer.extract.candidate import to_memory
from dreamer.extract.citations import CodeCiter, GitReader
from dreamer.extract.evidence import SessionView
from dreamer.extract.gate import Gate
from dreamer.extract.settings import settings
from dreamer.models import CitationKind, EventKind
from tests.extract.conftest import make_session

SHOWN = '[File: /shop/shop/config.py (4 lines total)]\n1:"""Settings."""\n2:\n3:PAGE_SIZE = 50\n4:'


def _view(thought: str, shown: str = SHOWN) -> SessionView:
    _, session = make_session([
        (EventKind.MESSAGE, "user", "Check the pagination size.", {}),
        (EventKind.COMMAND, "assistant", "open shop/config.py", {"command": "open shop/config.py"}),
        (EventKind.OBSERVATION, "environment", shown, {"cause": 1}),
        (EventKind.MESSAGE, "assistant", thought, {"thought": thought}),
    ])
    return SessionView(session)


def _citer() -> CodeCiter:
    return CodeCiter(GitReader(), None, ("abc123",))


def test_observed_setting_is_kept_with_its_reason() -> None:
    view = _view("Found it. Pages hold 50 orders (PAGE_SIZE = 50 in shop/config.py); keep it.")
    [cand] = settings(view, _citer())
    assert cand.summary.startswith("Pages hold 50 orders")
    assert cand.tags == ["setting:shop/config.py:PAGE_SIZE=50"]
    [code] = [c for c in cand.citations if c.kind is CitationKind.FILE]
    assert (code.path, code.start_line, code.end_line, code.commit) == (
        "shop/config.py", 3, 3, "abc123")
    refs = {c.ref for c in cand.citations if c.kind is CitationKind.SESSION}
    assert refs == {f"{view.session.id}:3", f"{view.session.id}:2"}  # statement, observation
    written = to_memory(cand).memory
    verdict = Gate().judge(cand, set(), written.id)
    assert verdict.kept and "confirmed by observation" in verdict.detail
    assert "confirmed by observation: shop/config.py:3" in written.lineage.reason


def test_value_in_prose_is_confirmed_by_a_quoted_assignment() -> None:
    shown = (
        '[File: /b/billing/gateway.py (2 lines total)]\n1:import os\n2:API_VERSION = "2023-10-01"'
    )
    view = _view("Send API version 2023-10-01 (API_VERSION in billing/gateway.py).", shown)
    [cand] = settings(view, _citer())
    assert cand.tags == ["setting:billing/gateway.py:API_VERSION=2023-10-01"]


def test_unconfirmed_statements_propose_nothing() -> None:
    # the file shows another value, the file was never shown, or no value is stated
    assert not settings(_view("PAGE_SIZE = 100 in shop/config.py, keep it."), _citer())
    assert not settings(_view("PAGE_SIZE = 50 in shop/other.py, keep it."), _citer())
    assert not settings(_view("PAGE_SIZE in shop/config.py matters a lot."), _citer())
    assert not settings(_view("Be careful with shop/config.py."), _citer())
