#!/usr/bin/env python3
"""Rebuild the payroll-service corpus: repository, recorded sessions, tasks, bundle, manifests.

Every observation in a session is the real output of the command run in a real clone of the
repository at the session's commit; the session's edits are made in that clone and become its
commit. Commits have fixed author/committer names and dates, so the shas are the same on every
rebuild. Run with Python 3.11 that has pytest: `python3 build/build.py`.
"""
import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
sys.path.insert(0, str(HERE))

import spec_repo  # noqa: E402
import spec_tasks  # noqa: E402

OWNER, NAME = "acme-hr", "payroll-service"
REPO = f"{OWNER}/{NAME}"
WORK = Path(os.environ.get("PAYROLL_BUILD_DIR", "/tmp/payroll-service-build"))
W = "/workspace"
AUTHOR = ("Dana Whitfield", "dana.whitfield@acme-hr.example")
MODEL = "claude-3-5-sonnet-20241022"
PYTHON = os.environ.get("SESSION_PYTHON", sys.executable)


def git(cwd, *args, date=None, check=True):
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=AUTHOR[0], GIT_AUTHOR_EMAIL=AUTHOR[1],
               GIT_COMMITTER_NAME=AUTHOR[0], GIT_COMMITTER_EMAIL=AUTHOR[1],
               GIT_CONFIG_NOSYSTEM="1", HOME=str(WORK / "home"))
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date + " +0000"
    out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if check and out.returncode:
        raise RuntimeError(f"git {args}: {out.stderr}")
    return out.stdout.strip()


def write_files(root, files):
    for rel, text in files.items():
        p = Path(root) / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


# --------------------------------------------------------------------------- event stream

class Stream:
    """Writes events the way OpenHands' trajectory export does (one JSON array per session)."""

    def __init__(self, sid, started_at):
        self.sid = sid
        self.events = []
        self.next_id = 0
        self.t = dt.datetime.fromisoformat(started_at)
        self.tokens = 3400 + self._n("tokens", 300)
        self.host = hashlib.sha1(sid.encode()).hexdigest()[:12]

    def _n(self, salt, mod):
        return int(hashlib.sha256(f"{self.sid}:{salt}:{self.next_id}".encode()).hexdigest(), 16) % mod

    def _tick(self, lo, hi):
        ms = lo * 1000 + self._n("t", (hi - lo) * 1000 + 1)
        self.t += dt.timedelta(milliseconds=ms) + dt.timedelta(microseconds=self._n("us", 1000))
        return self.t.isoformat(timespec="microseconds")

    def _id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def _uuid(self, salt):
        return str(uuid.UUID(hashlib.md5(f"{self.sid}:{salt}".encode()).hexdigest()))

    def _toolu(self, salt):
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        h = int(hashlib.sha256(f"{self.sid}:{salt}".encode()).hexdigest(), 16)
        s = ""
        for _ in range(24):
            h, r = divmod(h, len(alphabet))
            s += alphabet[r]
        return "toolu_01" + s

    def user(self, text, gap=(0, 1)):
        ts = self._tick(*gap)
        self.events.append({
            "id": self._id(), "timestamp": ts, "source": "user", "message": text, "action": "message",
            "args": {"content": text, "image_urls": None, "wait_for_response": False}, "timeout": 120})
        if self.next_id == 1:
            self.next_id = 3  # ids 1-2 are the state-change events the export leaves out

    def agent_message(self, text):
        ts = self._tick(3, 12)
        self.events.append({
            "id": self._id(), "timestamp": ts, "source": "agent", "message": text, "action": "message",
            "args": {"content": text, "image_urls": None, "wait_for_response": True}, "timeout": 120})

    def _metadata(self, fn, arguments, thought, ts):
        key = f"call{self.next_id}"
        completion = 60 + self._n("c", 240)
        prompt = self.tokens
        cached = max(prompt - 200 - self._n("k", 300), 0)
        self.tokens += completion + 80 + self._n("p", 900)
        created = int(dt.datetime.fromisoformat(ts).replace(tzinfo=dt.timezone.utc).timestamp())
        return {
            "function_name": fn,
            "tool_call_id": self._toolu(key),
            "model_response": {
                "id": "chatcmpl-" + self._uuid(key), "created": created, "model": MODEL,
                "object": "chat.completion", "system_fingerprint": None,
                "choices": [{
                    "finish_reason": "tool_calls", "index": 0,
                    "message": {
                        "content": thought, "role": "assistant",
                        "tool_calls": [{"index": 1, "function": {"arguments": json.dumps(arguments), "name": fn},
                                        "id": self._toolu(key), "type": "function"}],
                        "function_call": None}}],
                "usage": {"completion_tokens": completion, "prompt_tokens": prompt,
                          "total_tokens": prompt + completion, "completion_tokens_details": None,
                          "prompt_tokens_details": {"audio_tokens": None, "cached_tokens": cached},
                          "cache_creation_input_tokens": prompt - cached, "cache_read_input_tokens": cached},
                "service_tier": None},
            "total_calls_in_response": 1}

    def pair(self, fn, arguments, thought, action, obs_builder):
        ts = self._tick(2, 14)
        meta = self._metadata(fn, arguments, thought, ts)
        aid = self._id()
        action["id"] = aid
        action["timestamp"] = ts
        ev = {"id": aid, "timestamp": ts, "source": "agent", "message": action.pop("message"),
              "action": action.pop("action"), "tool_call_metadata": meta, "args": action.pop("args"),
              "timeout": 120}
        self.events.append(ev)
        obs = obs_builder()
        ots = self._tick(0, 2)
        out = {"id": self._id(), "timestamp": ots, "source": "agent", "message": obs.pop("message"),
               "cause": aid, "observation": obs.pop("observation"), "tool_call_metadata": meta}
        out.update(obs)
        self.events.append(out)

    def finish(self, text):
        ts = self._tick(3, 10)
        meta = self._metadata("finish", {}, text, ts)
        meta["model_response"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{}"
        self.events.append({"id": self._id(), "timestamp": ts, "source": "agent", "message": text,
                            "action": "finish", "tool_call_metadata": meta,
                            "args": {"outputs": {}, "thought": text}, "timeout": 120})


def numbered(lines, start=1):
    return "\n".join(f"{i:6}\t{line.expandtabs()}" for i, line in enumerate(lines, start))


def run_session(spec, repo_dir):
    sid = spec["instance_id"]
    ws = WORK / "ws" / sid / "workspace"
    if ws.parent.exists():
        shutil.rmtree(ws.parent)
    ws.parent.mkdir(parents=True)
    git(WORK, "clone", "-q", str(repo_dir), str(ws))
    commit_start = git(ws, "rev-parse", "HEAD")
    write_files(ws, spec.get("setup_files", {}))
    real = str(ws)

    def to_real(s):
        return s.replace(W, real)

    def to_ws(s):
        return s.replace(real, W)

    bindir = WORK / "bin"
    env = {"PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin", "HOME": str(WORK / "home"), "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "TERM": "dumb", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_PAGER": "cat", "PAGER": "cat"}
    st = Stream(sid, spec["started_at"])
    st.user(spec["user"])
    for act in spec["actions"]:
        kind = act[0]
        if kind == "run":
            _, cmd, thought = act
            def obs(cmd=cmd):
                p = subprocess.run(["bash", "-c", to_real(cmd)], cwd=real, env=env, capture_output=True, text=True)
                content = to_ws((p.stdout + p.stderr).rstrip("\n"))
                return {"message": f"Command `{cmd}` executed with exit code {p.returncode}.", "observation": "run",
                        "content": content,
                        "extras": {"command": cmd, "metadata": {
                            "exit_code": p.returncode, "pid": -1, "username": "openhands", "hostname": st.host,
                            "working_dir": W, "py_interpreter_path": "/openhands/poetry/openhands-ai-5O4_aCHf-py3.12/bin/python",
                            "prefix": "", "suffix": f"\n[The command completed with exit code {p.returncode}.]"},
                            "hidden": False},
                        "success": p.returncode == 0}
            st.pair("execute_bash", {"command": cmd, "is_input": "false"}, thought,
                    {"message": f"Running command: {cmd}", "action": "run",
                     "args": {"command": cmd, "is_input": False, "thought": thought, "blocking": False,
                              "hidden": False, "confirmation_state": "confirmed"}}, obs)
        elif kind == "view":
            _, path, thought = act
            def obs(path=path):
                text = Path(to_real(path)).read_text()
                content = f"Here's the result of running `cat -n` on {path}:\n" + numbered(text.split("\n")) + "\n"
                return {"message": f"I read the file {path}.", "observation": "read", "content": content,
                        "extras": {"path": path, "impl_source": "oh_aci"}}
            args = {"command": "view", "path": path}
            st.pair("str_replace_editor", args, thought,
                    {"message": f"Reading file: {path}", "action": "read",
                     "args": {"path": path, "start": 0, "end": -1, "thought": thought, "impl_source": "oh_aci",
                              "translated_ipython_code": f"print(file_editor(**{args!r}))"}}, obs)
        elif kind in ("edit", "create"):
            if kind == "edit":
                _, path, old, new, thought = act
                args = {"command": "str_replace", "path": path, "old_str": old, "new_str": new}
            else:
                _, path, text, thought = act
                args = {"command": "create", "path": path, "file_text": text}
            def obs(kind=kind, path=path, args=args):
                p = Path(to_real(path))
                if kind == "create":
                    assert not p.exists(), path
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_text(args["file_text"])
                    out = f"File created successfully at: {path}"
                    return {"message": f"I edited the file {path}.", "observation": "edit", "content": out,
                            "extras": {"path": path, "prev_exist": False, "old_content": None,
                                       "new_content": args["file_text"], "impl_source": "oh_aci",
                                       "formatted_output_and_error": out}}
                before = p.read_text()
                old, new = args["old_str"], args["new_str"]
                assert before.count(old) == 1, (sid, path, old)
                after = before.replace(old, new)
                p.write_text(after)
                line = before.split(old)[0].count("\n")
                lines = after.split("\n")
                lo = max(0, line - 4)
                hi = line + 4 + new.count("\n")
                snippet = numbered(lines[lo:hi + 1], lo + 1)
                out = (f"The file {path} has been edited. Here's the result of running `cat -n` on a snippet of "
                       f"{path}:\n{snippet}\nReview the changes and make sure they are as expected. Edit the file "
                       f"again if necessary.")
                return {"message": f"I edited the file {path}.", "observation": "edit", "content": out,
                        "extras": {"path": path, "prev_exist": True, "old_content": before, "new_content": after,
                                   "impl_source": "oh_aci", "formatted_output_and_error": out}}
            st.pair("str_replace_editor", args, thought,
                    {"message": "", "action": "edit",
                     "args": {"path": path, "content": "", "start": 1, "end": -1, "thought": thought,
                              "impl_source": "oh_aci",
                              "translated_ipython_code": f"print(file_editor(**{args!r}))"}}, obs)
        elif kind == "say":
            st.agent_message(act[1])
        elif kind == "user":
            st.user(act[1], gap=(240, 900))
        elif kind == "finish":
            st.finish(act[1])
        else:
            raise ValueError(kind)
    ended = st.events[-1]["timestamp"]
    commit_end = None
    if spec.get("commit"):
        date = (dt.datetime.fromisoformat(ended) + dt.timedelta(minutes=2)).replace(microsecond=0).isoformat()
        git(ws, "add", "-A")
        git(ws, "commit", "-q", "-m", spec["commit"]["message"], date=date)
        git(ws, "push", "-q", "origin", "HEAD:main")
        commit_end = git(ws, "rev-parse", "HEAD")
    out = CORPUS / "sessions" / f"{sid}.json"
    out.write_text(json.dumps(st.events, indent=2, ensure_ascii=False) + "\n")
    row = {"instance_id": sid, "file": f"sessions/{sid}.json", "session_id": None, "repo": REPO,
           "kind": spec["kind"], "task": spec["task"], "family": spec["family"],
           "started_at": st.events[0]["timestamp"] + "+00:00", "ended_at": ended + "+00:00",
           "commit_start": commit_start, "commit_end": commit_end,
           "evidence": spec["evidence"], "noise": spec["noise"]}
    return row


def build_repo():
    repo = WORK / "repo"
    git(WORK, "init", "-q", "-b", "main", str(repo))
    git(repo, "config", "receive.denyCurrentBranch", "updateInstead")
    rows, shas = [], {}
    for kind, spec in spec_repo.TIMELINE:
        if kind == "initial":
            write_files(repo, spec_repo.INITIAL)
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", spec["message"], date=spec["date"])
            shas["initial"] = git(repo, "rev-parse", "HEAD")
        elif kind == "rename":
            for a, b in spec["renames"]:
                git(repo, "mv", a, b)
            for path in git(repo, "ls-files").splitlines():
                p = repo / path
                text = p.read_text()
                new = text
                for a, b in spec["replace_all"]:
                    new = new.replace(a, b)
                if new != text:
                    p.write_text(new)
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", spec["message"], date=spec["date"])
            shas["rename"] = git(repo, "rev-parse", "HEAD")
        else:
            row = run_session(spec, repo)
            rows.append(row)
            shas[spec["instance_id"]] = row["commit_end"]
    return repo, rows, shas


def main():
    if WORK.exists():
        shutil.rmtree(WORK)
    (WORK / "home").mkdir(parents=True)
    (WORK / "bin").mkdir()
    os.symlink(PYTHON, WORK / "bin" / "python")
    for sub in ("sessions", "repos", "memories"):
        if (CORPUS / sub).exists():
            shutil.rmtree(CORPUS / sub)
        (CORPUS / sub).mkdir()
    repo, rows, shas = build_repo()
    with open(CORPUS / "sessions.jsonl", "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    spec_tasks.build(repo, rows, shas, git=git, corpus=CORPUS, work=WORK, python=PYTHON)
    git(repo, "bundle", "create", str(CORPUS / "repos" / f"{OWNER}__{NAME}.bundle"), "--all")
    print(f"built {len(rows)} sessions; head {git(repo, 'rev-parse', 'main')}")


if __name__ == "__main__":
    main()
