"""Pulling from agents' standard places with a watermark per source: only what changed is read,
and a log that grew extends its session."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.ingest.pull import pull
from dreamer.store import Store


def _touch(path: Path, seconds: int) -> None:
    """Set a file's modification time (the clock may not tick between two quick writes)."""
    os.utime(path, ns=(seconds * 10**9, seconds * 10**9))


def test_claude_code_place_pulls_only_what_changed(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    project = tmp_path / ".claude" / "projects" / "-Users-chip-dev-ai-music"
    project.mkdir(parents=True)
    real = (shared_data / "trajectories" / "claude-code" /
            "fed8ce56-bc79-401f-a83e-af084253362f.jsonl").read_text().splitlines(keepends=True)
    log = project / "fed8ce56-bc79-401f-a83e-af084253362f.jsonl"
    log.write_text("".join(real[:8]))
    (project / "other-session.jsonl").write_text("".join(real[:3]).replace(
        "fed8ce56-bc79-401f-a83e-af084253362f", "00000000-0000-0000-0000-000000000002"))
    _touch(log, 1_750_000_000)
    _touch(project / "other-session.jsonl", 1_750_000_000)

    first = pull(store, ["claude-code"])
    assert first.sources[0]["read"] == 2 and len(first.report.ingested) == 2
    again = pull(store, ["claude-code"])
    assert again.sources[0] == {**again.sources[0], "read": 0, "unchanged": 2}
    assert again.report.ingested == again.report.duplicates == []

    log.write_text("".join(real))  # the live log grew
    _touch(log, 1_750_000_100)
    grown = pull(store, ["claude-code"])
    assert (grown.sources[0]["read"], grown.sources[0]["unchanged"]) == (1, 1)
    (item,) = grown.report.ingested
    assert item["sessions"] == [] and len(item["extended"]) == 1  # type: ignore[arg-type]
    assert store.evidence.count_sessions() == 2
    session = store.evidence.session(str(item["extended"][0]))  # type: ignore[index]
    assert len(session.events) == 20
    mark = store.watermarks.get("claude-code")
    assert mark is not None and mark.mtime_ns == 1_750_000_100 * 10**9 and mark.files == 2


def _event(number: int, **fields: object) -> str:
    return json.dumps({"id": number, "timestamp": f"2025-03-01T10:00:0{number}", **fields},
                      indent=2)


def test_openhands_sessions_folder_is_one_session_per_sid(
    store: Store, tmp_path: Path
) -> None:
    events = tmp_path / "sessions" / "3f9a0c" / "events"
    events.mkdir(parents=True)
    (events / "0.json").write_text(_event(0, source="user", action="message",
                                          args={"content": "fix divide()"}))
    (events / "1.json").write_text(_event(1, source="agent", action="run",
                                          args={"command": "python -m pytest -q"}))
    (events / "2.json").write_text(_event(2, source="agent", observation="run", cause=1,
                                          content="1 failed, 2 passed in 0.1s",
                                          extras={"metadata": {"exit_code": 1}}))
    (tmp_path / "sessions" / "3f9a0c" / "metadata.json").write_text("{}")
    _touch(tmp_path / "sessions" / "3f9a0c" / "metadata.json", 1_750_000_000)
    for name in ("0.json", "1.json", "2.json"):
        _touch(events / name, 1_750_000_000)
    first = pull(store, [str(tmp_path / "sessions")])
    (item,) = first.report.ingested
    assert first.report.quarantined == []
    assert [Path(str(s["path"])).name for s in first.report.skipped] == ["metadata.json"]
    session = store.evidence.session(str(item["sessions"][0]))  # type: ignore[index]
    assert session.metadata["native_id"] == "openhands:3f9a0c"
    assert [e.kind.value for e in session.events] == ["message", "command", "test_result"]

    (events / "3.json").write_text(_event(3, source="agent", action="finish",
                                          args={"final_thought": "divide() fixed"}))
    _touch(events / "3.json", 1_750_000_050)
    grown = pull(store, [str(tmp_path / "sessions")])
    (item,) = grown.report.ingested
    assert item["extended"] == [session.id]
    assert len(store.evidence.session(session.id).events) == 4


def test_pull_command_names_missing_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["pull"])
    assert result.exit_code == 2
    assert "no standard place exists" in result.output
    result = CliRunner().invoke(app, ["pull", "claude-code", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["sources"][0]["missing"] is True
