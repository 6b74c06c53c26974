"""Time-ordered runs: each row's pack draws only on sessions of earlier rows."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.models import Bank, Citation, CitationKind, Memory, MemoryType, Scope, Session
from evals.agents.base import make_agent
from evals.errors import TaskLoadError
from evals.examples.gitrepo import init_repo
from evals.swebench.ordered import from_sessions, in_time_order, run_in_order
from evals.tasks import RepoSource, Task

REPO = "acme/lib"


def _row(instance_id: str, day: int, source: RepoSource | None = None,
         repo: str = REPO) -> Task:
    return Task.model_validate({
        "instance_id": instance_id, "repo": repo, "base_commit": "HEAD",
        "created_at": datetime(2024, 1, day, tzinfo=UTC),
        "problem_statement": f"parse_price rounds wrongly ({instance_id})",
        "FAIL_TO_PASS": ["tests/test_price.py::test_round"],
        **({"source": source} if source else {}),
    })


def _memory(summary: str, *sessions: str, kind: CitationKind = CitationKind.SESSION) -> Memory:
    return Memory(type=MemoryType.DOMAIN, scope=Scope(repo=REPO), summary=summary,
                  citations=tuple(Citation(kind=kind, ref=f"{s}:3") for s in sessions))


def _session(session_id: str, task_id: str) -> Session:
    return Session(id=session_id, source_format="dreamer", raw_sha256="0" * 64, repo=REPO,
                   task_id=task_id)


def test_rows_are_ordered_by_creation_within_one_repository() -> None:
    rows = [_row("acme__lib-3", 9), _row("acme__lib-1", 2), _row("acme__lib-2", 5)]
    assert [t.instance_id for t in in_time_order(rows)] == [
        "acme__lib-1", "acme__lib-2", "acme__lib-3"]
    mixed = [*rows, _row("other__x-1", 1, repo="other/x")]
    with pytest.raises(TaskLoadError, match="2 repositories"):
        in_time_order(mixed)
    assert [t.instance_id for t in in_time_order(mixed, "other/x")] == ["other__x-1"]


def test_only_memories_wholly_from_allowed_sessions_are_kept() -> None:
    early = _memory("parse_price uses banker's rounding", "ses_a")
    mixed = _memory("prices are stored in cents", "ses_a", "ses_b")
    unsourced = _memory("the rounding helper lives in money.py", "abc123",
                        kind=CitationKind.COMMIT)
    bank = Bank(repo=REPO, memories=(early, mixed, unsourced))
    assert from_sessions(bank, ["ses_a"]).memories == (early,)
    assert set(from_sessions(bank, ["ses_a", "ses_b"]).memories) == {early, mixed}
    assert from_sessions(bank, []).memories == ()


def test_each_row_sees_only_earlier_rows_sessions_and_the_selector_says_it_has_no_choice(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "lib"
    init_repo(repo, {"lib/__init__.py": "", "tests/test_price.py": "def test_round():\n"
                     "    assert round(2.5) == 2\n"}, "base")
    source = RepoSource(kind="git", location=str(repo))
    rows = in_time_order([_row("acme__lib-2", 5, source), _row("acme__lib-1", 2, source)])
    bank = Bank(repo=REPO, memories=(
        _memory("parse_price must use banker's rounding (round half to even)", "ses_1"),
        _memory("parse_price was fixed by rounding half up", "ses_2"),
    ))
    sessions = [_session("ses_1", "acme__lib-1"), _session("ses_2", "acme__lib-2")]
    out = run_in_order(rows, bank, sessions, make_agent("selector"), "selector",
                       tmp_path / "run", budget=None, timeout=120)
    first, second = out
    assert (first.instance_id, first.earlier_sessions, first.pack_memories) == (
        "acme__lib-1", 0, 0)
    # The second row sees the first row's session, never its own.
    assert (second.earlier_sessions, second.pack_memories) == (1, 1)
    assert all(r.note.startswith("no candidates: the selector agent has nothing to choose")
               for r in out)
    assert (tmp_path / "run" / "002" / "acme__lib-2" / "result.json").exists()
