"""Builds the box-office corpus: the repository (history + task branches), the
recorded Claude Code sessions, tasks, facts, oracle memories and the bundle.

    python3 build/build.py            # everything
Needs the pytest venv at /tmp/box-office-venv (python3 -m venv ...; pip install pytest==8.3.3)."""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
CORPUS = os.path.dirname(HERE)

from common import (BUNDLE_NAME, OWNER_NAME, PRIYA, SCRATCH, VENV, code_lines, files_of, git_env, run_tests, sh)  # noqa: E402
import repo_src  # noqa: E402
import sessions_def  # noqa: E402
from recorder import Session  # noqa: E402

REPO = os.path.join(SCRATCH, "box-office")


def write_files(root, files):
    for rel, content in files.items():
        path = os.path.join(root, rel)
        if content is None:
            if os.path.exists(path):
                os.remove(path)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(content)


def commit(msg, author, stamp, cwd=REPO):
    sh(["git", "add", "-A"], cwd)
    sh(["git", "commit", "-q", "-m", msg], cwd, env=git_env(author, stamp))
    return head(cwd)


def head(cwd=REPO):
    return sh(["git", "rev-parse", "HEAD"], cwd).stdout.strip()


def human_commits():
    """Commits made by people between the sessions (not recorded)."""
    def rule_change():
        write_files(REPO, {"boxoffice/refunds.py": repo_src.RULE_CHANGE_REFUNDS})
        path = os.path.join(REPO, "tests/test_refund_status.py")
        text = open(path).read().replace('utc("2026-10-22 20:00")', 'utc("2026-10-23 18:30")')
        write_files(REPO, {"tests/test_refund_status.py": text})
        return commit("Refund policy v2: refunds close 24h before doors\n\n"
                      "Legal and the venues agreed a new refund window: refunds stay open until\n"
                      "24 hours before doors open (was 48 hours before the show starts).\n"
                      "REFUND_CUTOFF_HOURS is replaced by REFUND_CUTOFF, anchored on doors_at.",
                      PRIYA, "2026-09-22T16:40:00+00:00")

    def move_tickets():
        sh(["git", "mv", "boxoffice/tickets.py", "boxoffice/delivery/ticket_text.py"], REPO, check=False)
        os.makedirs(os.path.join(REPO, "boxoffice/delivery"), exist_ok=True)
        if not os.path.exists(os.path.join(REPO, "boxoffice/delivery/ticket_text.py")):
            shutil.move(os.path.join(REPO, "boxoffice/tickets.py"), os.path.join(REPO, "boxoffice/delivery/ticket_text.py"))
        p = os.path.join(REPO, "boxoffice/delivery/ticket_text.py")
        write_files(REPO, {
            "boxoffice/delivery/__init__.py": '"""Customer-facing texts: tickets, emails."""\n',
            "boxoffice/delivery/ticket_text.py": open(p).read().replace("from .money import fmt", "from ..money import fmt"),
            "tests/test_tickets.py": open(os.path.join(REPO, "tests/test_tickets.py")).read().replace(
                "from boxoffice.tickets import", "from boxoffice.delivery.ticket_text import"),
            "README.md": open(os.path.join(REPO, "README.md")).read().replace(
                "- `boxoffice/tickets.py` - ticket and confirmation email texts",
                "- `boxoffice/delivery/` - ticket texts and customer emails"),
        })
        return commit("Move ticket texts into boxoffice.delivery\n\nboxoffice/tickets.py -> boxoffice/delivery/ticket_text.py; "
                      "reminder and receipt emails will live next to it.", PRIYA, "2026-09-23T11:05:00+00:00")
    return {"rule_change": rule_change, "move_tickets": move_tickets}


def build_history():
    if os.path.exists(SCRATCH):
        shutil.rmtree(SCRATCH)
    os.makedirs(REPO)
    sh(["git", "init", "-q", "-b", "main"], REPO)
    sh(["git", "config", "user.name", PRIYA[0]], REPO)
    sh(["git", "config", "user.email", PRIYA[1]], REPO)
    write_files(REPO, repo_src.INITIAL)
    shas = {"initial": commit("Box office service: tiers, fees, promos, holds, refunds, tickets, settlement, reports",
                              PRIYA, "2026-09-01T09:00:00+00:00")}
    # a local, git-ignored .env as developers keep it (values are made up)
    write_files(REPO, {".env": "BOXOFFICE_ENV=dev\nDATABASE_URL=postgres://boxoffice:devpass@localhost:5432/boxoffice\n"
                               "STRIPE_SECRET_KEY=sk_test_51Hx9FAKEq2LmZr8TbV3cN0tARealKey77\n"
                               "SENDGRID_API_KEY=SG.fake-3kP9qLmN2vX8.notarealtoken0000\n"})
    humans = human_commits()
    sessions = []
    os.makedirs(os.path.join(CORPUS, "sessions"), exist_ok=True)
    for entry in sessions_def.SESSIONS:
        name, fn, start, author, kind, task, family, evidence, noise, summary = entry
        if name == "s09-email-refund-date":
            shas["rule_change"] = humans["rule_change"]()
            shas["move_tickets"] = humans["move_tickets"]()
        before = head()
        s = Session(name, REPO, start, author, venv_bin=os.path.join(VENV, "bin"))
        fn(s)
        after = head()
        rel = f"sessions/{s.session_id}.jsonl"
        s.dump(os.path.join(CORPUS, rel), summary)
        status = sh(["git", "status", "--porcelain"], REPO).stdout.strip()
        if status:
            raise RuntimeError(f"{name} left the checkout dirty:\n{status}")
        sessions.append({"instance_id": name, "file": rel, "session_id": s.session_id, "repo": OWNER_NAME,
                         "kind": kind, "task": task, "family": family,
                         "started_at": start.isoformat(), "ended_at": s.ended_at.replace(microsecond=0).isoformat(),
                         "commit_start": before, "commit_end": after if after != before else None,
                         "evidence": evidence, "noise": noise})
        print(f"  session {name}: {len(s.records)} records, {before[:8]} -> {after[:8]}")
    shas["main_end"] = head()
    return shas, sessions


if __name__ == "__main__":
    shas, sessions = build_history()
    for k, v in shas.items():
        print(k, v)
    if "--history-only" in sys.argv:
        sys.exit(0)
    import build_tasks
    build_tasks.main(shas, sessions)
    import subprocess
    out = subprocess.run([sys.executable, os.path.join(HERE, "validate.py")], capture_output=True, text=True)
    print(out.stdout, out.stderr)
    import readme
    readme.main(out.stdout)
    if out.returncode != 0:
        sys.exit(1)
