"""A task's environment holds nothing of dreamer's: a sentinel package installed only in dreamer's
venv cannot be imported by the task's tests, and the shared environment is only ever read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.errors import EnvironmentBuildError
from evals.examples.gitrepo import diff_for, init_repo
from evals.runner import run_task
from evals.swebench import specs
from evals.swebench.envs import envs_root
from evals.swebench.pythons import find_python
from evals.swebench.validate import FixedPatch
from evals.tasks import RepoSource, Task

SENTINEL = "dreamer_isolation_sentinel"
TESTS = f'''import importlib.util
import os
import sys

import isolab


def test_value():
    assert isolab.VALUE == 2


def test_sentinel_of_dreamers_venv_is_not_importable():
    try:
        import {SENTINEL}  # noqa: F401
    except ImportError:
        return
    raise AssertionError("the sentinel leaked into the task's environment")


def test_nothing_of_dreamer_or_other_pythons():
    assert importlib.util.find_spec("dreamer") is None
    assert importlib.util.find_spec("xdist") is None
    assert not any({sys.prefix!r} in p for p in sys.path), sys.path


def test_the_package_under_test_is_the_working_copy():
    assert os.path.dirname(isolab.__file__).startswith(os.getcwd())
'''


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[str]:
    """A package installed into dreamer's own venv for the test's duration."""
    source = tmp_path / "sentinel"
    (source / SENTINEL).mkdir(parents=True)
    (source / SENTINEL / "__init__.py").write_text("HERE = True\n")
    (source / "pyproject.toml").write_text(
        f'[project]\nname = "{SENTINEL}"\nversion = "1.0"\n'
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n')
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--no-deps", "--no-build-isolation", "--no-index",
                    str(source)], check=True, capture_output=True)
    try:
        yield SENTINEL
    finally:
        subprocess.run([*pip, "uninstall", "-y", SENTINEL], check=False, capture_output=True)


def _isolab(tmp_path: Path) -> Task:
    repo = tmp_path / "isolab"
    base = init_repo(repo, {
        "isolab/__init__.py": "VALUE = 1\n",
        "setup.py": "from setuptools import setup\nsetup(name='isolab', version='0.1', "
                    "packages=['isolab'])\n",
    }, "isolab")
    ids = [f"tests/test_iso.py::{name}" for name in (
        "test_value", "test_sentinel_of_dreamers_venv_is_not_importable",
        "test_nothing_of_dreamer_or_other_pythons",
        "test_the_package_under_test_is_the_working_copy")]
    return Task.model_validate({
        "instance_id": "acme__isolab-1", "repo": "acme/isolab", "version": "0.1",
        "base_commit": base, "harness": "swe-bench", "log_parser": "parse_log_pytest",
        "patch": diff_for(repo, {"isolab/__init__.py": "VALUE = 2\n"}),
        "test_patch": diff_for(repo, {"tests/test_iso.py": TESTS}),
        "FAIL_TO_PASS": ids[:1], "PASS_TO_PASS": ids[1:],
        "source": RepoSource(kind="git", location=str(repo)),
    })


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}


@pytest.mark.slow
def test_the_sentinel_is_not_importable_in_the_task_env(
    tmp_path: Path, sentinel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        python = find_python("3.11")
    except EnvironmentBuildError as exc:
        pytest.skip(f"no base Python 3.11 here: {exc}")
    spec: dict[str, Any] = {"python": "3.11", "pip_packages": ["pytest"],
                            "install": "python -m pip install -e .", "test_cmd": "pytest -rA"}
    original = specs.table_spec
    monkeypatch.setattr(specs, "table_spec", lambda repo, version: dict(spec)
                        if repo == "acme/isolab" else original(repo, version))
    task = _isolab(tmp_path)
    # The control: in dreamer's own interpreter the sentinel imports, so the test can fail.
    assert subprocess.run([sys.executable, "-c", f"import {sentinel}"]).returncode == 0

    result = run_task(task, FixedPatch(task.patch, "gold"), run_dir=tmp_path / "run",
                      timeout=300)
    output = (tmp_path / "run" / task.instance_id / "test_output.txt").read_text()
    assert result.status == "resolved", f"{result.reason}\n{output[-3000:]}"
    assert result.tests[task.PASS_TO_PASS[0]] == "passed"
    (env,) = [p for p in envs_root().iterdir() if p.is_dir()]
    manifest = json.loads((env / "manifest.json").read_text())
    assert manifest["interpreter"]["path"] == python.path
    assert not (env / "lib" / "python3.11" / "site-packages" / "isolab.egg-link").exists()

    # Reused read-only: a second copy grades the same and the shared env is untouched.
    before = _snapshot(env)
    again = run_task(task, FixedPatch(task.patch, "gold"), timeout=300)
    assert again.status == "resolved" and _snapshot(env) == before
    empty = run_task(task, FixedPatch("", "empty"))
    assert empty.status == "unresolved"
    assert not any(os.access(p, os.F_OK) for p in env.glob("**/__pycache__/isolab*"))
