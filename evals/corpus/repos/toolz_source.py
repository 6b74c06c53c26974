"""Third-party code: the toolz source distribution, fetched from PyPI and checked by hash."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
from pathlib import Path

from evals.corpus.errors import CorpusError
from evals.corpus.gitrepo import FileChanges

TOOLZ_VERSION = "1.0.0"
TOOLZ_SDIST = f"toolz-{TOOLZ_VERSION}.tar.gz"
TOOLZ_SHA256 = "2c86e3d9a04798ac556793bced838816296a2f085017664e4995cb40a1047a02"
"""sha256 of the sdist on PyPI: the build refuses any other bytes."""

ROOT_CONFTEST = "# Lets `pytest toolz/tests/...` import the checkout's toolz.\n"


def fetch_sdist(cache: Path) -> Path:
    """The toolz sdist in ``cache``, downloaded from PyPI with pip when not there yet."""
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / TOOLZ_SDIST
    if not target.exists():
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "--no-build-isolation", "-q", "-d", str(cache), f"toolz=={TOOLZ_VERSION}"],
            capture_output=True, text=True, timeout=300,
        )
        if proc.returncode != 0 or not target.exists():
            raise CorpusError(f"could not download {TOOLZ_SDIST} from PyPI: {proc.stderr[-500:]}"
                              f" -- put the file in {cache} to build offline")
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    if digest != TOOLZ_SHA256:
        raise CorpusError(f"{target} has sha256 {digest}, expected {TOOLZ_SHA256}; delete it and "
                          "build again")
    return target


def sdist_files(sdist: Path) -> FileChanges:
    """The sdist's source files (no build metadata), plus a root conftest for pytest."""
    files: dict[str, str] = {}
    prefix = f"toolz-{TOOLZ_VERSION}/"
    with tarfile.open(sdist) as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            rel = member.name[len(prefix):]
            if rel.startswith("toolz.egg-info/") or rel == "PKG-INFO":
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                files[rel] = handle.read().decode("utf-8")
    files["conftest.py"] = ROOT_CONFTEST
    files[".gitignore"] = "__pycache__/\n.pytest_cache/\n*.egg-info/\n"
    return files
