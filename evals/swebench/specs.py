"""A SWE-bench row's environment and test spec, from the ``swebench`` 4.x table.

``swebench.harness.constants.MAP_REPO_VERSION_TO_SPECS`` (pinned at 4.1.0: 5.x dropped the table
in favour of Docker images) gives, per repository and version: the Python version, conda
``packages`` (a package list, ``requirements.txt`` or ``environment.yml``), ``pip_packages``,
``pre_install`` commands, the ``install`` command, ``eval_commands`` and ``test_cmd``.

``packages: requirements.txt`` means the repository's own requirements file
(``MAP_REPO_TO_REQS_PATHS``, first found) with ``-r`` includes inlined and editable/self lines
dropped, cleaned by ``swebench``'s own ``clean_requirements``. SWE-bench downloads it at the
row's ``environment_setup_commit``; offline it is read from the repository at that commit when
the source holds it, else from the row's base tree (``EnvSpec.requirements_from`` says which).

The test command is the one the row's ``eval_script`` runs between SWE-bench's output markers,
or else the spec's ``test_cmd`` followed by ``swebench``'s test directives of the test patch.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from evals.errors import EnvironmentBuildError
from evals.tasks import Task

SPEC_FORMAT = 3
"""Bumped whenever the way an environment is built from a spec changes (old caches go stale)."""


class EnvSpec(BaseModel):
    """What one (repository, version) environment holds and how its tests run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    repo: str
    version: str
    python: str
    """``X.Y``."""
    packages: tuple[str, ...] = ()
    """Packages the spec installs with conda, installed here with pip."""
    requirements: str = ""
    """The repository's requirements (``packages: requirements.txt``), cleaned."""
    requirements_from: str = ""
    """Where ``requirements`` was read: ``<path> at <commit or base tree>``."""
    pip_packages: tuple[str, ...] = ()
    pre_install: tuple[str, ...] = ()
    install: str | None = None
    eval_commands: tuple[str, ...] = ()
    test_cmd: str

    def env_content(self) -> dict[str, Any]:
        """What decides the shared environment's contents (the per-copy steps excluded)."""
        return {"format": SPEC_FORMAT, "repo": self.repo, "version": self.version,
                "python": self.python, "packages": list(self.packages),
                "requirements": self.requirements, "pip_packages": list(self.pip_packages)}

    def digest(self, python_version: str, index_date: str | None) -> str:
        """A hash of the environment's contents, the exact interpreter version and the date the
        package index is read as of."""
        data = {**self.env_content(), "python_exact": python_version, "index_date": index_date}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


def table_spec(repo: str, version: str | None) -> dict[str, Any]:
    """The raw spec of ``repo`` at ``version`` from ``swebench``'s table, or an infra error."""
    from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS

    versions = MAP_REPO_VERSION_TO_SPECS.get(repo)
    if versions is None:
        raise EnvironmentBuildError("no SWE-bench spec", f"swebench's spec table has no {repo!r}")
    if version is None or version not in versions:
        raise EnvironmentBuildError(
            "no SWE-bench spec",
            f"swebench's spec table has no version {version!r} of {repo} "
            f"(known: {', '.join(sorted(versions))})",
        )
    spec = dict(versions[version])
    if "python" not in spec:
        raise EnvironmentBuildError(
            "no SWE-bench spec", f"{repo} {version} is not a Python spec (no 'python' key)")
    return spec


def env_spec(task: Task, tree: Path, source_git: Path | None = None) -> EnvSpec:
    """The spec of ``task``'s environment; requirements read from ``source_git`` at the row's
    ``environment_setup_commit`` when it holds that commit, else from the base ``tree``."""
    raw = table_spec(task.repo, task.version)
    packages = str(raw.get("packages") or "")
    requirements, requirements_from = "", ""
    listed: tuple[str, ...] = ()
    if packages == "environment.yml":
        raise EnvironmentBuildError(
            "conda environment needed",
            f"{task.repo} {task.version}: the spec builds a conda environment from the "
            "repository's environment.yml; dreamer builds pip environments only")
    if packages == "requirements.txt":
        requirements, requirements_from = _requirements(task, tree, source_git)
    elif packages:
        listed = tuple(_pip_name(p) for p in packages.split())
    test_cmd = raw.get("test_cmd")
    if isinstance(test_cmd, list):
        test_cmd = " && ".join(test_cmd)
    return EnvSpec(
        repo=task.repo, version=str(task.version), python=str(raw["python"]), packages=listed,
        requirements=requirements, requirements_from=requirements_from,
        pip_packages=tuple(raw.get("pip_packages") or ()),
        pre_install=tuple(raw.get("pre_install") or ()), install=raw.get("install"),
        eval_commands=tuple(raw.get("eval_commands") or ()), test_cmd=str(test_cmd or ""),
    )


def test_command(task: Task, spec: EnvSpec) -> str:
    """The bash line that runs the row's tests (see the module docstring)."""
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT

    script = str(getattr(task, "eval_script", "") or "")
    start, end = f": '{START_TEST_OUTPUT}'", f": '{END_TEST_OUTPUT}'"
    lines = script.splitlines()
    if start in lines and end in lines[lines.index(start):]:
        first = lines.index(start) + 1
        body = lines[first:lines.index(end, first)]
        command = "\n".join(ln for ln in body if ln.strip())
        if command:
            return command
    from swebench.harness.test_spec.python import get_test_directives

    directives = get_test_directives({"repo": task.repo, "test_patch": task.test_patch})
    return " ".join([spec.test_cmd, *directives])


test_command.__test__ = False  # type: ignore[attr-defined]


def _pip_name(conda_spec: str) -> str:
    """A conda package spec as pip reads it (``numpy=1.19`` -> ``numpy==1.19``)."""
    spec = conda_spec.strip("'\"")
    if "=" in spec and not any(op in spec for op in ("==", ">=", "<=", "!=", "~=")):
        name, _, version = spec.partition("=")
        return f"{name}=={version}"
    return spec


def _requirements(task: Task, tree: Path, source_git: Path | None) -> tuple[str, str]:
    from swebench.harness.constants import MAP_REPO_TO_REQS_PATHS
    from swebench.harness.test_spec.python import clean_requirements

    paths = MAP_REPO_TO_REQS_PATHS.get(task.repo, [])
    commit = task.environment_setup_commit
    reader: _TreeReader | _GitReader = _TreeReader(tree)
    origin = "base tree"
    if source_git and commit:
        at_setup = _GitReader(source_git, commit)
        if at_setup.ok:
            reader, origin = at_setup, commit
    for rel in paths:
        text = reader.read(rel)
        if text is None:
            continue
        return clean_requirements(_inline(text, rel, reader)), f"{rel} at {origin}"
    raise EnvironmentBuildError(
        "requirements not found",
        f"{task.repo} {task.version}: none of {', '.join(paths) or '(no paths listed)'} in the "
        f"repository at {origin}")


def _inline(text: str, rel: str, reader: _TreeReader | _GitReader) -> str:
    """SWE-bench's reading: ``-r`` includes first, then the file's own lines, without ``-e .``,
    comments and ``.[test...]`` lines."""
    def keep(line: str) -> bool:
        return not any(line.strip().startswith(x) for x in ("-e .", "#", ".[test"))

    base = "/".join(rel.split("/")[:-1])
    own, included = [], []
    for line in text.split("\n"):
        if line.strip().startswith("-r"):
            name = line.strip()[2:].strip()
            extra = reader.read(f"{base}/{name}" if base else name)
            if extra is not None:
                included += [x for x in extra.split("\n") if keep(x)]
        elif keep(line):
            own.append(line)
    return "\n".join([*included, "\n".join(own)])


class _TreeReader:
    def __init__(self, tree: Path) -> None:
        self.tree = tree

    def read(self, rel: str) -> str | None:
        path = self.tree / rel
        return path.read_text(encoding="utf-8") if path.is_file() else None


class _GitReader:
    """Files of a git repository (bare or not) at one commit, read without a checkout."""

    def __init__(self, repo: Path, commit: str) -> None:
        import subprocess

        self.repo, self.commit, self._run = repo, commit, subprocess.run
        probe = self._run(["git", "-C", str(repo), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True, check=False)
        self.ok = probe.returncode == 0

    def read(self, rel: str) -> str | None:
        shown = self._run(["git", "-C", str(self.repo), "show", f"{self.commit}:{rel}"],
                          capture_output=True, text=True, check=False)
        return shown.stdout if shown.returncode == 0 else None
