"""Build the repository history and record the sessions over it.

    python3 build/build.py [--until STEP]

The checkout lives at /workspaces/irrigation-control (a dev container path, as the sessions
show it). Commits use fixed names and dates, so the shas are the same on every rebuild.
Sessions are recorded by recorder.py (mini-swe-agent 1.17.5) in that checkout at the commit
they start from; what they changed becomes the next commit.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
SEED = BUILD / "seed"
CHECKOUT = Path("/workspaces/irrigation-control")
VENV = Path(os.environ.get("IRRIGATION_VENV", "/work/blind-new/.venv-irrigation"))
REPO = "acme-farm/irrigation-control"

PRIYA = ("Priya Raman", "priya.raman@acme-farm.example")
JONAS = ("Jonas Vermeer", "jonas.vermeer@acme-farm.example")

sys.path.insert(0, str(BUILD))
import history  # noqa: E402


def git(*args, cwd=CHECKOUT, env=None, check=True):
    base = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    if env:
        base.update(env)
    res = subprocess.run(["git", *args], cwd=cwd, env=base, text=True, capture_output=True)
    if check and res.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed:\n{res.stdout}\n{res.stderr}")
    return res.stdout.strip()


def commit(message, date, author=PRIYA, paths=None):
    if paths is None:
        git("add", "-A")
    else:
        git("add", "-A", "--", *paths)
    env = {
        "GIT_AUTHOR_NAME": author[0],
        "GIT_AUTHOR_EMAIL": author[1],
        "GIT_COMMITTER_NAME": author[0],
        "GIT_COMMITTER_EMAIL": author[1],
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    git("commit", "-q", "-m", message, env=env)
    return git("rev-parse", "HEAD")


def head():
    return git("rev-parse", "HEAD")


def recorder_env():
    tok = VENV / "lib/python3.11/site-packages/litellm/litellm_core_utils/tokenizers"
    return {
        "PATH": f"{VENV}/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/root",
        "USER": "root",
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "MSWEA_SILENT_STARTUP": "1",
        "MSWEA_GLOBAL_CONFIG_DIR": "/tmp/mswea-replay-config",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "TIKTOKEN_CACHE_DIR": str(tok),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/tmp/mswea-replay-config/gitconfig",
    }


def touch_checkout():
    """Files in the checkout carry the time of the last commit, as after a pull."""
    epoch = int(git("log", "-1", "--format=%ct"))
    for dirpath, dirnames, filenames in os.walk(CHECKOUT):
        for entry in filenames:
            os.utime(os.path.join(dirpath, entry), (epoch, epoch), follow_symlinks=False)
        os.utime(dirpath, (epoch, epoch))
    os.utime(CHECKOUT.parent, (epoch, epoch))


def record(name):
    touch_checkout()
    out = CORPUS / "sessions" / f"{name}.traj.json"
    log = Path("/tmp/mswea-replay-config") / f"{name}.console.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    (log.parent / "gitconfig").write_text("[user]\n\tname = Priya Raman\n\temail = priya.raman@acme-farm.example\n")
    with open(log, "w") as fh:
        res = subprocess.run(
            [str(VENV / "bin/python"), str(BUILD / "recorder.py"), name, str(out)],
            cwd=CHECKOUT,
            env=recorder_env(),
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
    if res.returncode != 0:
        raise SystemExit(f"recording {name} failed, see {log}")
    data = json.loads(out.read_text())
    stamps = [m["timestamp"] for m in data["messages"]]
    return stamps[0], stamps[-1]


def iso(epoch):
    return datetime.fromtimestamp(epoch).astimezone(history.TZ).isoformat(timespec="seconds")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--until")
    args = ap.parse_args()

    if CHECKOUT.exists():
        shutil.rmtree(CHECKOUT)
    CHECKOUT.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    git("config", "user.name", PRIYA[0])
    git("config", "user.email", PRIYA[1])

    shas = {}
    rows = []
    for step in history.STEPS:
        kind, name = step["kind"], step["name"]
        if kind == "commit":
            step["apply"](CHECKOUT)
            shas[name] = commit(step["message"], step["date"], step.get("author", PRIYA))
            print(f"{name}: {shas[name][:10]} {step['message'].splitlines()[0]}")
        elif kind == "session":
            start_commit = head()
            if step.get("before"):
                step["before"](CHECKOUT)
            t0, t1 = record(name)
            end_commit = None
            if step.get("message"):
                if step.get("after"):
                    step["after"](CHECKOUT)
                end_commit = commit(step["message"], step["date"], step.get("author", PRIYA))
                shas[name] = end_commit
            print(f"{name}: recorded {iso(t0)} .. {iso(t1)} -> {end_commit and end_commit[:10]}")
            rows.append(
                {
                    "instance_id": name,
                    "file": f"sessions/{name}.traj.json",
                    "session_id": None,
                    "repo": REPO,
                    "kind": step["session_kind"],
                    "task": step.get("task"),
                    "family": step.get("family"),
                    "started_at": iso(t0),
                    "ended_at": iso(t1),
                    "commit_start": start_commit,
                    "commit_end": end_commit,
                    "evidence": step.get("evidence", []),
                    "noise": step.get("noise", []),
                }
            )
        if args.until and name == args.until:
            break

    (BUILD / "out").mkdir(exist_ok=True)
    (BUILD / "out" / "shas.json").write_text(json.dumps(shas, indent=2) + "\n")
    if not args.until:
        with open(CORPUS / "sessions.jsonl", "w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    print("main:", head())


if __name__ == "__main__":
    main()
