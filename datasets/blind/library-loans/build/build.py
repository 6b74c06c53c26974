#!/usr/bin/env python3
"""Rebuild the library-loans corpus: repository, bundle, sessions, tasks, facts, memories.

Usage: python3 build/build.py            (needs git, python3.11 with pytest on PATH as `python`)

The repository is built commit by commit with fixed author and committer dates. Sessions are
recorded by really running each command (sh -c, as mini-swe-agent's local environment does) in a
checkout at the session's commit; the checkout's resulting changes are committed afterwards.
"""
import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
sys.path.insert(0, str(HERE))

import content  # noqa: E402
from sessions_spec import SESSIONS  # noqa: E402
import tasks_spec  # noqa: E402

OWNER, NAME = "acme-lib", "library-loans"
REPO_ID = f"{OWNER}/{NAME}"
WORK = Path(os.environ.get("LL_BUILD_DIR", "/tmp/library-loans-build"))
REPO = WORK / "library-loans"
# a venv holding only pytest: `python3 -m venv /tmp/blind-b/venv && /tmp/blind-b/venv/bin/pip install pytest==8.3.3`
PY_BIN = os.environ.get("LL_PY_BIN", "/tmp/blind-b/venv/bin")

PEOPLE = {
    "maya": ("Maya Kovacs", "maya@acme-lib.example"),
    "sam": ("Sam Ortiz", "sam@acme-lib.example"),
    "priya": ("Priya Nair", "priya@acme-lib.example"),
}

SYSTEM = (
    "You are a helpful assistant that can interact with a computer.\n\nYour response must contain exactly ONE "
    "bash code block with ONE command (or commands connected with && or ||).\nInclude a THOUGHT section before "
    "your command where you explain your reasoning process.\nFormat your response as shown in <format_example>."
    "\n\n<format_example>\nYour reasoning and analysis here. Explain why you want to perform the action.\n\n"
    "```mswea_bash_command\nyour_command_here\n```\n</format_example>\n\nFailure to follow these rules will "
    "cause your response to be rejected.\nTo finish, issue the following command: `echo "
    "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`\nwithout any other command.\n"
)
INSTANCE_TAIL = (
    "\n\nYou can execute bash commands and edit files to implement the necessary changes.\n\n## Recommended "
    "Workflow\n1. Analyze the codebase by finding and reading relevant files\n2. Create a script to reproduce "
    "the issue\n3. Edit the source code to resolve the issue\n4. Verify your fix works by running your script "
    "again\n5. Test edge cases to ensure your fix is robust\n\n## Important Rules\n\n1. Every response must "
    "contain exactly one action\n2. The action must be enclosed in triple backticks\n3. Directory or "
    "environment variable changes are not persistent. Every action is executed in a new subshell.\n   However, "
    "you can prefix any action with `MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...` or write/load "
    "environment variables from files\n4. To finish, issue the following command: `echo "
    "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`.\n   Do not combine it with any other command.\n\n## Formatting "
    "your response\n\nHere is an example of a correct response:\n\n<example_response>\nTHOUGHT: I need to "
    "understand the structure of the repository first. Let me check what files are in the current directory "
    "to get a better understanding of the codebase.\n\n```mswea_bash_command\nls -la\n```\n</example_response>"
    "\n\n## Useful command examples\n\n### Create a new file:\n\n```mswea_bash_command\ncat <<'EOF' > "
    "newfile.py\nimport numpy as np\nhello = \"world\"\nprint(hello)\nEOF\n```\n\n### Edit files with sed:\n\n"
    "```mswea_bash_command\n# Replace all occurrences\nsed -i 's/old_string/new_string/g' filename.py\n\n# "
    "Replace only first occurrence\nsed -i 's/old_string/new_string/' filename.py\n\n# Replace first "
    "occurrence on line 1\nsed -i '1s/old_string/new_string/' filename.py\n\n# Replace all occurrences in "
    "lines 1-10\nsed -i '1,10s/old_string/new_string/g' filename.py\n```\n\n### View file content:\n\n"
    "```mswea_bash_command\n# View specific lines with numbers\nnl -ba filename.py | sed -n '10,20p'\n```\n\n"
    "### Any other command you want to run\n\n```mswea_bash_command\nanything\n```"
)
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"


def run(cmd, cwd=REPO, env=None, check=True, input_text=None):
    out = subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, input=input_text)
    if check and out.returncode != 0:
        raise RuntimeError(f"{cmd!r} failed ({out.returncode}):\n{out.stdout}")
    return out


def git_env(when: str, who: str = "maya"):
    name, email = PEOPLE[who]
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=name,
               GIT_COMMITTER_EMAIL=email, GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    return env


def sh_env():
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PATH"] = PY_BIN + os.pathsep + env["PATH"]
    env["PAGER"] = "cat"
    env["GIT_PAGER"] = "cat"
    env["TERM"] = "dumb"
    return env


def write_files(files: dict):
    for rel, text in files.items():
        p = REPO / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def commit(msg: str, when: str, who: str = "maya") -> str:
    run(["git", "add", "-A"])
    run(["git", "commit", "-q", "-m", msg], env=git_env(when, who))
    return head()


def head() -> str:
    return run(["git", "rev-parse", "HEAD"]).stdout.strip()


def clean_checkout():
    run("find . -name __pycache__ -prune -exec rm -rf {} + ; rm -rf .pytest_cache")


def record_session(spec: dict) -> dict:
    """Run the session's commands for real and write its .traj.json."""
    clean_checkout()
    commit_start = head()
    # the checkout's files carry the time of the commit checked out (as a fresh clone would have then)
    when = run(["git", "log", "-1", "--format=%cI"]).stdout.strip()
    run(["find", ".", "-path", "./.git", "-prune", "-o", "-exec", "touch", "-d", when, "{}", "+"])
    messages = [{"role": "system", "content": SYSTEM},
                {"role": "user", "content": "Please solve this issue: " + spec["issue"] + INSTANCE_TAIL}]
    env = sh_env()
    for thought, command in spec["steps"]:
        messages.append({"role": "assistant", "content": f"{thought}\n\n```mswea_bash_command\n{command}\n```"})
        out = run(command, env=env, check=False)
        messages.append({"role": "user",
                         "content": f"<returncode>{out.returncode}</returncode>\n<output>\n{out.stdout}</output>"})
    clean_checkout()
    final_thought = "The work is done and verified; let me submit the changes."
    messages.append({"role": "assistant", "content": f"{final_thought}\n\n```mswea_bash_command\n{SUBMIT}\n```"})
    out = run("git add -A && git diff --cached", env=env)
    messages.append({"role": "user", "content": out.stdout})
    start = datetime.fromisoformat(spec["start"])
    n_steps = len(spec["steps"]) + 1
    end = start + timedelta(seconds=47 * n_steps + 60)
    commit_end = None
    if out.stdout.strip():
        when = (end + timedelta(minutes=30)).isoformat()
        commit_end = commit(spec["commit"], when, "priya")
    rel = f"sessions/{spec['id']}.traj.json"
    (CORPUS / rel).write_text(json.dumps(messages, indent=2, ensure_ascii=False) + "\n")
    return {
        "instance_id": spec["id"], "file": rel, "session_id": None, "repo": REPO_ID,
        "kind": spec["kind"], "task": spec["task"], "family": spec["family"],
        "started_at": start.isoformat(), "ended_at": end.isoformat(),
        "commit_start": commit_start, "commit_end": commit_end,
        "evidence": spec["evidence"], "noise": spec["noise"],
    }


def build_history():
    if WORK.exists():
        shutil.rmtree(WORK)
    REPO.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main"])
    run(["git", "config", "user.name", "Maya Kovacs"])
    run(["git", "config", "user.email", "maya@acme-lib.example"])
    by_id = {s["id"]: s for s in SESSIONS}
    rows, marks = [], {}

    write_files(content.INITIAL)
    marks["initial"] = commit("Initial lending service: checkout, renewals, fines, ledger, letters",
                              "2024-01-02T09:00:00+00:00")
    write_files(content.HOLDS)
    marks["holds"] = commit("Hold queue", "2024-01-04T11:20:00+00:00", "sam")
    for sid in ["s01_onboarding", "s02_grace_period", "s03_closure_due_dates", "s04_damage_fee",
                "s05_letter_dates", "s06_renew_from_due", "s07_ill_fee"]:
        rows.append(record_session(by_id[sid]))
    write_files(content.EXPORT_PR)
    marks["export_pr"] = commit("Overdue export: add returned column (PR #23)", "2024-02-22T16:45:00+00:00", "sam")
    rows.append(record_session(by_id["s08_export_iso"]))
    rows.append(record_session(by_id["s09_grace_policy_change"]))
    marks["rule_change"] = rows[-1]["commit_end"]
    run(["git", "mv", "loans/calendar.py", "loans/hours.py"])
    run("sed -i 's/^from .calendar import next_open_day$/from .hours import next_open_day/' loans/circulation.py")
    marks["rename"] = commit("Rename loans/calendar.py to loans/hours.py: the name shadowed the standard "
                             "library's calendar module", "2024-03-06T08:50:00+00:00")
    rows.append(record_session(by_id["s10_card_fee"]))
    rows.append(record_session(by_id["s11_onboarding_again"]))
    marks["main_tip"] = head()
    return rows, marks


def main():
    for d in ["sessions", "memories", "repos"]:
        if (CORPUS / d).exists():
            shutil.rmtree(CORPUS / d)
        (CORPUS / d).mkdir(parents=True)
    rows, marks = build_history()
    with open(CORPUS / "sessions.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    tasks_spec.build_tasks(REPO, marks, rows, CORPUS, git_env, run)
    run(["git", "checkout", "-q", "main"])
    bundle = CORPUS / "repos" / f"{OWNER}__{NAME}.bundle"
    run(["git", "bundle", "create", str(bundle), "--all"])
    print(json.dumps(marks, indent=1))


if __name__ == "__main__":
    main()
