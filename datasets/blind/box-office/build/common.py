import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

OWNER_NAME = "acme-events/box-office"
BUNDLE_NAME = "acme-events__box-office.bundle"
SCRATCH = "/tmp/box-office-build"
VENV = "/tmp/box-office-venv"
PRIYA = ("Priya Raman", "priya@acme-events.example")


def sh(args, cwd, env=None, check=True, input=None):
    full = dict(os.environ)
    full.update(env or {})
    p = subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, input=input)
    if check and p.returncode != 0:
        raise RuntimeError(f"{args} failed in {cwd}:\n{p.stdout}\n{p.stderr}")
    return p


def git_env(author, stamp):
    return {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1],
            "GIT_COMMITTER_NAME": author[0], "GIT_COMMITTER_EMAIL": author[1],
            "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


def python_bin():
    return os.path.join(VENV, "bin", "python")


def run_tests(workdir, node_ids=None):
    """Run pytest; return {nodeid: passed?} from a junit xml report."""
    xml = os.path.join(SCRATCH, "junit.xml")
    if os.path.exists(xml):
        os.remove(xml)
    args = [python_bin(), "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}"]
    args += list(node_ids or [])
    p = sh(args, workdir, env={"PYTHONDONTWRITEBYTECODE": "1"}, check=False)
    out = {}
    if not os.path.exists(xml):
        return out, p
    for case in ET.parse(xml).getroot().iter("testcase"):
        path = case.get("classname").replace(".", "/") + ".py"
        nid = f"{path}::{case.get('name')}"
        bad = any(child.tag in ("failure", "error") for child in case)
        skipped = any(child.tag == "skipped" for child in case)
        out[nid] = not bad and not skipped
    return out, p


def code_lines(patch):
    """Changed code lines of a unified diff: +/- lines, blank and '#' lines excluded."""
    n = 0
    for line in patch.splitlines():
        if line.startswith(("+++", "---")):
            continue
        if line[:1] in "+-":
            body = line[1:].strip()
            if body and not body.startswith("#"):
                n += 1
    return n


def files_of(patch):
    return sorted(set(re.findall(r"^\+\+\+ b/(\S+)", patch, re.M)) | set(
        m for m in re.findall(r"^--- a/(\S+)", patch, re.M)))
