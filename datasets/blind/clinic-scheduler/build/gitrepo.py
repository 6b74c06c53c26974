"""Small helpers around git with fixed identities and dates (so that shas are reproducible)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

PEOPLE = {
    "dana": ("Dana Whitfield", "dana.whitfield@acme-health.example"),
    "raj": ("Raj Patel", "raj.patel@acme-health.example"),
    "mina": ("Mina Okoro", "mina.okoro@acme-health.example"),
    "priya": ("Priya Shah", "priya.shah@acme-health.example"),
    "sam": ("Sam Rivera", "sam.rivera@acme-health.example"),
    "lena": ("Lena Fischer", "lena.fischer@acme-health.example"),
    "omar": ("Omar Haddad", "omar.haddad@acme-health.example"),
}

BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/nonexistent",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "LANG": "C.UTF-8",
    "TZ": "UTC",
}


def git(repo: Path, *args: str, env: dict | None = None, check: bool = True, input: str | None = None) -> str:
    full_env = dict(BASE_ENV)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false", "-c", "pack.threads=1", *args],
        cwd=repo, env=full_env, capture_output=True, text=True, input=input,
    )
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {repo}:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def commit(repo: Path, who: str, when: str, message: str) -> str:
    name, email = PEOPLE[who]
    env = {
        "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": when,
    }
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


def tag(repo: Path, name: str) -> None:
    git(repo, "tag", name)


def write(repo: Path, rel: str, text: str) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def sub(repo: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    path = repo / rel
    text = path.read_text()
    found = text.count(old)
    if found != count:
        raise AssertionError(f"{rel}: expected {count} occurrence(s) of {old!r}, found {found}")
    path.write_text(text.replace(old, new))


def diff(repo: Path) -> str:
    git(repo, "add", "-A")
    out = git(repo, "diff", "--cached", "--no-color", "--no-ext-diff")
    git(repo, "reset", "-q")
    return out


def clean(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", ".")
    git(repo, "clean", "-qfdx")
