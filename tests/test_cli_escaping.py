"""Names are printed as written: Rich markup in a repository, task or file name is text, never
style (``acme/[s]hop-orders`` once printed as ``acme/hop-orders``)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dreamer.cli import app

REPO = "acme/[s]hop-orders"
TASK = "[bold red]T-1[/bold red]"


def test_markup_in_names_is_printed_as_written(tmp_path: Path) -> None:
    records = [
        {"type": "session", "format": "dreamer-session/1", "repo": REPO, "task_id": TASK,
         "started_at": "2025-05-01T08:00:00Z"},
        {"type": "event", "kind": "message", "role": "user", "text": "[/] [red]unclosed"},
    ]
    good = tmp_path / "[s]ession.jsonl"
    good.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    bad = tmp_path / "[red]bad[red].json"
    bad.write_text("{not json")
    runner = CliRunner()
    ingested = runner.invoke(app, ["ingest", str(good), str(bad)])
    assert ingested.exit_code == 0, ingested.output
    assert "[s]ession.jsonl" in ingested.stdout and "[red]bad[red].json" in ingested.stdout
    listed = runner.invoke(app, ["sessions"])
    assert REPO in listed.stdout and TASK in listed.stdout
    session_id = json.loads(runner.invoke(app, ["sessions", "--json"]).stdout)[0]["id"]
    shown = runner.invoke(app, ["show", "session", session_id])
    assert REPO in shown.stdout and "[/] [red]unclosed" in shown.stdout
    quarantined = runner.invoke(app, ["quarantine"])
    assert "[red]bad[red].json" in quarantined.stdout
