"""The hostile set (``hostile.py``) ingests in one run, on SQLite and PostgreSQL: no crash, every
file and special entry accounted for, and nothing unsafe in what was stored."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.ingest import ingest_paths
from dreamer.models import sha256_bytes
from dreamer.store import Store
from dreamer.store.schema import EventRow, SessionRow

BUCKETS = ("ingested", "duplicates", "quarantined", "skipped", "failed")


def _outcomes(report, root: Path) -> dict[str, str]:  # type: ignore[no-untyped-def]
    found: dict[str, str] = {}
    for bucket in BUCKETS:
        for item in getattr(report, bucket):
            name = str(Path(str(item["path"])).relative_to(root))
            assert name not in found, f"{name} is both {found[name]} and {bucket}"
            found[name] = bucket
    return found


def test_hostile_set_in_one_run_every_file_accounted_for(
    store: Store, tmp_path: Path, hostile: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DREAMER_INGEST_MAX_TEXT", "100000")
    root = tmp_path / "hostile"
    entries = hostile.write(root)
    assert len(entries) >= 1000
    report = ingest_paths(store, [root])

    outcome = _outcomes(report, root)
    assert report.failed == []
    assert {e.path for e in entries} <= set(outcome)
    assert set(outcome) == {e.path for e in entries}
    by_kind = {e.path: e.kind for e in entries}
    counts = {bucket: sum(1 for b in outcome.values() if b == bucket) for bucket in BUCKETS}
    print(f"\nhostile set on {store.engine.dialect.name}: {len(entries)} entries -> {counts}")

    # What the issue found crashing the batch is quarantined with the limit it broke.
    reasons = {str(Path(str(q["path"])).relative_to(root)): str(q["reason"])
               for q in report.quarantined}
    for fmt_stem in ("swe_agent", "mini_swe_agent", "openhands", "claude_code", "dreamer"):
        assert "nested deeper than the limit" in reasons[f"{fmt_stem}.text.deep-array-5000"
                                                        + _suffix(by_kind, fmt_stem)]
        assert "an integer of 5000 digits" in reasons[f"{fmt_stem}.extra.int-5000-digits"
                                                      + _suffix(by_kind, fmt_stem)]
    assert "nested deeper" in reasons["deep-bare.json"]
    # Special entries are skipped with a reason; a link inside the folder is followed.
    specials = {e.path for e in entries if e.special}
    assert {p for p in specials if outcome[p] != "skipped"} == {"specials/to-parent.jsonl"}
    skipped = {str(Path(str(s["path"])).relative_to(root)): str(s["reason"])
               for s in report.skipped}
    assert "FIFO" in skipped["specials/pipe.jsonl"]
    assert "outside the folder" in skipped["specials/to-etc-passwd.json"]
    assert "outside the folder" in skipped["specials/to-dev-zero.json"]
    assert "dangling" in skipped["specials/dangling.json"]
    assert "loop" in skipped["specials/loop-a.json"]
    assert "folder" in skipped["specials/to-folder"]
    # Every file stored is stored verbatim.
    for item in (*report.ingested, *report.quarantined):
        assert store.evidence.raw(str(item["sha256"])) == Path(str(item["path"])).read_bytes()
    _nothing_unsafe_stored(store)


def _suffix(by_kind: dict[str, str], stem: str) -> str:
    valid = next(p for p in by_kind if p.startswith(f"{stem}.valid."))
    return valid[len(f"{stem}.valid"):]


def _nothing_unsafe_stored(store: Store) -> None:
    """No stored name or edit path breaks the rules, no time is implausible, no secret kept."""
    latest = datetime.now(UTC) + timedelta(days=2)
    with store.sessions() as db:
        for row in db.scalars(select(SessionRow)):
            for name in (row.repo, row.branch, row.task_id, row.commit_start):
                if name is not None:
                    assert "\x00" not in name and len(name) <= 255 and "\n" not in name
            if row.repo is not None:
                assert not row.repo.startswith(("/", "~")) and ".." not in row.repo.split("/")
            for moment in (row.started_at, row.ended_at):
                if moment is not None:
                    assert datetime(1990, 1, 1) <= moment.replace(tzinfo=None) <= latest.replace(
                        tzinfo=None)
        for event in db.scalars(select(EventRow)):
            assert "\x00" not in event.text
            assert "wJalrXUtnFEMI" not in event.text
            for path in (event.data or {}).get("paths") or []:
                assert not path.startswith(("/", "~")) and ".." not in path.split("/"), path


def test_fifo_and_device_named_on_the_command_line_are_skipped(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    result = CliRunner().invoke(app, ["ingest", str(fifo), str(zero), "--json"])
    assert result.exit_code == 0, result.output
    import json

    summary = json.loads(result.stdout)
    reasons = {Path(s["path"]).name: s["reason"] for s in summary["skipped"]}
    assert reasons == {"pipe.jsonl": "a FIFO, not a regular file",
                       "zero.json": "a character device, not a regular file"}
    assert summary["ingested"] == 0 and summary["quarantined"] == []


def test_store_refusal_quarantines_and_the_batch_goes_on(
    store: Store, tmp_path: Path, hostile: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the store raises for one file (here: a failure injected into its write), that
    file is quarantined with the error and the next file is ingested."""
    _, bad = hostile.valid("dreamer")
    _, good = hostile.valid("swe-agent")
    (tmp_path / "a.jsonl").write_bytes(bad)
    (tmp_path / "b.traj").write_bytes(good)
    real = store.evidence.add_ingested

    def refuse_first(data, *args, **kwargs):  # type: ignore[no-untyped-def]
        if data == bad:
            raise RuntimeError("disk full")
        return real(data, *args, **kwargs)

    monkeypatch.setattr(store.evidence, "add_ingested", refuse_first)
    report = ingest_paths(store, [tmp_path])
    (quarantined,) = report.quarantined
    assert quarantined["reason"] == (
        "the store refused the normalised sessions: RuntimeError: disk full")
    assert [Path(str(i["path"])).name for i in report.ingested] == ["b.traj"]
    assert store.evidence.raw(sha256_bytes(bad)) == bad
