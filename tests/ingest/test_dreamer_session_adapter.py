"""dreamer's own ``dreamer-session/1`` JSONL: several sessions per file, strict validation."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.models import EventKind

SESSION = {"type": "session", "format": "dreamer-session/1", "repo": "acme/shop"}
COMMAND = {"type": "event", "kind": "command", "text": "pytest", "data": {"command": "pytest"}}


def test_fixture_with_two_sessions(fixtures: Path, parse) -> None:
    first, second = parse(fixtures / "dreamer" / "two_sessions.jsonl", "dreamer",
                          repo="acme/named", branch="dev")
    assert (first.repo, first.branch, first.task_id, first.outcome) == (
        "acme/named", "main", "PROJ-7", "resolved")
    assert first.commit_start == "0123456789abcdef0123456789abcdef01234567"
    assert first.started_at == datetime(2025, 5, 1, 6, 0, tzinfo=UTC)  # +02:00 made UTC
    assert first.ended_at == datetime(2025, 5, 1, 6, 30, tzinfo=UTC)  # from the last event
    assert first.metadata == {"agent": "in-house-bot", "repo_source": "--repo"}
    assert [e.kind.value for e in first.events] == [
        "message", "command", "test_result", "edit", "review", "submission"]
    result = first.events[2]
    assert result.data["tests"][0] == {"test_id": "tests/test_calc.py::test_divide",
                                       "outcome": "failed"}
    assert first.events[-1].data["paths"] == ["src/calc.py"]  # derived from the diff
    assert first.events[4].data == {"author": "alice", "ref": "PR-12#c3",
                                    "paths": ["tests/test_calc.py"]}
    assert (second.ordinal, second.task_id, second.branch) == (1, "PROJ-8", "dev")
    assert second.events[0].kind is EventKind.QA_DEFECT and second.events[0].seq == 0


@pytest.mark.parametrize(
    ("records", "where", "reason"),
    [
        ([COMMAND], "line 1", "before any session"),
        ([SESSION, {**COMMAND, "kind": "shell"}], "line 2.kind", "Input should be"),
        ([SESSION, {**COMMAND, "data": {"exit_code": 1}}], "line 2.data.exit_code", "Extra"),
        ([SESSION, COMMAND, {"type": "event", "kind": "observation",
                             "data": {"exit_code": "1", "cause": 0}}],
         "line 3.data.exit_code", "valid integer"),
        ([SESSION, COMMAND, {"type": "event", "kind": "observation", "data": {"cause": 5}}],
         "line 3.data.cause", "not an earlier event"),
        ([SESSION, {**COMMAND, "timestamp": "2025-01-01T10:00:00"}], "line 2.timestamp",
         "timezone"),
        ([{**SESSION, "format": "dreamer-session/2"}], "line 1.format", "Input should be"),
        ([SESSION, {**COMMAND, "colour": "red"}], "line 2.colour", "Extra"),
        ([SESSION, {"type": "note"}], "line 2", "'session' or 'event'"),
        ([SESSION, {"type": "event", "kind": "test_result",
                    "data": {"tests": [{"test_id": "t", "outcome": "green"}]}}],
         "line 2.data.tests[0].outcome", "Input should be"),
    ],
)
def test_bad_records_name_their_line(tmp_path: Path, parse, records, where: str,
                                     reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    with pytest.raises(IngestError) as caught:
        parse(path, "dreamer")
    assert caught.value.where == where
    assert reason in caught.value.reason


def test_blank_lines_keep_line_numbers_true(tmp_path: Path, parse) -> None:
    path = tmp_path / "gaps.jsonl"
    path.write_text(json.dumps(SESSION) + "\n\n\n" + json.dumps({**COMMAND, "kind": 3}) + "\n")
    with pytest.raises(IngestError) as caught:
        parse(path, "dreamer")
    assert caught.value.where == "line 4.kind"
