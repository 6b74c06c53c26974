"""Shared helpers for build.py and validate.py: git with fixed dates, pytest runs, patches."""
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

SCRATCH = Path("/tmp/parcel-depot-build")
VENV = Path("/tmp/parcel-depot-venv")
REPO_NAME = "acme-post/parcel-depot"
BUNDLE_NAME = "acme-post__parcel-depot.bundle"

PEOPLE = {
    "mara": ("Mara de Vries", "mara.devries@acme-post.example"),
    "sam": ("Sam Okafor", "sam.okafor@acme-post.example"),
    "ruud": ("Ruud Jansen", "ruud.jansen@acme-post.example"),
    "qa": ("Lotte Bakker", "lotte.bakker@acme-post.example"),
    "ops": ("Depot Ops", "ops@acme-post.example"),
}


def run(cmd, cwd, env=None, check=True, input=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, cwd=cwd, env=e, capture_output=True, text=True, input=input)
    if check and p.returncode != 0:
        raise RuntimeError(f"{cmd} failed in {cwd}:\n{p.stdout}\n{p.stderr}")
    return p


def git(cwd, *args, who="mara", date=None, check=True, input=None):
    name, email = PEOPLE[who]
    env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
           "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
           "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null"}
    if date:
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
    return run(["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false",
                "-c", "commit.gpgsign=false", *args], cwd, env, check=check, input=input).stdout


def test_env():
    return {"PATH": f"{VENV}/bin:" + os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0", "TZ": "UTC", "LANG": "C.UTF-8", "COLUMNS": "100"}


def pytest_results(cwd):
    """Run the whole suite; return {nodeid: passed(bool)}."""
    xml = Path(cwd) / ".junit.xml"
    run([str(VENV / "bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"--junitxml={xml}"], cwd, test_env(), check=False)
    out = {}
    if not xml.exists():
        return out
    root = ET.parse(xml).getroot()
    for tc in root.iter("testcase"):
        cls = tc.get("classname", "")
        parts = cls.split(".")
        # classname is like tests.test_x (module) or tests.test_x.TestClass
        path_parts, rest = [], []
        for i in range(len(parts), 0, -1):
            cand = Path(cwd, *parts[:i]).with_suffix(".py")
            if cand.exists():
                path_parts, rest = parts[:i], parts[i:]
                break
        nodeid = "/".join(path_parts) + ".py::" + "::".join(rest + [tc.get("name")])
        failed = any(ch.tag in ("failure", "error") for ch in tc)
        skipped = any(ch.tag == "skipped" for ch in tc)
        out[nodeid] = not failed and not skipped
    xml.unlink()
    return out


def apply_patch(cwd, patch):
    if not patch.strip():
        return
    run(["git", "apply", "--whitespace=nowarn", "-"], cwd, input=patch)


def check_apply(cwd, patch):
    p = run(["git", "apply", "--check", "-"], cwd, check=False, input=patch)
    return p.returncode == 0


def code_lines(patch):
    """Changed code lines of a diff: +/- lines, not blank, not comment-only."""
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")):
            continue
        if line.startswith(("+", "-")):
            body = line[1:].strip()
            if body and not body.startswith("#"):
                n += 1
    return n


def worktree(repo, commit, name):
    path = SCRATCH / "wt" / name
    if path.exists():
        run(["git", "worktree", "remove", "--force", str(path)], repo, check=False)
        shutil.rmtree(path, ignore_errors=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    run(["git", "worktree", "add", "--detach", str(path), commit], repo)
    return path


def drop_worktree(repo, path):
    run(["git", "worktree", "remove", "--force", str(path)], repo, check=False)
    shutil.rmtree(path, ignore_errors=True)
