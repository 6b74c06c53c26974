"""``dreamer swebench``: bad input gets a clear error saying what and where."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from dreamer.cli import app


def test_unknown_instances_and_mixed_repositories_are_refused(shared_data: Path) -> None:
    suite = str(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet")
    repos = str(shared_data / "swe-bench" / "repos")
    runner = CliRunner()
    result = runner.invoke(app, ["swebench", "validate", "--suite", suite, "--repos-dir", repos,
                                 "--instances", "acme__nothing-1"])
    assert result.exit_code == 2 and "holds no instance acme__nothing-1" in result.output
    result = runner.invoke(app, ["swebench", "run", "--suite", suite, "--repos-dir", repos,
                                 "--agent", "selector"])
    assert result.exit_code == 2 and "choose one with --repo" in result.output
    result = runner.invoke(app, ["swebench", "envs", "--suite", suite, "--repos-dir",
                                 str(shared_data / "nowhere")])
    assert result.exit_code == 2 and "nowhere is not a folder" in result.output


def test_a_row_without_a_mirror_is_reported_not_built(shared_data: Path) -> None:
    suite = str(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet")
    result = CliRunner().invoke(app, [
        "swebench", "envs", "--suite", suite, "--repos-dir",
        str(shared_data / "swe-bench" / "repos"), "--instances", "pvlib__pvlib-python-1072",
        "--json"])
    assert result.exit_code == 1, result.output
    assert '"state": "failed"' in result.stdout
    assert "pvlib__pvlib-python-1072.tar.gz" in result.stdout  # what was looked for
