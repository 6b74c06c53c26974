"""``--repos`` takes a folder of repositories, a git repository or a bundle file alike: each
gives the same hashed citations (never ``lines-hash-unknown`` for every citation)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.extract.citations import HASH_UNKNOWN_TAG

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
pytestmark = pytest.mark.skipif(not SAMPLE.is_dir(), reason="the committed sample is absent")


def _extract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, repos: Path
             ) -> tuple[int, int, int]:
    home = tmp_path / name
    monkeypatch.setenv("DREAMER_HOME", str(home))
    runner = CliRunner()
    sessions = sorted(str(p) for p in (SAMPLE / "sessions").glob("pytoolz__toolz-*.traj"))
    assert runner.invoke(app, ["ingest", *sessions, "--json"]).exit_code == 0
    done = runner.invoke(app, ["extract", "--repos", str(repos), "--json"])
    assert done.exit_code == 0, done.output
    bank = json.loads(runner.invoke(app, ["show", "bank", "extraction", "--repo",
                                          "pytoolz/toolz", "--json"]).stdout)
    files = [c for m in bank["memories"] for c in m["citations"] if c["kind"] == "file"]
    hashed = sum(1 for c in files if c["lines_sha256"])
    unknown = sum(1 for m in bank["memories"] if HASH_UNKNOWN_TAG in m["tags"])
    return len(bank["memories"]), hashed, unknown


def test_folder_repository_and_bundle_give_the_same_citations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = SAMPLE / "repos" / "pytoolz__toolz.bundle"
    clone = tmp_path / "checkout" / "toolz"
    subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True)
    folder = _extract(tmp_path, monkeypatch, "folder", SAMPLE / "repos")
    direct = _extract(tmp_path, monkeypatch, "bundle", bundle)
    working = _extract(tmp_path, monkeypatch, "clone", clone)
    assert folder[1] > 0  # file citations were hashed
    assert direct == folder == working, (folder, direct, working)
