"""mini-swe-agent: the early message lists (real files) and the current ``.traj.json`` format."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.models import EventKind


def test_github_issue_commands_carry_exit_codes(trajectories: Path, parse) -> None:
    (session,) = parse(trajectories / "mini-swe-agent" / "github_issue.traj.json",
                       "mini-swe-agent", repo="swe-agent/test-repo")
    assert (session.source_format, session.repo, session.outcome) == (
        "mini-swe-agent", "swe-agent/test-repo", "submitted")
    commands = [e for e in session.events if e.kind is EventKind.COMMAND]
    assert len(commands) == 10
    assert commands[0].text.startswith("cat /Users/fuchur/") and commands[1].text == "ls -la"
    replies = {e.data["cause"]: e for e in session.events if e.kind is EventKind.OBSERVATION}
    codes = [replies[c.seq].data["exit_code"] for c in commands if c.seq in replies]
    assert codes == [1, 0, 0, 0, 0, 0, 0, 1, 0]
    assert replies[commands[0].seq].text.startswith("cat: /Users/fuchur/")
    assert "<returncode>" not in replies[commands[0].seq].text
    assert commands[-1].text.startswith("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    (submission,) = [e for e in session.events if e.kind is EventKind.SUBMISSION]
    assert submission.data["paths"] == ["tests/missing_colon.py"]
    assert '+        raise ValueError("Cannot divide by zero")' in submission.data["diff"]
    assert session.events[0].role == "user" and "SyntaxError" in session.events[0].text
    assert session.metadata["messages_skipped"] == 1  # the system prompt


def test_local_run_submits_nothing(trajectories: Path, parse) -> None:
    (session,) = parse(trajectories / "mini-swe-agent" / "local.traj.json", "mini-swe-agent")
    assert [e.kind.value for e in session.events] == [
        "message", "message", "command", "observation", "message", "command"]
    assert session.events[3].data == {"exit_code": 0, "cause": 2}
    assert session.events[3].text == "hello world\n"
    assert session.outcome == "submitted"


def test_current_format_fixture(fixtures: Path, parse) -> None:
    (session,) = parse(fixtures / "mini-swe-agent" / "current.traj.json", "mini-swe-agent")
    assert session.outcome == "submitted"
    assert session.metadata["mini_version"] == "2.0.0"
    assert session.metadata["model_stats"] == {"instance_cost": 0.0123, "api_calls": 5}
    assert session.started_at == datetime(2025, 1, 15, 10, 20, 0, 500000, UTC)
    assert session.events[0].text.startswith("Please solve this issue")  # content as parts
    failing, passing = [e for e in session.events if e.kind is EventKind.TEST_RESULT]
    assert failing.data["exit_code"] == 1 and failing.data["summary"] == {"failed": 1, "passed": 2}
    assert "tests/test_calc.py::test_divide" in {t["test_id"] for t in failing.data["tests"]}
    assert not failing.text.startswith("<returncode>")  # extra.raw_output, the bare output
    # The tool-call reply is matched to its command by tool_call_id.
    assert session.events[passing.data["cause"]].text == "python -m pytest tests/test_calc.py"
    (sed,) = [e for e in session.events if e.kind is EventKind.OBSERVATION]
    assert sed.data == {"exit_code": 0, "cause": sed.seq - 1}
    # Two fenced blocks is a format error: no command ran, the feedback is a user message.
    assert any(e.role == "user" and "EXACTLY ONE" in e.text for e in session.events)
    commands = [e.text for e in session.events if e.kind is EventKind.COMMAND]
    assert "ls" not in commands and "pwd" not in commands and len(commands) == 4
    (submission,) = [e for e in session.events if e.kind is EventKind.SUBMISSION]
    assert submission.data["paths"] == ["src/calc.py"]


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ({"messages": "nope", "trajectory_format": "mini-swe-agent-1"}, "messages"),
        ({"messages": [{"role": "user", "content": "x"}, {"content": "y"}],
          "trajectory_format": "mini-swe-agent-1"}, "messages[1].role"),
        ({"messages": [{"role": "assistant", "content": 7}],
          "trajectory_format": "mini-swe-agent-1"}, "messages[0].content"),
        ([{"role": "user", "content": "x"}, {"role": 3, "content": "y"}], "[1].role"),
    ],
)
def test_structural_faults_name_their_place(tmp_path: Path, parse, document, where: str) -> None:
    path = tmp_path / "bad.traj.json"
    path.write_text(json.dumps(document))
    with pytest.raises(IngestError) as caught:
        parse(path, "mini-swe-agent")
    assert caught.value.where == where


def test_a_review_typed_after_the_submit_is_a_user_turn_not_the_submission(
        tmp_path: Path, parse) -> None:
    """mini-swe-agent 1.x in interactive mode: after ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``
    the user types a new task at the exit prompt; that turn is someone's words (a review), while
    the submit's own output is the (here empty) submission."""
    def said(role: str, content: str) -> dict[str, object]:
        return {"role": role, "content": content, "timestamp": 1770000000.0}

    def run(command: str, output: str) -> list[dict[str, object]]:
        return [said("assistant", f"THOUGHT: next.\n\n```bash\n{command}\n```"),
                said("user", f"<returncode>0</returncode>\n<output>\n{output}</output>")]

    submit = said("assistant", "THOUGHT: done.\n\n```bash\n"
                               "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")
    review = ("The user added a new task: Review from Marta: a bed is only as wet as its driest "
              "probe; use the lowest of the probes' latest readings.")
    document = {"info": {"exit_status": "Submitted", "submission": "", "mini_version": "1.17.5"},
                "trajectory_format": "mini-swe-agent-1",
                "messages": [said("system", "You are a helpful assistant."),
                             said("user", "Please solve this issue: plan from readings"),
                             *run("python -m pytest -q", "3 passed\n"), submit,
                             said("user", review), *run("sed -i 's/mean/min/' a.py", ""),
                             submit, said("user", "")]}
    path = tmp_path / "s06.traj.json"
    path.write_text(json.dumps(document))
    (session,) = parse(path, "mini-swe-agent")
    users = [e.text for e in session.events if e.kind is EventKind.MESSAGE and e.role == "user"]
    assert review in users
    assert [e.text for e in session.events if e.kind is EventKind.COMMAND][-1].startswith("echo")
    assert "sed -i 's/mean/min/' a.py" in [e.text for e in session.events
                                           if e.kind is EventKind.COMMAND]
