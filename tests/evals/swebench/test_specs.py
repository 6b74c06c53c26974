"""Specs from swebench's 4.x table: Python, packages, requirements read offline, test command."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.errors import EnvironmentBuildError
from evals.examples.gitrepo import commit, init_repo
from evals.swebench.specs import env_spec, test_command
from evals.tasks import Task, load_tasks


def _task(repo: str, version: str, **extra: object) -> Task:
    return Task.model_validate({"instance_id": f"{repo.replace('/', '__')}-1", "repo": repo,
                                "base_commit": "0" * 40, "version": version, **extra})


def test_the_table_gives_python_install_and_test_command(tmp_path: Path) -> None:
    spec = env_spec(_task("pylint-dev/astroid", "2.12"), tmp_path)
    assert spec.python == "3.9"
    assert spec.pip_packages == ("pytest",)
    assert spec.install == "python -m pip install -e ."
    assert spec.test_cmd == "pytest -rA"
    pydicom = env_spec(_task("pydicom/pydicom", "2.0"), tmp_path)
    assert (pydicom.python, pydicom.packages) == ("3.8", ("numpy",))


def test_requirements_are_read_offline_with_includes_and_swebench_cleaning(
    tmp_path: Path,
) -> None:
    (tmp_path / "requirements_dev.txt").write_text(
        "# dev\n-r requirements.txt\n-e .\npytest\ntypes-pkg_resources\n")
    (tmp_path / "requirements.txt").write_text("click>=7.1\n# comment\nJinja2\n")
    spec = env_spec(_task("sqlfluff/sqlfluff", "0.6"), tmp_path)
    lines = [ln for ln in spec.requirements.splitlines() if ln.strip()]
    # SWE-bench's order: the -r include first, then the file's own lines; its cleaning replaces
    # the yanked types-pkg_resources.
    assert lines == ["click>=7.1", "Jinja2", "pytest", "types-setuptools"]
    assert spec.requirements_from == "requirements_dev.txt at base tree"


def test_requirements_come_from_the_environment_setup_commit_when_the_mirror_has_it(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "sqlfluff"
    setup = init_repo(repo, {"requirements_dev.txt": "pytest==6.0\n"}, "env setup")
    commit(repo, {"requirements_dev.txt": "pytest==7.0\n"}, "later")
    task = _task("sqlfluff/sqlfluff", "0.6", environment_setup_commit=setup)
    spec = env_spec(task, repo, source_git=repo)
    assert spec.requirements.strip() == "pytest==6.0"
    assert spec.requirements_from == f"requirements_dev.txt at {setup}"
    # The base tree's file (a later state) would have given another environment.
    assert env_spec(task, repo).requirements.strip() == "pytest==7.0"
    assert spec.digest("3.9.18", None) != env_spec(task, repo).digest("3.9.18", None)
    assert spec.digest("3.9.18", None) != spec.digest("3.9.18", "2024-01-01")


def test_rows_the_harness_cannot_build_are_infrastructure_errors(tmp_path: Path) -> None:
    with pytest.raises(EnvironmentBuildError, match="no version '9.99' of pylint-dev/astroid"):
        env_spec(_task("pylint-dev/astroid", "9.99"), tmp_path)
    with pytest.raises(EnvironmentBuildError, match="no 'acme/unknown'"):
        env_spec(_task("acme/unknown", "1.0"), tmp_path)
    with pytest.raises(EnvironmentBuildError, match="requirements_dev.txt in the repository"):
        env_spec(_task("sqlfluff/sqlfluff", "0.6"), tmp_path)  # no requirements file
    yml = next(v for v, s in _specs("matplotlib/matplotlib").items()
               if s.get("packages") == "environment.yml")
    with pytest.raises(EnvironmentBuildError) as err:
        env_spec(_task("matplotlib/matplotlib", yml), tmp_path)
    assert err.value.reason == "conda environment needed"


def _specs(repo: str) -> dict[str, dict[str, object]]:
    from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS

    return MAP_REPO_VERSION_TO_SPECS[repo]


def test_the_test_command_is_the_one_the_rows_eval_script_runs(
    shared_data: Path, tmp_path: Path
) -> None:
    rows = {t.instance_id: t for t in
            load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet")}
    row = rows["marshmallow-code__marshmallow-1343"]
    spec = env_spec(row, Path("/nonexistent"))
    assert test_command(row, spec) == "pytest -rA tests/test_marshalling.py"
    # Without an eval_script: the spec's test_cmd and swebench's directives of the test patch.
    bare = row.model_copy(update={"eval_script": ""})
    assert test_command(bare, spec) == "pytest -rA tests/test_marshalling.py"
    django = next(t for t in load_tasks(shared_data / "swe-bench" / "swe-bench-lite-test-5.json")
                  if t.repo == "django/django")
    (tmp_path / "tests" / "requirements").mkdir(parents=True)
    (tmp_path / "tests" / "requirements" / "py3.txt").write_text("asgiref\n")
    command = test_command(django, env_spec(django, tmp_path))
    assert command.startswith("./tests/runtests.py --verbosity 2")
    assert "sitemaps_tests.test_http" in command  # module names, not pytest node ids
