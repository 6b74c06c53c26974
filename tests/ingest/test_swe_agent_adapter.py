"""SWE-agent ``.traj``: the real files, a 1.x-style fixture with failing tests, bad shapes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.models import EventKind, Session


def kinds(session: Session) -> Counter[str]:
    return Counter(event.kind.value for event in session.events)


def of_kind(session: Session, kind: EventKind) -> list:
    return [event for event in session.events if event.kind is kind]


def test_marshmallow_real_trajectory(trajectories: Path, parse) -> None:
    path = trajectories / "swe-agent" / "marshmallow-code__marshmallow-1867.traj"
    (session,) = parse(path, "swe-agent")
    assert session.source_format == "swe-agent"
    assert (session.repo, session.task_id, session.outcome) == (
        "marshmallow-code/marshmallow", "marshmallow-code__marshmallow-1867", "submitted")
    assert session.id == Session.make_id(session.raw_sha256, 0)
    assert kinds(session) == {"message": 15, "command": 9, "edit": 4, "observation": 13,
                              "submission": 1}
    commands = of_kind(session, EventKind.COMMAND)
    assert commands[0].text == "ls -F" and commands[0].data == {"command": "ls -F"}
    assert commands[1].data == {"command": "open setup.py", "tool": "open"}
    assert session.events[0].kind is EventKind.MESSAGE and "TimeDelta" in session.events[0].text
    edits = of_kind(session, EventKind.EDIT)
    assert [e.data["paths"] for e in edits] == [
        ["reproduce.py"], ["reproduce.py"],
        ["src/marshmallow/fields.py"], ["src/marshmallow/fields.py"],
    ]
    (submission,) = of_kind(session, EventKind.SUBMISSION)
    assert submission.data["paths"] == ["src/marshmallow/fields.py"]
    assert "+        return int(round(value.total_seconds()" in submission.data["diff"]
    for observation in of_kind(session, EventKind.OBSERVATION):
        answered = session.events[observation.data["cause"]]
        assert answered.kind in {EventKind.COMMAND, EventKind.EDIT}
        assert answered.seq == observation.seq - 1
    assert session.metadata["model_stats"]["api_calls"] == 0


def test_other_real_trajectories(trajectories: Path, parse) -> None:
    (pydicom,) = parse(trajectories / "swe-agent" / "pydicom__pydicom-1458.traj",
                             "swe-agent")
    assert pydicom.repo == "pydicom/pydicom"
    assert kinds(pydicom)["edit"] == 6
    assert of_kind(pydicom, EventKind.EDIT)[-1].data["paths"] == [
        "pydicom/pixel_data_handlers/numpy_handler.py"
    ]
    assert pydicom.metadata["model_stats"]["tokens_sent"] == 122612
    (test_repo,) = parse(trajectories / "swe-agent" / "swe-agent__test-repo-i1.traj",
                               "swe-agent")
    assert (test_repo.repo, test_repo.task_id) == ("swe-agent/test-repo", "swe-agent__test-repo-i1")
    assert of_kind(test_repo, EventKind.SUBMISSION)[0].data["paths"] == ["tests/missing_colon.py"]


def test_v1_fixture_with_failing_then_passing_tests(fixtures: Path, parse) -> None:
    (session,) = parse(fixtures / "swe-agent" / "owner__proj-42.traj", "swe-agent")
    assert session.repo == "owner/proj"
    (named,) = parse(fixtures / "swe-agent" / "owner__proj-42.traj", "swe-agent",
                     repo="acme/named-on-the-command-line")
    assert named.repo == "acme/named-on-the-command-line"  # --repo wins over the file
    assert named.metadata["repo_source"] == "--repo"
    assert session.commit_start == "0123456789abcdef0123456789abcdef01234567"
    assert session.task_id == "owner__proj-42"
    assert session.events[0].text.endswith("divide(7, 2) returns 3 instead of 3.5.")
    failing, passing = of_kind(session, EventKind.TEST_RESULT)
    assert failing.data["runner"] == "pytest"
    assert failing.data["command"] == "cd /testbed && python -m pytest tests/test_calc.py -v"
    assert {t["test_id"]: t["outcome"] for t in failing.data["tests"]} == {
        "tests/test_calc.py::test_add": "passed",
        "tests/test_calc.py::test_divide": "failed",
        "tests/test_calc.py::test_divide_by_zero": "passed",
    }
    assert failing.data["summary"] == {"failed": 1, "passed": 2}
    assert session.events[failing.data["cause"]].kind is EventKind.COMMAND
    assert passing.data["summary"] == {"passed": 3} and passing.data["tests"] == []
    (edit,) = of_kind(session, EventKind.EDIT)
    assert edit.data == {"paths": ["src/calc.py"], "tool": "str_replace_editor"}
    view = of_kind(session, EventKind.COMMAND)[0]
    assert view.data["tool"] == "str_replace_editor"
    assert of_kind(session, EventKind.SUBMISSION)[0].data["paths"] == ["src/calc.py"]


def test_missing_history_and_info_fields_are_tolerated(tmp_path: Path, parse) -> None:
    path = tmp_path / "bare.traj"
    path.write_text(json.dumps({"trajectory": [{"action": "ls\n", "observation": "a.py\n"}]}))
    (session,) = parse(path, "swe-agent", repo="acme/shop", task_id="T-1")
    assert (session.repo, session.task_id, session.outcome) == ("acme/shop", "T-1", None)
    assert [e.kind for e in session.events] == [EventKind.COMMAND, EventKind.OBSERVATION]


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.update(trajectory={"0": {}}), "trajectory"),
        (lambda d: d["trajectory"][3].update(action=42), "trajectory[3].action"),
        (lambda d: d["trajectory"][1].pop("action"), "trajectory[1].action"),
        (lambda d: d["trajectory"][2].update(observation=["x"]), "trajectory[2].observation"),
        (lambda d: d.update(history="oops"), "history"),
    ],
)
def test_structural_faults_name_their_place(tmp_path: Path, fixtures: Path, parse, mutate,
                                           where: str) -> None:
    data = json.loads((fixtures / "swe-agent" / "owner__proj-42.traj").read_text())
    mutate(data)
    path = tmp_path / "bad.traj"
    path.write_text(json.dumps(data))
    with pytest.raises(IngestError) as caught:
        parse(path, "swe-agent")
    assert caught.value.where == where
