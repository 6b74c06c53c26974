"""Each repository's test environment: built once per repository and version, then cached.

A task whose repository declares no test dependencies runs with the current interpreter (its
pytest included): nothing is built, and pytest's plugin autoloading is off
(``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``): the plugins installed beside dreamer (hypothesis,
anyio, xdist) are none of the repository's, and loading them took four fifths of a small test
run here. Declared dependencies are the task's ``test_requirements``
plus the lines of the first of ``requirements-test.txt``, ``test-requirements.txt``,
``requirements/test.txt`` found in the working copy. For those, a
``python -m venv --system-site-packages`` is built under
``dreamer.settings.home()/envs/<repo>-<version>-<hash of the requirements>/`` and the
requirements are pip-installed into it (a ``.pth`` file also exposes the current interpreter's
site-packages, so dreamer's own pytest stays available when dreamer runs in a venv). A finished
build leaves a ``.ready`` marker; a failed one
is removed and raises ``EnvironmentBuildError("environment failed", <pip output>)``. Builds of the
same key are serialised with a file lock, so parallel tasks build it once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import site
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from dreamer import settings
from evals.errors import EnvironmentBuildError
from evals.tasks import Task

REQUIREMENT_FILES = ("requirements-test.txt", "test-requirements.txt", "requirements/test.txt")
"""Where a repository declares its test dependencies, first found wins."""
PIP_TIMEOUT_S = 900


@dataclass(frozen=True)
class TestEnvironment:
    """The interpreter a task's tests run with, and the environment variables of the run."""

    __test__ = False

    python: str
    key: str
    """``system`` for the current interpreter, else the cache folder's name."""

    def variables(self) -> dict[str, str]:
        """The test run's environment: no bytecode, no user pytest options, the env on PATH
        (or, for the current interpreter, no plugin of its own)."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTHONPATH")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONHASHSEED"] = "0"
        if self.key == "system":
            env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        else:
            env["VIRTUAL_ENV"] = str(Path(self.python).parent.parent)
            env["PATH"] = f"{Path(self.python).parent}{os.pathsep}{env.get('PATH', '')}"
        return env


def declared_requirements(task: Task, checkout: Path) -> list[str]:
    """The task's and the repository's declared test requirements, in order, without comments."""
    lines = list(task.test_requirements)
    for name in REQUIREMENT_FILES:
        path = checkout / name
        if path.is_file():
            lines += path.read_text(encoding="utf-8").splitlines()
            break
    return [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]


def environment_for(task: Task, checkout: Path) -> TestEnvironment:
    """The cached environment for ``task``'s repository and version, built on first use."""
    requirements = declared_requirements(task, checkout)
    if not requirements:
        return TestEnvironment(python=sys.executable, key="system")
    digest = hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:10]
    key = f"{_slug(task.repo)}-{_slug(task.version or 'any')}-{digest}"
    folder = settings.home() / "envs" / key
    python = folder / "bin" / "python"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".ready").exists():
            _build(folder, requirements)
    return TestEnvironment(python=str(python), key=key)


def _build(folder: Path, requirements: list[str]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    wanted = folder / "requirements.txt"
    wanted.write_text("\n".join(requirements) + "\n", encoding="utf-8")
    steps = [
        [sys.executable, "-m", "venv", "--system-site-packages", str(folder)],
        [str(folder / "bin" / "python"), "-m", "pip", "install", "--no-input",
         "--disable-pip-version-check", "--retries", "0", "--timeout", "15", "-r", str(wanted)],
    ]
    for index, argv in enumerate(steps):
        if index == 1:
            _inherit_packages(folder)
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise EnvironmentBuildError(
                "environment failed", f"{' '.join(argv)} timed out") from exc
        if result.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise EnvironmentBuildError(
                "environment failed", f"$ {' '.join(argv)}\n{result.stdout}{result.stderr}"
            )
    (folder / ".ready").write_text("\n".join(requirements) + "\n", encoding="utf-8")


def _inherit_packages(folder: Path) -> None:
    """Make the current interpreter's packages (pytest among them) visible in the new venv.

    ``--system-site-packages`` only reaches the *base* interpreter's packages; when dreamer itself
    runs in a venv, a ``.pth`` file adds that venv's site-packages after the new venv's own.
    """
    found = sorted(folder.glob("lib/python*/site-packages"))
    if found:
        (found[0] / "_dreamer_parent.pth").write_text(
            "\n".join(site.getsitepackages()) + "\n", encoding="utf-8"
        )


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)
