"""Build the parcel-depot blind corpus: repository, sessions, tasks, facts, memories.

Usage: python3 build/build.py   (needs /tmp/parcel-depot-venv with pytest==8.3.3)
"""
import json
import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import (BUNDLE_NAME, REPO_NAME, SCRATCH, VENV, apply_patch, check_apply, code_lines,  # noqa: E402
                    drop_worktree, git, pytest_results, run, test_env, worktree)
from recorder import Session  # noqa: E402
from sources import FILES  # noqa: E402
import timeline  # noqa: E402

CORPUS = HERE.parent
REPO = SCRATCH / "parcel-depot"


def apply_changes(changes):
    for ch in changes:
        if ch[0] == "edit":
            _, path, old, new = ch
            p = REPO / path
            text = p.read_text()
            if text.count(old) != 1:
                raise RuntimeError(f"edit of {path}: old text found {text.count(old)} times:\n{old}")
            p.write_text(text.replace(old, new))
        elif ch[0] == "write":
            _, path, text = ch
            (REPO / path).parent.mkdir(parents=True, exist_ok=True)
            (REPO / path).write_text(text)
        elif ch[0] == "move":
            _, src, dst = ch
            git(REPO, "mv", src, dst)
        else:
            raise ValueError(ch)


def do_commit(spec):
    apply_changes(spec["changes"])
    if spec.get("run_build_routes"):
        run([str(VENV / "bin/python"), "-m", "depot.tools.build_routes"], REPO, test_env())
    git(REPO, "add", "-A")
    git(REPO, "commit", "-q", "-m", spec["message"], who=spec["who"], date=spec["date"])
    return git(REPO, "rev-parse", "HEAD").strip()


def iso(dt):
    return dt.isoformat()


def record_session(spec):
    start = datetime.fromisoformat(spec["start"])
    base = git(REPO, "rev-parse", "HEAD").strip()
    s = Session(REPO, spec["instance_id"], spec["problem"], base, spec["instance_id"])
    spec["run"](s)
    # the working tree must still hold exactly the submitted change
    end = start + timedelta(seconds=round(s.duration_seconds()))
    commit_end = None
    if spec["message"]:
        git(REPO, "add", "-A")
        when = end + timedelta(minutes=4)
        git(REPO, "commit", "-q", "-m", spec["message"], who=spec["who"], date=iso(when))
        commit_end = git(REPO, "rev-parse", "HEAD").strip()
    else:
        status = git(REPO, "status", "--porcelain")
        assert not status.strip(), status
    traj = s.to_traj(None)
    out = CORPUS / "sessions" / f"{spec['instance_id']}.traj"
    out.write_text(json.dumps(traj, indent=2))
    # make sure no stray caches end up in later diffs
    return {
        "instance_id": spec["instance_id"],
        "file": f"sessions/{spec['instance_id']}.traj",
        "session_id": spec["instance_id"],
        "repo": REPO_NAME,
        "kind": spec["kind"],
        "task": None if spec["kind"] == "chore" else spec.get("task", spec["instance_id"]),
        "family": spec["family"],
        "started_at": iso(start),
        "ended_at": iso(end),
        "commit_start": base,
        "commit_end": commit_end,
        "evidence": spec["evidence"],
        "noise": spec["noise"],
    }


def build_history():
    if REPO.exists():
        shutil.rmtree(REPO)
    REPO.mkdir(parents=True)
    for d in ("sessions", "memories", "repos"):
        shutil.rmtree(CORPUS / d, ignore_errors=True)
        (CORPUS / d).mkdir(parents=True)
    git(REPO, "init", "-q")
    for path, text in FILES.items():
        (REPO / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO / path).write_text(text)
    (REPO / ".env").write_text(timeline.ENV_FILE)
    c0 = do_commit(dict(changes=[], run_build_routes=True, who="mara", date="2026-02-02T09:12:00+01:00",
                        message="Initial depot service: intake, sorting, slots, customs, surcharges, manifests"))
    log = [("commit", c0, "initial")]
    rows = []
    for kind, spec in timeline.EVENTS:
        if kind == "commit":
            sha = do_commit(spec)
            log.append(("commit", sha, spec["message"].splitlines()[0]))
        else:
            row = record_session(spec)
            rows.append(row)
            log.append(("session", row["commit_end"], spec["instance_id"]))
            print(f"session {spec['instance_id']}: {row['started_at']} -> {row['ended_at']}", flush=True)
    return rows, log


if __name__ == "__main__":
    import tasks_build
    rows, log = build_history()
    tasks_build.main(rows)
