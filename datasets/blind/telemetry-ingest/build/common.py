"""Shared settings of the corpus build: paths, identities, the pinned test environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
SEED = BUILD / "seed"
WORK = BUILD / ".work"
CHECKOUT = WORK / "telemetry-ingest"
VENV = WORK / "venv"
FAKE_HOME = WORK / "home"

REPO = "acme-iot/telemetry-ingest"
BUNDLE_NAME = "acme-iot__telemetry-ingest.bundle"
DISPLAY_CWD = "/home/dev/src/telemetry-ingest"

BERLIN = timezone(timedelta(hours=2))  # CEST, the whole history is in August / September 2025

PEOPLE = {
    "lena": ("Lena Vogt", "lena.vogt@acme-iot.example"),
    "marco": ("Marco Ruiz", "marco.ruiz@acme-iot.example"),
    "dev": ("Dev Patel", "dev.patel@acme-iot.example"),
}

PINNED = ["pytest==8.4.1", "pluggy==1.6.0", "iniconfig==2.1.0", "packaging==25.0", "pygments==2.19.2"]


def at(text: str) -> datetime:
    """'2025-08-05 09:12' (Berlin time) as an aware datetime."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=BERLIN)


def ensure_venv() -> Path:
    """A venv with only the pinned pytest: what the developer's checkout uses."""
    python = VENV / "bin" / "python"
    if python.exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINNED], check=True)
    return python


def base_env() -> dict[str, str]:
    FAKE_HOME.mkdir(parents=True, exist_ok=True)
    (FAKE_HOME / ".gitconfig").write_text(
        "[user]\n\tname = Dev Patel\n\temail = dev.patel@acme-iot.example\n"
        "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
    )
    return {
        "PATH": f"{VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(FAKE_HOME),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "Europe/Berlin",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_PAGER": "cat",
        "PAGER": "cat",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "VIRTUAL_ENV": str(VENV),
        "TERM": "dumb",
        "COLUMNS": "80",
    }


def git_env(who: str, when: datetime) -> dict[str, str]:
    name, email = PEOPLE[who]
    stamp = when.isoformat()
    env = base_env()
    env.update(
        GIT_AUTHOR_NAME=name,
        GIT_AUTHOR_EMAIL=email,
        GIT_COMMITTER_NAME=name,
        GIT_COMMITTER_EMAIL=email,
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_DATE=stamp,
    )
    return env


def git(*args: str, cwd: Path = CHECKOUT, who: str = "dev", when: datetime | None = None, check=True) -> str:
    env = git_env(who, when or at("2025-07-21 09:00"))
    proc = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout.strip()


def head(cwd: Path = CHECKOUT) -> str:
    return git("rev-parse", "HEAD", cwd=cwd)


def reset_dir(path: Path) -> None:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    count = text.count(old)
    if count != 1:
        raise RuntimeError(f"{path}: expected one occurrence, found {count}: {old[:80]!r}")
    path.write_text(text.replace(old, new))
