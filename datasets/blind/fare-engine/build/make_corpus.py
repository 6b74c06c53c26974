"""Build the repository history and record the sessions, in time order.

    FARE_VENV=/path/to/venv  python build/make_corpus.py [--until EVENT_ID]

The repository is built in /acme-transit__fare-engine (the path SWE-agent's
container uses for this repo), every commit with fixed names and dates.
Each session is run for real by build/sweagent_run.py at the commit that was
HEAD when it started; its submission is then committed as its commit_end.
Writes sessions/*.traj, sessions.jsonl, build/commits.json and the bundle.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
sys.path.insert(0, str(HERE))

import later_commits  # noqa: E402
import session_specs  # noqa: E402
from sweagent_run import REPO_DIR, run_session  # noqa: E402

REPO = "acme-transit/fare-engine"
DEV = ("Dana Okafor", "dana.okafor@acme-transit.example")
BOT = ("swe-agent", "swe-agent@acme-transit.example")


def git(*args, env_extra=None, check=True, cwd=REPO_DIR) -> str:
    env = dict(os.environ)
    env.update({"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null"})
    if env_extra:
        env.update(env_extra)
    res = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if check and res.returncode != 0:
        raise RuntimeError(f"git {args}: {res.stderr}")
    return res.stdout


def commit(message: str, when: str, who=DEV) -> str:
    git("add", "-A")
    env = {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_AUTHOR_DATE": when,
           "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1], "GIT_COMMITTER_DATE": when}
    git("commit", "-q", "-m", message, env_extra=env)
    return git("rev-parse", "HEAD").strip()


def init_repo() -> str:
    if REPO_DIR.exists():
        shutil.rmtree(REPO_DIR)
    shutil.copytree(HERE / "initial", REPO_DIR)
    git("init", "-q", "-b", "main")
    return commit("Initial import of fare-engine 0.3.0", "2024-02-26T10:00:00+00:00")


def main(argv: list[str]) -> None:
    until = argv[argv.index("--until") + 1] if "--until" in argv else None
    commits = {"initial": init_repo()}
    rows = []
    (CORPUS / "sessions").mkdir(exist_ok=True)
    for event in session_specs.TIMELINE:
        kind, eid = event
        if kind == "commit":
            spec = later_commits.COMMITS[eid]
            git("checkout", "-q", "main")
            spec["apply"](REPO_DIR)
            commits[eid] = commit(spec["message"], spec["when"], DEV)
            print("commit", eid, commits[eid])
        else:
            s = session_specs.SESSIONS[eid]
            start = git("rev-parse", "HEAD").strip()
            traj = CORPUS / "sessions" / f"{eid}.traj"
            data = run_session(start, s["issue"], s["steps"], traj)
            submission = data["info"].get("submission")
            git("reset", "-q", "--hard", start)
            git("clean", "-fdxq")
            end = None
            if submission:
                subprocess.run(["git", "apply", "-"], input=submission, text=True, cwd=REPO_DIR, check=True)
                end = commit(s["commit_message"], s["commit_at"], BOT)
            commits[eid] = end
            rows.append({
                "instance_id": eid,
                "file": f"sessions/{eid}.traj",
                "session_id": None,
                "repo": REPO,
                "kind": s["kind"],
                "task": s.get("task"),
                "family": s.get("family"),
                "started_at": s["started_at"],
                "ended_at": s["ended_at"],
                "commit_start": start,
                "commit_end": end,
                "evidence": s["evidence"],
                "noise": s["noise"],
            })
            print("session", eid, start[:8], "->", (end or "none")[:8], len(data["trajectory"]), "steps")
        if until == eid:
            break
    (HERE / "commits.json").write_text(json.dumps(commits, indent=2) + "\n")
    if until is None:
        with open(CORPUS / "sessions.jsonl", "w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
        git("checkout", "-q", "main")
        (CORPUS / "repos").mkdir(exist_ok=True)
        bundle = CORPUS / "repos" / "acme-transit__fare-engine.bundle"
        if bundle.exists():
            bundle.unlink()
        git("bundle", "create", str(bundle), "--all")


if __name__ == "__main__":
    main(sys.argv[1:])
