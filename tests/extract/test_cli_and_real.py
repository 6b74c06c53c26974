"""``dreamer extract`` from the command line, and extraction on the real public trajectories."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.commands.extract import parse_since
from dreamer.extract import extract
from dreamer.models import CitationKind
from dreamer.store import open_store
from tests.extract.conftest import PLANTED, add


def test_cli_json_and_explain(shop_repo, shop_session, monkeypatch) -> None:
    monkeypatch.setenv("DREAMER_REPOS", str(shop_repo.path.parent))
    store = open_store()
    add(store, *shop_session)
    store.close()
    runner = CliRunner()
    done = runner.invoke(app, ["extract", "--repo", "acme/shop", "--json", "--explain"])
    assert done.exit_code == 0, done.output
    out = json.loads(done.stdout)
    assert out["sessions"] == 1 and out["kept"] >= 4 and out["bank"].startswith("bank_")
    assert out["rejected"]["generic"] == 2 and out["redacted"] >= 1
    assert {r["reason"] for r in out["rejections"]} >= {"generic", "injection_without_evidence"}
    assert not any(secret in done.stdout for secret in PLANTED)
    again = runner.invoke(app, ["extract"])
    assert again.exit_code == 0 and "sessions 0" in again.stdout


def test_since_takes_iso_times_and_ages() -> None:
    assert parse_since("2026-11-30").isoformat() == "2026-11-30T00:00:00+00:00"
    assert parse_since("7d") is not None and parse_since(None) is None


def test_real_trajectories_yield_cited_memories_or_recorded_rejections(
    shared_data: Path, tmp_path
) -> None:
    from dreamer.ingest.driver import ingest_paths

    store = open_store(f"sqlite:///{tmp_path / 'real.db'}")
    report = ingest_paths(store, [shared_data / "trajectories"])
    sessions = report.summary()["sessions"]
    assert sessions
    result = extract(store)
    assert result.sessions == len(sessions)
    assert result.kept + sum(result.rejected.values()) == result.candidates > 0
    for memory in result.memories:
        assert any(c.kind is CitationKind.SESSION for c in memory.citations)
    assert any(c.kind is CitationKind.FILE for m in result.memories for c in m.citations)
    for bank_id in result.banks.values():
        assert store.banks.get(bank_id).origin.kind == "extraction"
    store.close()
