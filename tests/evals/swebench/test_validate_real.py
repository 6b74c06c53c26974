"""Gold validation on real SWE-bench Lite dev rows, from their archives, through the CLI.

Builds two environments from swebench's specs on pyenv's Pythons and runs the rows' real tests:
the two quickest of the sixteen archived rows, so CI pays about a minute.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from evals.errors import EnvironmentBuildError
from evals.swebench.pythons import find_python

QUICKEST = ("marshmallow-code__marshmallow-1343", "pylint-dev__astroid-1333")


@pytest.mark.slow
def test_gold_resolves_and_empty_does_not_on_two_real_rows(
    shared_data: Path, tmp_path: Path
) -> None:
    try:
        find_python("3.9")
    except EnvironmentBuildError as exc:
        pytest.skip(f"the rows' spec needs Python 3.9: {exc}")
    suite = shared_data / "swe-bench" / "swe-bench-lite-dev.parquet"
    args = ["swebench", "validate", "--suite", str(suite), "--repos-dir",
            str(shared_data / "swe-bench" / "repos"), "--instances", ",".join(QUICKEST),
            "--run-dir", str(tmp_path), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {r["instance_id"]: r for r in json.loads(result.stdout)["rows"]}
    assert set(rows) == set(QUICKEST)
    for instance_id, row in rows.items():
        assert row["env"] == "built" and row["judged"], row
        assert row["gold"] == "resolved", row["gold_reason"]
        assert row["empty"] == "unresolved"
        gold = json.loads((tmp_path / "gold" / instance_id / "report.json").read_text())
        entry = gold[instance_id]
        assert entry["resolved"] and entry["patch_successfully_applied"]
        status = entry["tests_status"]
        assert status["FAIL_TO_PASS"]["failure"] == [] and status["FAIL_TO_PASS"]["success"]
        empty = json.loads((tmp_path / "empty" / instance_id / "report.json").read_text())
        assert empty[instance_id]["resolved"] is False
        assert empty[instance_id]["patch_exists"] is False
    summary = json.loads((tmp_path / "validation.json").read_text())
    assert summary["judged"] == 2 and summary["cannot_judge"] == {}
