"""SWE-agent ``history[]``: later user turns that echo no observation become events in place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamer.models import EventKind, Session

REAL = ["marshmallow-code__marshmallow-1867.traj", "pydicom__pydicom-1458.traj",
        "swe-agent__test-repo-i1.traj"]


def user_events(session: Session) -> list:
    return [event for event in session.events if event.role == "user"]


def comparable(session: Session) -> list[tuple]:
    """Events without the session id (which hashes the raw file)."""
    return [(e.seq, e.kind, e.role, e.text, e.data, e.timestamp) for e in session.events]


def test_review_qa_defect_and_follow_up_are_placed_between_steps(fixtures: Path, parse) -> None:
    (session,) = parse(fixtures / "swe-agent" / "acme__shop-7.traj", "swe-agent")
    assert [e.seq for e in session.events] == list(range(len(session.events)))
    task, follow_up, review, defect = user_events(session)
    assert task.seq == 0 and "ZeroDivisionError for an empty cart" in task.text
    # The echoes of observations (with SWE-agent's footer, "OBSERVATION:", or wrapped in other
    # text) are not repeated; the follow-up mentions "10", holding step 3's whole output "0".
    assert (follow_up.kind, follow_up.data) == (EventKind.MESSAGE, {})
    assert follow_up.text.startswith("Don't change the discount for carts of 10 items")
    assert review.kind is EventKind.REVIEW
    assert review.data == {"author": "alice", "ref": "REVIEW-12",
                           "paths": ["src/shop/orders.py"], "line": 42}
    assert defect.kind is EventKind.QA_DEFECT
    assert defect.data == {"author": "qa-bot", "ref": "QA-7", "line": 88,
                           "paths": ["src/shop/checkout.py", "src/shop/orders.py"]}
    # Each comes right after the observation of the step it followed in the history.
    events = session.events
    assert events[follow_up.seq - 1].kind is EventKind.TEST_RESULT  # step 1: failing tests
    assert events[follow_up.seq + 1].data["thought"] == "Guard the division for an empty cart."
    assert events[review.seq - 1].data["cause"] == review.seq - 2  # the edit's output
    assert events[review.seq - 2].kind is EventKind.EDIT
    assert events[review.seq + 1].data["thought"] == "Check the empty cart by hand."
    assert events[defect.seq - 1].data["summary"] == {"passed": 2}
    assert events[defect.seq + 1].data["thought"] == "Tests pass; submitting."
    assert events[-1].kind is EventKind.SUBMISSION


@pytest.mark.parametrize("name", REAL)
def test_real_files_later_user_turns_are_all_echoes(trajectories: Path, tmp_path: Path, parse,
                                                     name: str) -> None:
    """The real logs' later user turns all echo observations: their events are those of the
    same file with every later user turn removed from its history."""
    path = trajectories / "swe-agent" / name
    data = json.loads(path.read_text())
    users = [i for i, m in enumerate(data["history"])
             if m["role"] == "user" and str(m.get("is_demo", "")).lower() != "true"]
    assert len(users) > 3  # the task and several echoes: the comparison below means something
    data["history"] = [m for i, m in enumerate(data["history"]) if i not in users[1:]]
    stripped = tmp_path / name
    stripped.write_text(json.dumps(data))
    (session,) = parse(path, "swe-agent")
    (without,) = parse(stripped, "swe-agent")
    assert len(user_events(session)) == 1
    assert comparable(session) == comparable(without)


def _traj(tmp_path: Path, history: list[dict], info: dict | None = None) -> Path:
    steps = [
        {"action": "python -c 'print(6 * 7)'", "observation": "42\n", "thought": "Compute."},
        {"action": "cat notes.txt", "observation": "the cart total divides by the item count\n",
         "thought": "Read the notes."},
        {"action": "python -c 'print(3 + 4)'", "observation": "7\n", "thought": "Add."},
    ]
    path = tmp_path / "acme__shop-1.traj"
    path.write_text(json.dumps({"trajectory": steps, "history": history, "info": info or {}}))
    return path


def _history(*later: dict) -> list[dict]:
    """The task, step 0's assistant turn, the given turns, the other steps' assistant turns."""
    return [{"role": "user", "content": "Fix the total."},
            {"role": "assistant", "content": "Compute."}, *later,
            {"role": "assistant", "content": "Read the notes."},
            {"role": "assistant", "content": "Add."}]


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("Your command ran successfully and did not produce any output.", False),
        ("OBSERVATION:\nanything at all", False),
        ("42\n(Open file: n/a)\n(Current directory: /testbed)\nbash-$", False),
        ("The result was: 42 .", False),  # its own step's output, however short
        ("Output:\nthe cart   total divides by\nthe item count", False),  # another step's, long
        ("Use 7 carts, not 5.", True),  # another step's output, too short to tell
        ("Please stop and explain your plan first.", True),
    ],
)
def test_which_user_turns_echo_an_observation(tmp_path: Path, parse, content: str,
                                              kept: bool) -> None:
    (session,) = parse(_traj(tmp_path, _history({"role": "user", "content": content})),
                       "swe-agent")
    assert [e.text for e in user_events(session)[1:]] == ([content] if kept else [])


def test_a_marked_review_is_kept_even_when_it_quotes_an_observation(tmp_path: Path,
                                                                    parse) -> None:
    review = {"role": "user", "message_type": "review", "author": "@carol", "id": 981,
              "content": "42\n(Open file: n/a)\n(Current directory: /testbed)\nbash-$"}
    (session,) = parse(_traj(tmp_path, _history(review)), "swe-agent")
    (event,) = [e for e in session.events if e.kind is EventKind.REVIEW]
    assert event.data == {"author": "carol", "ref": "981"}
    assert session.events[event.seq - 1].text == "42\n"  # after step 0's output


def test_turns_before_the_first_and_after_the_last_step(tmp_path: Path, parse) -> None:
    history = [
        {"role": "user", "content": "Fix the total."},
        {"role": "user", "agent": "qa", "content": "QA-3: /testbed/src/cart.py:7 crashes."},
        {"role": "assistant", "content": "Compute."},
        {"role": "assistant", "content": "Read the notes."},
        {"role": "assistant", "content": "Add."},
        {"role": "user", "content": "Thanks, that is enough."},
    ]
    path = _traj(tmp_path, history, info={"submission": "diff --git a/x.py b/x.py\n"})
    (session,) = parse(path, "swe-agent")
    assert [(e.kind.value, e.role) for e in session.events] == [
        ("message", "user"), ("qa_defect", "user"),
        ("message", "assistant"), ("command", "assistant"), ("observation", "environment"),
        ("message", "assistant"), ("command", "assistant"), ("observation", "environment"),
        ("message", "assistant"), ("command", "assistant"), ("observation", "environment"),
        ("message", "user"), ("submission", "assistant"),
    ]
    assert session.events[1].data == {"ref": "QA-3", "paths": ["src/cart.py"], "line": 7}


def test_recorded_times_in_info_become_the_session_times(tmp_path) -> None:
    import json
    from datetime import UTC, datetime

    from dreamer.errors import IngestError
    from dreamer.ingest import Defaults, parse_file

    doc = {"environment": "swe_main", "trajectory": [
        {"action": "ls\n", "observation": "a.py", "response": "ls", "thought": "look",
         "state": "{}"}],
        "history": [], "info": {"exit_status": "submitted", "submission": "",
                                "started_at": "2024-02-06T08:00:00+00:00",
                                "ended_at": "2024-02-06T10:00:00"}}
    _, (session,) = parse_file(json.dumps(doc).encode(), "acme__shop-1.traj", Defaults())
    assert session.started_at == datetime(2024, 2, 6, 8, tzinfo=UTC)
    assert session.ended_at == datetime(2024, 2, 6, 10, tzinfo=UTC)
    doc["info"]["ended_at"] = "yesterday"
    with pytest.raises(IngestError, match="info.ended_at"):
        parse_file(json.dumps(doc).encode(), "acme__shop-1.traj", Defaults())
