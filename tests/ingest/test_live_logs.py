"""Live logs: a session file ingested at half length and again whole is one session with all
its events, extracted again without any memory twice."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from dreamer.extract import extract
from dreamer.ingest import ingest_paths
from dreamer.models import EventKind, Session
from dreamer.store import Store, open_store

REAL = "claude-code/fed8ce56-bc79-401f-a83e-af084253362f.jsonl"


@pytest.fixture(scope="module")
def claude_logs() -> ModuleType:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("claude_logs", Path(__file__).with_name(
        "claude_logs.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _shape(session: Session) -> list[tuple[str, str | None, str]]:
    return [(e.kind.value, e.role, e.text) for e in session.events]


def _grow(store: Store, text: str, folder: Path, name: str) -> tuple[Session, list[dict]]:
    """Ingest the first half of ``text`` (by lines), then the whole, at the same path."""
    lines = text.splitlines(keepends=True)
    path = folder / name
    path.write_text("".join(lines[: len(lines) // 2]))
    first = ingest_paths(store, [path])
    assert extract(store).sessions == 1
    path.write_text(text)
    second = ingest_paths(store, [path])
    assert extract(store).sessions == 1  # read again, once
    assert extract(store).sessions == 0
    assert len(first.ingested) == len(second.ingested) == 1
    (session_id,) = first.ingested[0]["sessions"]  # type: ignore[misc]
    assert second.ingested[0]["sessions"] == []
    assert second.ingested[0]["extended"] == [session_id]
    assert second.summary()["sessions"] == [] and second.summary()["extended"] == [session_id]
    return store.evidence.session(session_id), [first.summary(), second.summary()]


def test_real_claude_log_half_then_whole_is_one_session(
    store: Store, shared_data: Path, tmp_path: Path
) -> None:
    text = (shared_data / "trajectories" / REAL).read_text()
    grown, _ = _grow(store, text, tmp_path, "session.jsonl")
    assert store.evidence.count_sessions() == 1
    alone = open_store(f"sqlite:///{tmp_path / 'alone.db'}")
    whole = tmp_path / "whole" / "session.jsonl"
    whole.parent.mkdir()
    whole.write_text(text)
    ingest_paths(alone, [whole])
    (only,) = alone.evidence.sessions()
    assert _shape(grown) == _shape(alone.evidence.session(only.id))
    assert len(grown.events) == 20 and grown.metadata["version"] == 2
    files = store.evidence.versions(grown.id)
    assert [(f["events_before"], f["events_after"]) for f in files] == [
        (0, files[0]["events_after"]), (files[0]["events_after"], 20)]
    assert 0 < files[0]["events_after"] < 20
    # Every output still answers its own command after renumbering.
    for event in grown.events:
        if event.kind in (EventKind.OBSERVATION, EventKind.TEST_RESULT) and "cause" in event.data:
            assert grown.events[event.data["cause"]].kind in (EventKind.COMMAND, EventKind.EDIT)
    # The verbatim files are both kept.
    assert len(store.evidence.ingestions()) == 2
    # Extraction read it twice (half, then whole) and records the version it read last; any
    # bank it wrote holds no memory twice.
    with store.sessions() as db:
        from dreamer.extract.records import ExtractionRow

        (row,) = db.query(ExtractionRow).all()
        assert (row.session_id, row.session_version) == (grown.id, 2)
    for bank_id in filter(None, [store.banks.alias("extraction", grown.repo)]):
        active = [(m.type.value, m.summary) for m in store.banks.get(bank_id).active]
        assert len(active) == len(set(active))


def _extract_text(store: Store, log_text: str, folder: Path, grow: bool) -> list[tuple[str, str]]:
    if grow:
        lines = log_text.splitlines(keepends=True)
        path = folder / "live.jsonl"
        for cut in (len(lines) // 3, 2 * len(lines) // 3, len(lines)):
            path.write_text("".join(lines[:cut]))
            ingest_paths(store, [path])
            extract(store)
    else:
        path = folder / "whole.jsonl"
        path.write_text(log_text)
        ingest_paths(store, [path])
        extract(store)
    bank_id = store.banks.alias("extraction", "shop-orders")
    if bank_id is None:
        return []
    bank = store.banks.get(bank_id)
    return sorted((m.type.value, m.summary) for m in bank.active)


def test_written_claude_log_grown_in_three_pulls_extracts_as_the_whole(
    store: Store, tmp_path: Path, claude_logs: ModuleType
) -> None:
    text = claude_logs.fix_session().text()
    grown = _extract_text(store, text, tmp_path, grow=True)
    alone = open_store(f"sqlite:///{tmp_path / 'alone.db'}")
    (tmp_path / "alone").mkdir()
    whole = _extract_text(alone, text, tmp_path / "alone", grow=False)
    assert grown == whole
    assert all(n == 1 for n in Counter(grown).values()), "a memory is active twice"
    (session,) = store.evidence.sessions()
    assert session.metadata["version"] == 3
    with store.sessions() as db:
        from dreamer.extract.records import ExtractionRow

        (row,) = db.query(ExtractionRow).all()
        assert row.session_version == 3


def test_written_claude_log_ingests_with_edits_diffs_and_tests(
    tmp_path: Path, claude_logs: ModuleType
) -> None:
    """Claude Code's own fields, no hand conversion: cwd gives the repository-relative paths,
    gitBranch the branch, toolUseResult the edit's diff, Bash output the test results."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    path = tmp_path / "7d9c1a52-0b3e-4c1e-9a77-5f1f2e3d4c5b.jsonl"
    path.write_text(claude_logs.fix_session().text())
    report = ingest_paths(store, [path])
    assert report.quarantined == [] and report.warnings == []
    session = store.evidence.session(str(report.ingested[0]["sessions"][0]))  # type: ignore[index]
    assert (session.repo, session.branch) == ("shop-orders", "fix/cancel-paid")
    assert session.metadata["native_id"] == "claude-code:7d9c1a52-0b3e-4c1e-9a77-5f1f2e3d4c5b"
    runs = [e for e in session.events if e.kind is EventKind.TEST_RESULT]
    assert [r.data["summary"] for r in runs] == [{"failed": 1, "passed": 2}, {"passed": 3}]
    edit, write = [e for e in session.events if e.kind is EventKind.EDIT]
    assert edit.data["paths"] == ["src/orders/transitions.py"]
    assert "+    refund_first(order); order.transition('cancelled')" in edit.data["diff"]
    assert edit.data["diff"].startswith("--- a/src/orders/transitions.py\n")
    assert write.data["diff"].startswith("--- /dev/null\n+++ b/docs/transitions.md\n@@ -0,0 +1,1")
    assert json.dumps(session.model_dump(mode="json"))  # stored and read back whole
