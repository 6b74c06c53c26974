"""Claude Code JSONL: the real session, and a fixture with two sessions and unknown records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.models import EventKind, Session


def test_real_session(trajectories: Path, parse) -> None:
    path = trajectories / "claude-code" / "fed8ce56-bc79-401f-a83e-af084253362f.jsonl"
    (session,) = parse(path, "claude-code")
    assert session.source_format == "claude-code"
    assert session.metadata["cwd"] == "/Users/chip/dev/ai-music"
    assert session.metadata["session_id"] == "fed8ce56-bc79-401f-a83e-af084253362f"
    assert session.metadata["summaries"] == ["AI Music Generation: Diverse Embedding Mapping"]
    assert session.started_at is not None and session.started_at.tzinfo is not None
    commands = [e.text for e in session.events if e.kind is EventKind.COMMAND]
    assert commands[:3] == ["git status", "git remote -v", "git add ."]
    assert commands.count("git push origin main") == 2
    results = {e.data["cause"]: e for e in session.events if e.kind is EventKind.OBSERVATION}
    status = next(e for e in session.events if e.text == "git status")
    assert results[status.seq].text.startswith("On branch main")
    # The first commit and push were rejected by the user; the retries after "continue" ran.
    rejected = session.metadata["rejected_tool_calls"]
    assert [session.events[seq].text.split()[:2] for seq in rejected] == [
        ["git", "commit"], ["git", "push"]]
    for seq in rejected:
        assert results[seq].data["is_error"] is True
        assert "doesn't want to" in results[seq].text
    pushed = [e for e in session.events if e.text == "git push origin main"][-1]
    assert "main -> main" in results[pushed.seq].text and "is_error" not in results[pushed.seq].data
    assert session.events[0].text == "push to github" and session.events[0].role == "user"
    assert session.events[-1].text.startswith("Successfully pushed to GitHub!")


def test_two_sessions_tree_order_and_unknown_records(fixtures: Path, parse) -> None:
    first, second = parse(fixtures / "claude-code" / "two_sessions.jsonl", "claude-code")
    assert [s.id for s in (first, second)] == [Session.make_id(first.raw_sha256, n) for n in (0, 1)]
    assert (first.branch, second.branch) == ("fix-divide", "main")
    assert first.metadata["cwd"].endswith("/proj")
    # A tool result written before its tool call still follows it.
    kinds = [e.kind.value for e in first.events]
    assert kinds[:4] == ["message", "message", "command", "test_result"]
    run = first.events[3]
    assert run.data["cause"] == 2 and run.data["exit_code"] == 1
    assert run.data["command"] == "pytest tests/test_calc.py"
    assert run.data["tests"] == [
        {"test_id": "tests/test_calc.py::test_divide", "outcome": "failed"}]
    assert first.events[1].data == {"thought": "Run the failing test first."}
    read = first.events[4]
    assert read.kind is EventKind.COMMAND and read.data == {"tool": "Read"}
    assert first.events[5].text.startswith("     1\tdef divide")  # content as parts
    (edit,) = [e for e in first.events if e.kind is EventKind.EDIT]
    assert edit.data == {"paths": ["src/calc.py"], "tool": "Edit"}
    assert [first.events[s].text for s in first.metadata["sidechain_seqs"]] == [
        "Sub-agent: searching for other callers."]
    (rejected,) = first.metadata["rejected_tool_calls"]
    assert first.events[rejected].text == "git push --force"
    assert first.metadata["forks"] == 1
    assert first.metadata["skipped"] == {"file-history-snapshot": 1, "queue-operation": 1}
    assert first.metadata["summaries"] == ["Fix floor division in divide()"]
    assert second.metadata["skipped"] == {"part:image": 1}
    assert [e.data.get("tool") for e in second.events if e.kind is EventKind.COMMAND] == ["Grep"]
    assert [e.role for e in second.events if e.kind is EventKind.MESSAGE] == [
        "user", "system", "assistant"]


def test_faults(tmp_path: Path, parse) -> None:
    path = tmp_path / "bad.jsonl"
    good = {"type": "user", "uuid": "u1", "sessionId": "s", "message": {"content": "hi"}}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "uuid": 7}) + "\n")
    with pytest.raises(IngestError) as caught:
        parse(path, "claude-code")
    assert caught.value.where == "line 2.uuid"
    path.write_text(json.dumps({"type": "summary", "summary": "s", "leafUuid": "x"}) + "\n")
    with pytest.raises(IngestError, match="no user or assistant records"):
        parse(path, "claude-code")


def test_real_session_repository_comes_from_git_remote(trajectories: Path) -> None:
    """The driver completes what the adapter leaves: the session ran `git remote -v`, which
    names the repository in full; the working directory only gives its last part."""
    from dreamer.ingest import Defaults, parse_file

    path = trajectories / "claude-code" / "fed8ce56-bc79-401f-a83e-af084253362f.jsonl"
    _, (session,) = parse_file(path.read_bytes(), str(path), Defaults())
    assert session.repo == "chiphuyen/ai-music"
    assert session.metadata["repo_source"] == "git-remote"
    assert "warnings" not in session.metadata
