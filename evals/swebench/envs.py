"""Isolated test environments for SWE-bench rows, built once per spec and shared read-only.

**Shared environment** (SWE-bench's "env image"): a venv on the spec's base interpreter
(``evals.swebench.pythons``), without system site-packages and without anything of dreamer's own
environment, holding pip (below 25.3, see ``PIP_VERSION``), setuptools and wheel, the spec's
``packages``, the repository's requirements and the spec's ``pip_packages``, installed by
``uv pip install`` with the package index as of ``DEFAULT_INDEX_DATE`` (see there). It lives in
``DREAMER_HOME/swebench/envs/<owner__name>-<version>-<hash of the spec>/``, is built under a file
lock (parallel rows build it once), and is marked ready (``.ready``) only when every step
succeeded; ``manifest.json`` records the spec, the interpreter, every command and ``pip freeze``.
A failed build leaves ``build.log`` and raises ``EnvironmentBuildError`` naming the failed step.

**Per-copy overlay** (SWE-bench's "instance image"): each working copy gets its own small venv
on the same interpreter (no pip of its own) whose ``.pth`` adds the shared environment's
site-packages after its own, and console scripts re-pointed at it. The spec's ``pre_install``
and ``install`` (the editable install of the repository under test) run into the overlay, so
the shared environment is only ever read.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dreamer import settings
from evals.errors import EnvironmentBuildError
from evals.swebench.pythons import Interpreter, find_python
from evals.swebench.specs import EnvSpec

INDEX_DATE_VARIABLE = "DREAMER_SWEBENCH_INDEX_DATE"
DEFAULT_INDEX_DATE = "2024-01-01"
"""Packages are resolved as the index stood then (uv's ``--exclude-newer``), close to what
SWE-bench's own validation saw: unpinned packages today (pytest 8 dropped nose-style ``setup``
methods) fail gold patches that passed then. ``none`` resolves against today's index."""
PIP_TIMEOUT_S = 1800.0
PIP_VERSION = "pip<25.3"
"""The pip of SWE-bench's images (2024): 25.3 dropped the ``setup.py develop`` fallback that
editable installs of repositories pinning an old setuptools (astroid's ``setuptools~=62.6``)
need."""

_DROPPED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONSAFEPATH",
            "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__",
            "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PIP_USER", "PIP_TARGET", "PIP_PREFIX")
_FAILED: dict[str, EnvironmentBuildError] = {}
"""Builds that failed in this process: later rows of the same spec fail at once."""


@dataclass(frozen=True)
class SharedEnv:
    """A built, ready environment of one spec."""

    folder: Path
    interpreter: Interpreter

    @property
    def key(self) -> str:
        return self.folder.name

    @property
    def site_packages(self) -> Path:
        return site_packages(self.folder, self.interpreter.version)


@dataclass(frozen=True)
class TaskEnv:
    """One working copy's overlay on a shared environment."""

    shared: SharedEnv
    folder: Path

    @property
    def python(self) -> str:
        return str(self.folder / "bin" / "python")

    def variables(self) -> dict[str, str]:
        """The environment of commands run in this overlay."""
        return clean_variables([self.folder / "bin", self.shared.folder / "bin"], self.folder)


def envs_root() -> Path:
    return settings.home() / "swebench" / "envs"


def site_packages(prefix: Path, version: str) -> Path:
    major_minor = ".".join(version.split(".")[:2])
    return prefix / "lib" / f"python{major_minor}" / "site-packages"


def index_date() -> str | None:
    """The date the package index is read as of (``$DREAMER_SWEBENCH_INDEX_DATE``), or None."""
    value = os.environ.get(INDEX_DATE_VARIABLE, DEFAULT_INDEX_DATE).strip()
    if value.lower() in ("", "none", "today"):
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(T[\d:]+Z?)?", value):
        raise EnvironmentBuildError(
            "bad index date", f"{INDEX_DATE_VARIABLE}={value!r} is not YYYY-MM-DD or none")
    return value


def env_folder(spec: EnvSpec, interpreter: Interpreter) -> Path:
    """Where the environment of ``spec`` on ``interpreter`` is cached."""
    digest = spec.digest(interpreter.version, index_date())
    return envs_root() / f"{spec.repo.replace('/', '__')}-{spec.version}-{digest}"


def is_built(spec: EnvSpec) -> bool:
    """Whether ``spec``'s environment is already built (False when its Python is missing)."""
    try:
        return (env_folder(spec, find_python(spec.python)) / ".ready").exists()
    except EnvironmentBuildError:
        return False


def ensure_env(spec: EnvSpec, progress: Callable[[str], None] | None = None) -> SharedEnv:
    """The ready environment of ``spec``, built on first use (``progress`` hears each step)."""
    interpreter = find_python(spec.python)
    folder = env_folder(spec, interpreter)
    if folder.name in _FAILED:
        raise _FAILED[folder.name]
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f"{folder.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".ready").exists():
            try:
                _build(spec, interpreter, folder, progress or (lambda _: None))
            except EnvironmentBuildError as exc:
                _FAILED[folder.name] = exc
                raise
    return SharedEnv(folder=folder, interpreter=interpreter)


def _build(spec: EnvSpec, interpreter: Interpreter, folder: Path,
           progress: Callable[[str], None]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    log = folder / "build.log"
    python = str(folder / "bin" / "python")
    date = index_date()
    from uv import find_uv_bin

    install = [find_uv_bin(), "pip", "install", "--python", python,
               *(["--exclude-newer", date] if date else [])]
    steps: list[tuple[str, list[str]]] = [
        ("venv", [interpreter.path, "-m", "venv", str(folder)]),
        ("pip", [*install, "--upgrade", PIP_VERSION]),
        ("setuptools", [*install, "setuptools", "wheel"]),
    ]
    if spec.packages:
        steps.append(("packages", [*install, *spec.packages]))
    if spec.requirements:
        wanted = folder / "requirements.txt"
        wanted.write_text(spec.requirements + "\n", encoding="utf-8")
        steps.append(("requirements", [*install, "-r", str(wanted)]))
    if spec.pip_packages:
        steps.append(("pip_packages", [*install, *spec.pip_packages]))
    started = time.monotonic()
    variables = clean_variables([folder / "bin"], folder)
    for name, argv in steps:
        progress(name)
        _step(name, argv, variables, log, folder)
    freeze = subprocess.run([python, "-m", "pip", "freeze", "--all"], capture_output=True,
                            text=True, check=False, env=variables)
    manifest = {
        "spec": spec.model_dump(mode="json"), "interpreter": interpreter.__dict__,
        "index_date": date,
        "commands": [argv for _, argv in steps], "freeze": freeze.stdout.splitlines(),
        "build_s": round(time.monotonic() - started, 1),
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    (folder / ".ready").write_text(time.strftime("%Y-%m-%dT%H:%M:%S") + "\n", encoding="utf-8")


def _step(name: str, argv: list[str], variables: dict[str, str], log: Path,
          folder: Path) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        try:
            result = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, text=True,
                                    check=False, env=variables, timeout=PIP_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise EnvironmentBuildError(
                f"environment failed: {name} timed out", f"see {log}") from exc
    if result.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise EnvironmentBuildError(
            f"environment failed: {name} exited {result.returncode}",
            f"building {folder.name}; log {log}\n{tail}")


def overlay(shared: SharedEnv, folder: Path) -> TaskEnv:
    """A fresh per-copy overlay at ``folder`` on ``shared`` (see the module docstring)."""
    result = subprocess.run(
        [shared.interpreter.path, "-m", "venv", "--without-pip", str(folder)],
        capture_output=True, text=True, check=False,
        env=clean_variables([], folder))
    if result.returncode != 0:
        raise EnvironmentBuildError("environment failed: overlay venv", result.stderr[-2000:])
    own = site_packages(folder, shared.interpreter.version)
    # The bare path line lets pip's build isolation recognise (and hide) the shared env as
    # this interpreter's site; addsitedir then honours the shared env's own .pth files.
    (own / "_dreamer_shared_env.pth").write_text(
        f"{shared.site_packages}\nimport site; site.addsitedir({str(shared.site_packages)!r})\n",
        encoding="utf-8")
    _repoint_scripts(shared.folder / "bin", folder / "bin")
    return TaskEnv(shared=shared, folder=folder)


def _repoint_scripts(source: Path, dest: Path) -> None:
    """Copy the shared env's console scripts so they run the overlay's interpreter."""
    launcher = re.compile(rb"^#!.*\n(?:'''exec' .*\n' '''\n)?")
    python = str(dest / "python")
    for script in sorted(source.iterdir()):
        name = script.name
        if name.startswith(("python", "activate", "Activate")) or (dest / name).exists():
            continue
        body = script.read_bytes()
        if not body.startswith(b"#!") or str(source).encode() not in body[:400]:
            continue
        rest = launcher.sub(b"", body, count=1)
        # The sh-exec launcher works whatever the length of the interpreter's path.
        head = f"#!/bin/sh\n'''exec' \"{python}\" \"$0\" \"$@\"\n' '''\n".encode()
        (dest / name).write_bytes(head + rest)
        (dest / name).chmod(0o755)


def clean_variables(bins: Sequence[Path], venv: Path) -> dict[str, str]:
    """The process environment with ``bins`` first on the PATH and nothing of other Pythons:
    no other venv's bin or pyenv shim on the PATH, no PYTHONPATH, no user site, no bytecode
    written (the shared environment stays read-only)."""
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    kept = [p for p in env.get("PATH", "").split(os.pathsep) if p and not _foreign_bin(p)]
    env["PATH"] = os.pathsep.join([*(str(b) for b in bins), *kept])
    env["VIRTUAL_ENV"] = str(venv)
    env["PYTHONNOUSERSITE"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    return env


def _foreign_bin(entry: str) -> bool:
    path = Path(entry)
    return (path.parent / "pyvenv.cfg").exists() or path.name == "shims" or "pyenv" in path.parts
