"""Helpers shared by tasks.py and validate.py: worktrees, edits, diffs, test runs, line counts."""

import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

PYTHON = os.environ.get("IRRIGATION_PYTHON", "/work/blind-new/.venv-irrigation/bin/python")
GIT_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/root",
    "LANG": "C.UTF-8",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def git(repo, *args, env=None, check=True):
    e = dict(GIT_ENV)
    if env:
        e.update(env)
    res = subprocess.run(["git", *args], cwd=repo, env=e, text=True, capture_output=True)
    if check and res.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {repo}: {res.stdout}{res.stderr}")
    return res.stdout


class Checkout:
    """A throw-away checkout of `rev` from `repo` (a repository path or a bundle)."""

    def __init__(self, repo, rev):
        self.dir = Path(tempfile.mkdtemp(prefix="irr-task-"))
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(self.dir)], check=True,
                       env=GIT_ENV, capture_output=True)
        git(self.dir, "checkout", "-q", "--detach", rev)

    def __enter__(self):
        return self.dir

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


def apply_edits(root, edits):
    for edit in edits:
        kind = edit[0]
        if kind == "replace":
            _, rel, old, new = edit
            p = root / rel
            text = p.read_text()
            if text.count(old) != 1:
                raise ValueError(f"{rel}: expected one match of {old!r}, found {text.count(old)}")
            p.write_text(text.replace(old, new))
        elif kind == "write":
            _, rel, content = edit
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(content)
        elif kind == "run":
            res = subprocess.run(edit[1].replace("python ", f"{PYTHON} ", 1), shell=True, cwd=root,
                                 capture_output=True, text=True)
            if res.returncode != 0:
                raise RuntimeError(f"{edit[1]}: {res.stdout}{res.stderr}")
        else:
            raise ValueError(kind)
    for cache in root.rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)


def diff_of(root):
    git(root, "add", "-A")
    out = git(root, "diff", "--cached", "--no-color", "--no-ext-diff")
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-qfdx")
    return out


def apply_patch(root, patch):
    if not patch:
        return True, ""
    p = root / ".candidate.patch"
    p.write_text(patch)
    res = subprocess.run(["git", "apply", "--check", str(p)], cwd=root, capture_output=True, text=True, env=GIT_ENV)
    if res.returncode != 0:
        p.unlink()
        return False, res.stderr
    subprocess.run(["git", "apply", str(p)], cwd=root, check=True, env=GIT_ENV)
    p.unlink()
    return True, ""


def run_tests(root, ids=None):
    """Run pytest; return {nodeid: passed?} for every test that ran."""
    report = root / ".junit.xml"
    cmd = [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors", f"--junitxml={report}"]
    cmd += list(ids) if ids else []
    env = {"PATH": f"{Path(PYTHON).parent}:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env, timeout=300)
    results = {}
    if report.exists():
        for case in ET.parse(report).getroot().iter("testcase"):
            path = case.get("classname", "").replace(".", "/")
            nodeid = f"{path}.py::{case.get('name')}"
            failed = any(child.tag in ("failure", "error") for child in case)
            skipped = any(child.tag == "skipped" for child in case)
            results[nodeid] = not failed and not skipped
        report.unlink()
    return results


def changed_code_lines(patch):
    """Added + removed lines of a unified diff, without blank and comment lines."""
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")):
            continue
        if line.startswith(("+", "-")):
            body = line[1:].strip()
            if not body or body.startswith("#"):
                continue
            n += 1
    return n


def patch_stats(patch):
    files, added, removed = [], 0, 0
    for line in patch.splitlines():
        if line.startswith("+++ b/"):
            files.append(line[6:])
        elif line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return files, added, removed
