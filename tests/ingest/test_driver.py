"""The ingest driver: every file ends ingested whole or quarantined with its reason, none lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamer.ingest import Defaults, ingest_paths
from dreamer.ingest.driver import IngestReport, ingest_file
from dreamer.models import sha256_bytes
from dreamer.store import Store, open_store


def generic_session(task: str, command: str = "pytest -q", exit_code: int = 1) -> str:
    records = [
        {"type": "session", "format": "dreamer-session/1", "repo": "acme/shop", "task_id": task},
        {"type": "event", "kind": "command", "role": "assistant", "text": command,
         "data": {"command": command}},
        {"type": "event", "kind": "observation", "role": "environment", "text": "1 failed",
         "data": {"exit_code": exit_code, "cause": 0}},
    ]
    return "\n".join(json.dumps(r) for r in records) + "\n"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


@pytest.fixture
def mixed_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    (folder / "nested").mkdir(parents=True)
    (folder / "a.jsonl").write_text(generic_session("T-1"))
    (folder / "b.jsonl").write_text(generic_session("T-2", "make test", 0))
    (folder / "nested" / "c.jsonl").write_text(generic_session("T-3", "tox -e py311", 2))
    (folder / "truncated.traj").write_text(
        '{"environment": "swe_main", "trajectory": [{"action": "ls"'
    )
    (folder / "binary.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (folder / "empty.json").write_bytes(b"")
    return folder


def test_three_good_three_broken(store: Store, mixed_folder: Path) -> None:
    report = ingest_paths(store, [mixed_folder])
    assert len(report.ingested) == 3
    reasons = {Path(q["path"]).name: (q["reason"], q["where"]) for q in report.quarantined}
    assert set(reasons) == {"truncated.traj", "binary.json", "empty.json"}
    assert reasons["truncated.traj"][0].startswith("invalid JSON")
    assert reasons["truncated.traj"][1].startswith("line 1, column")
    assert reasons["binary.json"] == ("binary file (NUL byte)", "byte 8")
    assert reasons["empty.json"][0] == "empty file"
    # Nothing else written: three files' sessions, six blobs, six ingestion records.
    assert store.evidence.count_sessions() == 3
    assert len(store.evidence.ingestions()) == 6
    for q in report.quarantined:
        assert store.evidence.raw(q["sha256"]) == Path(q["path"]).read_bytes()


def test_second_run_is_all_duplicates(store: Store, mixed_folder: Path) -> None:
    ingest_paths(store, [mixed_folder])
    again = ingest_paths(store, [mixed_folder])
    assert (len(again.ingested), len(again.duplicates), len(again.quarantined)) == (0, 6, 0)


def test_unknown_shape_is_quarantined_and_oversize_skipped_unread(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shape.json").write_text(json.dumps({"hello": "world"}))
    (tmp_path / "big.jsonl").write_text(generic_session("T-9") * 50)
    monkeypatch.setenv("DREAMER_INGEST_MAX_BYTES", "1000")
    report = ingest_paths(store, [tmp_path / "shape.json", tmp_path / "big.jsonl"])
    reasons = {Path(q["path"]).name: q["reason"] for q in report.quarantined}
    assert reasons["shape.json"].startswith("unrecognised trajectory format")
    (skipped,) = report.skipped
    assert Path(str(skipped["path"])).name == "big.jsonl"
    assert "over the 1000-byte limit" in str(skipped["reason"])
    assert len(store.evidence.ingestions()) == 1  # the big file was never read nor stored


def test_bad_record_names_its_line(store: Store, tmp_path: Path) -> None:
    lines = generic_session("T-4").splitlines()
    lines.insert(2, '{"type": "event", "kind": "command", "text": ')
    (tmp_path / "broken.jsonl").write_text("\n".join(lines))
    report = ingest_paths(store, [tmp_path / "broken.jsonl"])
    (q,) = report.quarantined
    assert q["where"].startswith("line 3")


def test_folder_walk_reports_what_it_skips(store: Store, mixed_folder: Path) -> None:
    (mixed_folder / "notes.md").write_text("# not a trajectory")
    report = ingest_paths(store, [mixed_folder])
    assert [Path(s["path"]).name for s in report.skipped] == ["notes.md"]


def test_command_line_defaults_fill_what_the_file_lacks(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(generic_session("T-5").replace('"repo": "acme/shop", ', ""))
    ingest_paths(store, [path], Defaults(repo="acme/fallback", branch="dev"))
    (session,) = store.evidence.sessions()
    assert (session.repo, session.branch) == ("acme/fallback", "dev")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.one_of(
    st.binary(max_size=400),
    st.text(max_size=300).map(str.encode),
    st.sampled_from([b"[]", b"{}", b"null", b"[{}]", b'{"trajectory": 3}', b'[{"role": 1}]',
                     b'{"type": "session"}\n{"type": "event"}', b'{"messages": {}}']),
))
def test_arbitrary_bytes_never_crash_and_are_never_lost(tmp_path_factory: pytest.TempPathFactory,
                                                         data: bytes) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    store = open_store(f"sqlite:///{folder / 'store.db'}")
    path = folder / "input.json"
    path.write_bytes(data)
    report = IngestReport()
    ingest_file(store, path, Defaults(), "auto", report)
    outcomes = len(report.ingested) + len(report.quarantined) + len(report.duplicates)
    assert outcomes == 1
    assert store.evidence.raw(sha256_bytes(data)) == data
    record = store.evidence.ingestion(sha256_bytes(data))
    assert record is not None and record.status in {"ingested", "quarantined"}
    if record.status == "quarantined":
        assert record.reason
    store.close()


def test_real_trajectories_ingest_then_duplicate(shared_data: Path, tmp_path: Path) -> None:
    """The issue's acceptance: all 7 real files ingest; a second run reports 7 duplicates."""
    from typer.testing import CliRunner

    from dreamer.cli import app

    runner = CliRunner()
    first = runner.invoke(app, ["ingest", str(shared_data / "trajectories"), "--json"])
    assert first.exit_code == 0, first.output
    result = json.loads(first.stdout)
    assert (result["ingested"], result["duplicates"], result["quarantined"]) == (7, 0, [])
    again = runner.invoke(app, ["ingest", str(shared_data / "trajectories"), "--json"])
    second = json.loads(again.stdout)
    assert (second["ingested"], second["duplicates"]) == (0, 7)

    listed = json.loads(runner.invoke(app, ["sessions", "--json"]).stdout)
    formats = sorted({s["source_format"] for s in listed})
    assert formats == ["claude-code", "mini-swe-agent", "openhands", "swe-agent"]
    marshmallow = next(s for s in listed if s["task_id"] and "marshmallow" in s["task_id"])
    show = runner.invoke(app, ["show", "session", marshmallow["id"][:12], "--json"])
    shown = json.loads(show.stdout)
    kinds = [e["kind"] for e in shown["events"]]
    assert "command" in kinds and "submission" in kinds
    first_command = shown["events"][kinds.index("command")]
    assert first_command["data"]["command"].startswith("ls -F")
    text = runner.invoke(app, ["show", "session", marshmallow["id"]]).stdout
    assert "submission" in text and "src/marshmallow/fields.py" in text


def test_cli_usage_errors_exit_non_zero(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dreamer.cli import app

    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(tmp_path / "missing")]).exit_code == 2
    (tmp_path / "x.json").write_text("{}")
    bad_format = ["ingest", str(tmp_path / "x.json"), "--format", "nope"]
    assert runner.invoke(app, bad_format).exit_code == 2


def test_store_failure_exits_non_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from dreamer.cli import app

    (tmp_path / "x.jsonl").write_text(generic_session("T-1"))
    monkeypatch.setenv("DREAMER_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    result = CliRunner().invoke(app, ["ingest", str(tmp_path / "x.jsonl"), "--json"])
    assert result.exit_code == 3
    assert "cannot" in result.output
