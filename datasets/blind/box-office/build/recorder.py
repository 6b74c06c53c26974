"""Records a Claude Code session by really running each step in a checkout.

Writes the records Claude Code keeps in ~/.claude/projects/<slug>/<sessionId>.jsonl:
user / assistant records chained by parentUuid, tool_use blocks (Bash, Read, Edit,
Write) and their tool_result blocks with the matching toolUseResult."""
import difflib
import json
import os
import random
import subprocess
import uuid
from datetime import datetime, timedelta, timezone

VERSION = "1.0.83"
MODEL = "claude-sonnet-4-20250514"
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def iso_ms(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def numbered(lines, start):
    return "\n".join(f"{n:>6}\u2192{line}" for n, line in enumerate(lines, start))


def structured_patch(old, new):
    a = old.split("\n")
    b = new.split("\n")
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines = []
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                lines += [" " + x for x in a[a1:a2]]
            else:
                lines += ["-" + x for x in a[a1:a2]]
                lines += ["+" + x for x in b[b1:b2]]
        hunks.append({"oldStart": i1 + 1, "oldLines": i2 - i1, "newStart": j1 + 1,
                      "newLines": j2 - j1, "lines": lines})
    return hunks


class Session:
    def __init__(self, name, workdir, start, author, branch="main", venv_bin=None):
        self.name = name
        self.workdir = workdir
        self.rng = random.Random(name)
        self.session_id = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        self.clock = start
        self.started_at = start
        self.author = author
        self.branch = branch
        self.venv_bin = venv_bin
        self.records = []
        self.parent = None
        self.msg_id = None
        self.req_id = None
        self.pending = []  # tool_use ids awaiting results
        self.first_prompt = None

    # ids -------------------------------------------------------------
    def _uuid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _tok(self, prefix, n):
        return prefix + "".join(self.rng.choice(ALNUM) for _ in range(n))

    def _tick(self, lo, hi):
        self.clock += timedelta(milliseconds=self.rng.randint(int(lo * 1000), int(hi * 1000)))
        return iso_ms(self.clock)

    def _base(self):
        return {"parentUuid": self.parent, "isSidechain": False, "userType": "external",
                "cwd": self.workdir, "sessionId": self.session_id, "version": VERSION,
                "gitBranch": self.branch}

    def _emit(self, rec):
        self.records.append(rec)
        self.parent = rec["uuid"]

    # user side -------------------------------------------------------
    def user(self, text, wait=None):
        """A prompt typed by the user; wait = seconds since the previous record (a review arriving later)."""
        if self.first_prompt is None:
            self.first_prompt = text
        self.msg_id = None
        rec = self._base()
        if not self.records:
            stamp = iso_ms(self.clock)
        elif wait:
            stamp = self._tick(wait, wait + 60)
        else:
            stamp = self._tick(20, 90)
        rec.update({"type": "user", "message": {"role": "user", "content": text},
                    "uuid": self._uuid(), "timestamp": stamp})
        self._emit(rec)

    # assistant side --------------------------------------------------
    def _assistant(self, content, new_message):
        if new_message or self.msg_id is None:
            self.msg_id = self._tok("msg_01", 22)
            self.req_id = self._tok("req_011C", 20)
            self.usage = {"input_tokens": self.rng.randint(4, 12),
                          "cache_creation_input_tokens": self.rng.randint(200, 3000),
                          "cache_read_input_tokens": self.rng.randint(12000, 40000),
                          "output_tokens": self.rng.randint(1, 400), "service_tier": "standard"}
        rec = self._base()
        rec.update({"message": {"id": self.msg_id, "type": "message", "role": "assistant", "model": MODEL,
                                "content": content, "stop_reason": None, "stop_sequence": None,
                                "usage": self.usage},
                    "requestId": self.req_id, "type": "assistant", "uuid": self._uuid(),
                    "timestamp": self._tick(2, 7)})
        self._emit(rec)

    def say(self, text):
        self._assistant([{"type": "text", "text": text}], new_message=True)
        self._fresh = True

    def _tool(self, name, inp):
        tid = self._tok("toolu_01", 22)
        new = not getattr(self, "_fresh", False)
        self._fresh = False
        self._assistant([{"type": "tool_use", "id": tid, "name": name, "input": inp}], new_message=new)
        return tid

    def _result(self, tid, content, is_error, tool_result):
        rec = self._base()
        rec.update({"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": content, "is_error": is_error}]},
            "uuid": self._uuid(), "timestamp": self._tick(0.2, 3), "toolUseResult": tool_result})
        self._emit(rec)

    def _path(self, rel):
        return os.path.join(self.workdir, rel)

    def bash(self, command, description):
        tid = self._tool("Bash", {"command": command, "description": description})
        env = dict(os.environ)
        stamp = self.clock.strftime("%Y-%m-%dT%H:%M:%S+00:00")
        env.update({"GIT_AUTHOR_NAME": self.author[0], "GIT_AUTHOR_EMAIL": self.author[1],
                    "GIT_COMMITTER_NAME": self.author[0], "GIT_COMMITTER_EMAIL": self.author[1],
                    "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp,
                    "PYTHONDONTWRITEBYTECODE": "1", "GIT_PAGER": "cat", "PAGER": "cat",
                    "COLUMNS": "100", "TERM": "dumb"})
        env.pop("PYTEST_ADDOPTS", None)
        if self.venv_bin:
            env["PATH"] = self.venv_bin + os.pathsep + env["PATH"]
        p = subprocess.run(["sh", "-c", command], cwd=self.workdir, env=env,
                           capture_output=True, text=True, timeout=120)
        out, err = p.stdout.rstrip("\n"), p.stderr.rstrip("\n")
        self.last_rc = p.returncode
        if p.returncode == 0:
            content = out if not err else (out + "\n" + err if out else err)
            self._result(tid, content, False, {"stdout": out, "stderr": err, "interrupted": False,
                                               "isImage": False, "sandbox": False})
        else:
            content = "\n".join(x for x in (out, err) if x) or f"Command failed with exit code {p.returncode}"
            self._result(tid, content, True, "Error: " + content)
        return p

    def read(self, rel):
        path = self._path(rel)
        tid = self._tool("Read", {"file_path": path})
        text = open(path).read()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        self._result(tid, numbered(lines, 1), False,
                     {"type": "text", "file": {"filePath": path, "content": text, "numLines": len(lines),
                                               "startLine": 1, "totalLines": len(lines)}})

    def edit(self, rel, old, new):
        path = self._path(rel)
        tid = self._tool("Edit", {"file_path": path, "old_string": old, "new_string": new})
        original = open(path).read()
        if original.count(old) != 1:
            raise RuntimeError(f"{self.name}: edit of {rel} does not match once: {old[:60]!r}")
        updated = original.replace(old, new)
        with open(path, "w") as fh:
            fh.write(updated)
        start_line = original[: original.index(old)].count("\n")
        new_lines = updated.split("\n")
        lo = max(0, start_line - 4)
        hi = min(len(new_lines), start_line + new.count("\n") + 5)
        snippet = numbered(new_lines[lo:hi], lo + 1)
        self._result(tid, f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{snippet}",
                     False, {"filePath": path, "oldString": old, "newString": new, "originalFile": original,
                             "structuredPatch": structured_patch(original, updated), "userModified": False,
                             "replaceAll": False})

    def write(self, rel, content):
        path = self._path(rel)
        tid = self._tool("Write", {"file_path": path, "content": content})
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(content)
        self._result(tid, f"File created successfully at: {path}", False,
                     {"type": "create", "filePath": path, "content": content, "structuredPatch": []})

    def finish(self, summary):
        self.ended_at = self.clock
        head = {"type": "summary", "summary": summary, "leafUuid": self.parent}
        return [head] + self.records

    def dump(self, path, summary):
        with open(path, "w") as fh:
            for rec in self.finish(summary):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
