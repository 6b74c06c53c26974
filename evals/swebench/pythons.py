"""The machine's Python interpreters, found by version for SWE-bench's environments.

A spec names a Python ``X.Y``. It is looked for, in order, among pyenv's installed versions
(``$PYENV_ROOT/versions/X.Y.*``, highest patch first), with ``uv python find --system X.Y``
(``uv`` on the PATH or dreamer's own), and as ``pythonX.Y`` on the PATH. An interpreter inside a
virtual environment (dreamer's own, for one) is never taken: environments are built on a base
interpreter, so nothing of another environment leaks in.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from evals.errors import EnvironmentBuildError


@dataclass(frozen=True)
class Interpreter:
    """A base Python interpreter: its path, its exact version and how it was found."""

    path: str
    version: str
    """``X.Y.Z``."""
    found_by: str


def pyenv_root() -> Path:
    """pyenv's root folder: ``$PYENV_ROOT`` or ``~/.pyenv``."""
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")


@lru_cache(maxsize=32)
def find_python(wanted: str) -> Interpreter:
    """The interpreter for Python ``wanted`` (``X.Y``), or ``EnvironmentBuildError`` naming it."""
    if not re.fullmatch(r"\d+\.\d+", wanted):
        raise EnvironmentBuildError("python unavailable", f"{wanted!r} is not a version X.Y")
    for finder in (_from_pyenv, _from_uv, _from_path):
        found = finder(wanted)
        if found is not None:
            return found
    raise EnvironmentBuildError(
        f"python {wanted} unavailable",
        f"no Python {wanted} among pyenv's versions under {pyenv_root() / 'versions'}, "
        f"`uv python find --system {wanted}` or python{wanted} on the PATH; install it "
        f"(`pyenv install {wanted}` or `uv python install {wanted}`)",
    )


def _from_pyenv(wanted: str) -> Interpreter | None:
    versions = pyenv_root() / "versions"
    if not versions.is_dir():
        return None
    pattern = re.compile(rf"{re.escape(wanted)}\.(\d+)")
    found = sorted(
        (int(hit.group(1)), folder) for folder in versions.iterdir()
        if (hit := pattern.fullmatch(folder.name))
    )
    for _, folder in reversed(found):
        python = folder / "bin" / f"python{wanted}"
        if python.is_file():
            return _probe(str(python), wanted, "pyenv")
    return None


def _from_uv(wanted: str) -> Interpreter | None:
    uv = shutil.which("uv")
    if uv is None:
        try:
            from uv import find_uv_bin

            uv = find_uv_bin()
        except (ImportError, FileNotFoundError):
            return None
    result = subprocess.run([uv, "python", "find", "--system", wanted], capture_output=True,
                            text=True, check=False, timeout=60)
    path = result.stdout.strip()
    return _probe(path, wanted, "uv python find") if result.returncode == 0 and path else None


def _from_path(wanted: str) -> Interpreter | None:
    path = shutil.which(f"python{wanted}")
    return _probe(path, wanted, "PATH") if path else None


def _probe(path: str, wanted: str, found_by: str) -> Interpreter | None:
    """The interpreter at ``path`` if it is a base (not a venv) Python ``wanted``."""
    code = ("import sys; print('%d.%d.%d' % sys.version_info[:3]); "
            "print(sys.prefix == sys.base_prefix)")
    try:
        result = subprocess.run([path, "-I", "-c", code], capture_output=True, text=True,
                                check=False, timeout=60)
    except OSError:
        return None
    lines = result.stdout.split()
    if result.returncode != 0 or len(lines) != 2 or lines[1] != "True":
        return None
    if not lines[0].startswith(f"{wanted}."):
        return None
    return Interpreter(path=path, version=lines[0], found_by=found_by)
