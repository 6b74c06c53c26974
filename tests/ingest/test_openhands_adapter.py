"""OpenHands event streams: the real JSON array, a JSONL fixture, an evaluation wrapper."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.models import EventKind


def test_real_stream_renames_the_file(trajectories: Path, parse) -> None:
    (session,) = parse(trajectories / "openhands" / "wrong_initial_state.json", "openhands")
    assert session.source_format == "openhands" and session.outcome == "finished"
    assert session.started_at == datetime(2025, 1, 27, 23, 16, 50, 239610, UTC)
    assert session.events[0].role == "user"
    assert session.events[0].text == "Please rename game_2048.py to 2048.py"
    (mv,) = [e for e in session.events if e.kind is EventKind.COMMAND and "command" in e.data]
    assert mv.text == "mv /workspace/game_2048.py /workspace/2048.py"
    (result,) = [e for e in session.events if e.data.get("cause") == mv.seq]
    assert result.kind is EventKind.OBSERVATION and result.data["exit_code"] == 0
    reads = [e for e in session.events if e.data.get("tool") == "read"]
    assert [e.text for e in reads] == ["/workspace", "/workspace"]
    final = session.events[-1]
    assert final.kind is EventKind.MESSAGE and final.role == "assistant"
    assert "successfully renamed" in final.text


def test_jsonl_fixture_with_unittest_runs(fixtures: Path, parse) -> None:
    (session,) = parse(fixtures / "openhands" / "events.jsonl", "openhands")
    failing, passing = [e for e in session.events if e.kind is EventKind.TEST_RESULT]
    assert failing.data["runner"] == "unittest" and failing.data["exit_code"] == 1
    assert {t["test_id"]: t["outcome"] for t in failing.data["tests"]} == {
        "test_add (tests.test_calc.CalcTest)": "passed",
        "test_divide (tests.test_calc.CalcTest)": "failed",
    }
    assert passing.data["summary"] == {"passed": 2} and passing.data["exit_code"] == 0
    (edit,) = [e for e in session.events if e.kind is EventKind.EDIT]
    assert edit.data == {"paths": ["src/calc.py"], "tool": "edit",  # relative to working_dir
                         "old_str": "return a // b", "new_str": "return a / b"}
    cat = next(e for e in session.events if e.kind is EventKind.OBSERVATION and e.data.get(
        "exit_code") == 1)
    assert session.events[cat.data["cause"]].text == "cat /nonexistent"
    assert session.metadata["skipped"] == {"observation:agent_state_changed": 1,
                                           "action:condensation": 1}
    assert session.events[-1].text == "divide() now uses true division; the tests pass."


def test_a_file_edited_before_the_first_command_is_relative_to_the_workspace(
    tmp_path: Path, parse
) -> None:
    """The workspace is learnt from every command output of the stream, so an edit that comes
    before any command (here under a workspace that is not OpenHands' default) still names a
    repository path instead of an absolute one that ingest would refuse."""
    root = "/home/dev/work/meter-billing"
    stream = [
        {"id": 0, "timestamp": "2025-04-01T09:00:00", "source": "user", "action": "message",
         "message": "Bills round wrong.", "args": {"content": "Bills round wrong."}},
        {"id": 1, "timestamp": "2025-04-01T09:00:02", "source": "agent", "action": "edit",
         "message": f"Edit {root}/billing/round.py",
         "args": {"path": f"{root}/billing/round.py", "command": "str_replace",
                  "old_str": "round(x)", "new_str": "round_half_up(x)", "thought": "",
                  "impl_source": "oh_aci"}},
        {"id": 2, "timestamp": "2025-04-01T09:00:02.5", "source": "agent", "cause": 1,
         "observation": "edit", "message": "", "content": "The file has been edited.",
         "extras": {"path": f"{root}/billing/round.py", "impl_source": "oh_aci"}},
        {"id": 3, "timestamp": "2025-04-01T09:00:05", "source": "agent", "action": "run",
         "message": "Running command: git log --oneline -1",
         "args": {"command": "git log --oneline -1", "thought": ""}},
        {"id": 4, "timestamp": "2025-04-01T09:00:06", "source": "agent", "cause": 3,
         "observation": "run", "message": "", "content": "132b26e Rename migrations",
         "extras": {"command": "git log --oneline -1", "metadata": {
             "exit_code": 0, "working_dir": root}}},
    ]
    path = tmp_path / "early-edit.json"
    path.write_text(json.dumps(stream))
    (session,) = parse(path, "openhands")
    (edit,) = [e for e in session.events if e.kind is EventKind.EDIT]
    assert edit.data["paths"] == ["billing/round.py"]


def test_evaluation_records_are_one_session_each(tmp_path: Path, fixtures: Path, parse) -> None:
    stream = [json.loads(line) for line in (fixtures / "openhands" / "events.jsonl").open()]
    patch = "diff --git a/src/calc.py b/src/calc.py\n--- a/src/calc.py\n+++ b/src/calc.py\n"
    rows = [
        {"instance_id": f"owner__proj-{n}", "history": stream,
         "instance": {"repo": "owner/proj", "base_commit": "abc123"},
         "test_result": {"git_patch": patch if n == 1 else ""}}
        for n in (1, 2)
    ]
    path = tmp_path / "output.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    first, second = parse(path, "openhands")
    assert (first.ordinal, second.ordinal) == (0, 1) and first.id != second.id
    assert (first.repo, first.commit_start, first.task_id) == ("owner/proj", "abc123",
                                                               "owner__proj-1")
    assert first.outcome == "submitted" and first.events[-1].data["paths"] == ["src/calc.py"]
    assert second.outcome == "finished"
    assert not [e for e in second.events if e.kind is EventKind.SUBMISSION]


@pytest.mark.parametrize(
    ("record", "where"),
    [
        ({"id": 3, "action": "run", "args": "ls"}, "line 2.args"),
        ({"id": 3, "observation": "run", "cause": "x", "content": ""}, "line 2.cause"),
        ({"id": 3, "action": 5, "args": {}}, "line 2.action"),
    ],
)
def test_structural_faults_name_their_line(tmp_path: Path, parse, record, where: str) -> None:
    good = {"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(record) + "\n")
    with pytest.raises(IngestError) as caught:
        parse(path, "openhands")
    assert caught.value.where == where


def test_an_editor_call_keeps_what_it_replaced_and_wrote(tmp_path: Path, parse) -> None:
    """OpenHands keeps the model's ``str_replace_editor`` call in ``tool_call_metadata``; the
    edit's old and new strings come from there when the action's ``args`` do not hold them."""
    call = {"command": "str_replace", "path": "/workspace/pay/money.py",
            "old_str": "    return round(x, 2)\n",
            "new_str": "    return x.quantize(CENT, rounding=ROUND_HALF_UP)\n"}
    metadata = {"function_name": "str_replace_editor", "tool_call_id": "t1",
                "model_response": {"choices": [{"message": {"tool_calls": [
                    {"function": {"name": "str_replace_editor",
                                  "arguments": json.dumps(call)}}]}}]}}
    events = [
        {"id": 0, "timestamp": "2026-03-18T13:30:00", "source": "user", "action": "message",
         "args": {"content": "Round half cents up."}},
        {"id": 1, "timestamp": "2026-03-18T13:31:12", "source": "agent", "message": "",
         "action": "edit", "tool_call_metadata": metadata,
         "args": {"path": "/workspace/pay/money.py", "content": "", "impl_source": "oh_aci"}},
        {"id": 2, "timestamp": "2026-03-18T13:31:13", "source": "agent", "cause": 1,
         "observation": "edit", "message": "I edited the file /workspace/pay/money.py.",
         "content": "The file /workspace/pay/money.py has been edited.",
         "extras": {"path": "/workspace/pay/money.py", "impl_source": "oh_aci"}},
    ]
    path = tmp_path / "stream.json"
    path.write_text(json.dumps(events))
    (session,) = parse(path, "openhands")
    (edit,) = [e for e in session.events if e.kind is EventKind.EDIT]
    assert edit.data["paths"] == ["pay/money.py"]
    assert edit.data["old_str"] == call["old_str"] and edit.data["new_str"] == call["new_str"]
