"""A sessions manifest gives times (and a repository) to formats that record none."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.ingest import Defaults, ingest_paths
from dreamer.ingest.driver import read_manifest
from dreamer.store import Store, open_store

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "trajectories" / "swe-agent"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    (folder / "sessions").mkdir(parents=True)
    shutil.copy(FIXTURE / "owner__proj-42.traj", folder / "sessions" / "s1.traj")
    rows = [{"file": "sessions/s1.traj", "started_at": "2025-04-04T09:05:00-04:00",
             "ended_at": "2025-04-04T09:08:54-04:00", "repo": "acme/manifested"}]
    (folder / "sessions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def only_session(store: Store):  # type: ignore[no-untyped-def]
    sessions = list(store.evidence.sessions())
    assert len(sessions) == 1
    return sessions[0]


def test_times_come_from_the_manifest(store: Store, corpus: Path) -> None:
    rows = read_manifest(corpus / "sessions.jsonl")
    report = ingest_paths(store, [corpus / "sessions"], Defaults(manifest=rows))
    assert len(report.ingested) == 1 and not report.quarantined
    session = only_session(store)
    assert session.started_at == datetime(2025, 4, 4, 13, 5, tzinfo=UTC)
    assert session.ended_at == datetime(2025, 4, 4, 13, 8, 54, tzinfo=UTC)
    assert session.metadata["time_source"] == "manifest"


def test_without_the_manifest_the_file_time_is_a_fallback(store: Store, corpus: Path) -> None:
    ingest_paths(store, [corpus / "sessions"], Defaults())
    session = only_session(store)
    assert session.metadata.get("time_source") != "manifest"
    assert session.started_at is None or session.started_at.year >= 2026


def test_a_repository_the_file_names_wins_over_the_manifest(store: Store, corpus: Path) -> None:
    rows = read_manifest(corpus / "sessions.jsonl")
    ingest_paths(store, [corpus / "sessions"], Defaults(repo="acme/given", manifest=rows))
    # The command-line default resolves the repository before the manifest is consulted.
    assert only_session(store).repo == "acme/given"


@pytest.mark.parametrize(("text", "where"), [
    ('{"file": "a.traj"}\nnot json\n', "line 2"),
    ('{"started_at": "2025-01-01T00:00:00Z"}\n', "line 1"),
])
def test_a_malformed_manifest_says_which_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "sessions.jsonl"
    path.write_text(text)
    with pytest.raises(IngestError) as caught:
        read_manifest(path)
    assert where in str(caught.value) and str(path) in str(caught.value)


def test_the_command_refuses_a_broken_manifest(tmp_path: Path, corpus: Path) -> None:
    from typer.testing import CliRunner

    from dreamer.cli import app

    broken = tmp_path / "broken.jsonl"
    broken.write_text("{oops\n")
    result = CliRunner().invoke(app, ["ingest", str(corpus / "sessions"), "--manifest",
                                      str(broken)], env={"DREAMER_HOME": str(tmp_path / "h")})
    assert result.exit_code == 2
    assert "line 1 is not JSON" in result.output
