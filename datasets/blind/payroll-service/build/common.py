"""Helpers shared by build.py and validate.py: apply a patch in a scratch checkout, run pytest,
count a patch's changed code lines."""
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path


def sh(cmd, cwd, check=True, env=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if check and p.returncode:
        raise RuntimeError(f"{cmd}: {p.stdout}{p.stderr}")
    return p


def checkout(repo, commit, root):
    """A scratch clone of `repo` at `commit` under `root`."""
    d = Path(tempfile.mkdtemp(dir=root))
    sh(["git", "clone", "-q", "--no-checkout", str(repo), str(d / "w")], cwd=root)
    sh(["git", "checkout", "-q", commit], cwd=d / "w")
    return d / "w"


def apply(work, patch):
    if not patch:
        return
    p = subprocess.run(["git", "apply", "--whitespace=nowarn", "-"], cwd=work, input=patch,
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"patch does not apply: {p.stderr}")


def run_tests(work, python, tests=None):
    """pytest node id -> 'passed' / 'failed' / 'error'; uncollected ids are absent."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    cmd = [python, "-m", "pytest", "-rA", "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors",
           *(tests or [])]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env)
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) (\S+::\S+)", line)
        if m:
            out[m.group(2)] = m.group(1).lower()
    return out, p.stdout


def code_lines(patch):
    """Changed lines of a unified diff that are neither blank nor comments: (added, removed)."""
    added = removed = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")):
            continue
        if line.startswith(("+", "-")):
            body = line[1:].strip()
            if not body or body.startswith("#"):
                continue
            if line[0] == "+":
                added += 1
            else:
                removed += 1
    return added, removed


def added_text(patch):
    return "\n".join(l[1:] for l in patch.splitlines() if l.startswith("+") and not l.startswith("+++"))


def cleanup(path):
    shutil.rmtree(Path(path).parent, ignore_errors=True)
