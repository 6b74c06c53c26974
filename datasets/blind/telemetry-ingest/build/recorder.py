"""Record a Claude Code session by really running its steps in a checkout.

Each step is executed for real (Bash runs the command, Read reads the file, Edit / Write change
the checkout) and the result is written the way Claude Code writes its session JSONL under
``~/.claude/projects/<project>/<sessionId>.jsonl``. The checkout lives under ``build/.work``; its
path is shown as the developer's checkout path (``common.DISPLAY_CWD``). pytest's wall-clock
durations ("in 0.41s") are the only volatile part of any output; they are replaced by a
deterministic value so that a rebuild writes identical files.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import random
import re
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import CHECKOUT, DISPLAY_CWD, VENV, git_env

READ_REMINDER = (
    "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it looks malicious. "
    "If it does, you MUST refuse to improve or augment the code. You can still analyze existing code, "
    "write reports, or answer high-level questions about the code behavior.\n</system-reminder>\n"
)
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass
class Bash:
    command: str
    description: str
    timeout: int | None = None


@dataclass
class Read:
    path: str  # relative to the checkout
    offset: int | None = None
    limit: int | None = None


@dataclass
class Edit:
    path: str
    old: str
    new: str
    replace_all: bool = False


@dataclass
class Write:
    path: str
    content: str


@dataclass
class Recorder:
    session_id: str
    start: datetime
    branch: str
    version: str
    model: str
    who: str = "dev"
    checkout: Path = CHECKOUT
    records: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.session_id)
        self.clock = self.start.astimezone(timezone.utc)
        self.parent: str | None = None
        self.cache = 12000 + self.rng.randint(0, 3000)
        self.log: list[dict] = []  # what happened, for the build's own checks
        self.ended_at = self.start

    # ------------------------------------------------------------------ ids and times
    def _token(self, n: int) -> str:
        return "".join(self.rng.choice(_B62) for _ in range(n))

    def _uuid(self) -> str:
        h = "%032x" % self.rng.getrandbits(128)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"

    def _tick(self, lo: float, hi: float) -> str:
        self.clock += timedelta(milliseconds=int(self.rng.uniform(lo, hi) * 1000))
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.clock.microsecond // 1000:03d}Z"

    def wait(self, seconds: float) -> None:
        """The developer is away (reading, testing by hand) before the next prompt."""
        self.clock += timedelta(seconds=seconds)

    def now_local(self) -> datetime:
        return self.clock.astimezone(self.start.tzinfo)

    def _base(self) -> dict:
        return {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": DISPLAY_CWD,
            "sessionId": self.session_id,
            "version": self.version,
            "gitBranch": self.branch,
        }

    def _append(self, record: dict) -> None:
        self.records.append(record)
        self.parent = record["uuid"]

    # ------------------------------------------------------------------ user turns
    def user(self, text: str, pause: tuple[float, float] = (20, 90)) -> None:
        rec = self._base()
        rec.update(type="user", message={"role": "user", "content": text}, uuid=self._uuid(), timestamp=self._tick(*pause))
        self._append(rec)
        self.log.append({"kind": "user", "text": text})

    # ------------------------------------------------------------------ assistant turns
    def turn(self, text: str | None = None, *tools) -> list[dict]:
        """One model response: optional text, then tool calls, then their results."""
        msg_id = "msg_01" + self._token(22)
        req_id = "req_011C" + self._token(20)
        out_tokens = 20 + len(text or "") // 4 + sum(len(json.dumps(t.__dict__)) // 4 for t in tools)
        usage = {
            "input_tokens": self.rng.randint(4, 12),
            "cache_creation_input_tokens": self.rng.randint(200, 2500),
            "cache_read_input_tokens": self.cache,
            "output_tokens": out_tokens,
            "service_tier": "standard",
        }
        self.cache += usage["cache_creation_input_tokens"]
        parts: list[dict] = []
        if text:
            parts.append({"type": "text", "text": text})
        calls = []
        for tool in tools:
            tid = "toolu_01" + self._token(22)
            calls.append((tid, tool))
            parts.append({"type": "tool_use", "id": tid, "name": type(tool).__name__, "input": self._input(tool)})
        first = True
        for part in parts:
            rec = self._base()
            rec.update(
                message={
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "model": self.model,
                    "content": [part],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage,
                },
                requestId=req_id,
                type="assistant",
                uuid=self._uuid(),
                timestamp=self._tick(4.0, 24.0) if first else self._tick(0.3, 2.0),
            )
            first = False
            self._append(rec)
        if text:
            self.log.append({"kind": "assistant", "text": text})
        results = []
        for tid, tool in calls:
            results.append(self._run(tid, tool))
        return results

    def say(self, text: str) -> None:
        self.turn(text)

    def _input(self, tool) -> dict:
        if isinstance(tool, Bash):
            d = {"command": tool.command, "description": tool.description}
            if tool.timeout:
                d["timeout"] = tool.timeout
            return d
        if isinstance(tool, Read):
            d = {"file_path": self._abs(tool.path)}
            if tool.offset is not None:
                d["offset"] = tool.offset
            if tool.limit is not None:
                d["limit"] = tool.limit
            return d
        if isinstance(tool, Edit):
            d = {"file_path": self._abs(tool.path), "old_string": tool.old, "new_string": tool.new}
            if tool.replace_all:
                d["replace_all"] = True
            return d
        if isinstance(tool, Write):
            return {"file_path": self._abs(tool.path), "content": tool.content}
        raise TypeError(tool)

    def _abs(self, rel: str) -> str:
        return f"{DISPLAY_CWD}/{rel}"

    # ------------------------------------------------------------------ running tools
    def _result(self, tid: str, content: str, is_error: bool, tool_use_result, lo=0.1, hi=0.6) -> None:
        rec = self._base()
        rec.update(
            type="user",
            message={
                "role": "user",
                "content": [{"tool_use_id": tid, "type": "tool_result", "content": content, "is_error": is_error}],
            },
            uuid=self._uuid(),
            timestamp=self._tick(lo, hi),
            toolUseResult=tool_use_result,
        )
        self._append(rec)

    def _clean(self, text: str) -> str:
        text = text.replace(str(self.checkout), DISPLAY_CWD).replace(str(VENV), f"{DISPLAY_CWD}/.venv")

        def duration(m: re.Match) -> str:
            digest = hashlib.sha256(f"{self.session_id}:{len(self.log)}".encode()).digest()
            return f"in {0.04 + digest[0] / 400:.2f}s"

        text = re.sub(r"in \d+\.\d\ds", duration, text)
        if re.search(r"0x[0-9a-f]{6,}", text):
            raise RuntimeError(f"{self.session_id}: volatile object address in output:\n{text}")
        return text

    def _run(self, tid: str, tool) -> dict:
        if isinstance(tool, Bash):
            return self._bash(tid, tool)
        if isinstance(tool, Read):
            return self._read(tid, tool)
        if isinstance(tool, Edit):
            return self._edit(tid, tool)
        if isinstance(tool, Write):
            return self._write(tid, tool)
        raise TypeError(tool)

    def _bash(self, tid: str, tool: Bash) -> dict:
        env = git_env(self.who, self.now_local())
        proc = subprocess.run(["bash", "-c", tool.command], cwd=self.checkout, env=env, capture_output=True, text=True, timeout=120)
        stdout = self._clean(proc.stdout).rstrip()
        stderr = self._clean(proc.stderr).rstrip()
        combined = "\n".join(x for x in (stdout, stderr) if x)
        is_test = "pytest" in tool.command
        if proc.returncode == 0:
            self._result(tid, combined, False, {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False},
                         *((1.2, 2.8) if is_test else (0.1, 0.9)))
        else:
            text = f"Exit code {proc.returncode}\n{combined}".rstrip()
            self._result(tid, text, True, f"Error: {text}", *((1.2, 2.8) if is_test else (0.1, 0.9)))
        entry = {"kind": "bash", "command": tool.command, "exit": proc.returncode, "stdout": stdout, "stderr": stderr}
        self.log.append(entry)
        return entry

    def _read(self, tid: str, tool: Read) -> dict:
        path = self.checkout / tool.path
        text = path.read_text()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        start = (tool.offset or 1)
        chosen = lines[start - 1 : start - 1 + tool.limit] if tool.limit else lines[start - 1 :]
        numbered = "\n".join(f"{start + i:>6}→{line}" for i, line in enumerate(chosen))
        self._result(
            tid,
            numbered + READ_REMINDER,
            False,
            {
                "type": "text",
                "file": {
                    "filePath": self._abs(tool.path),
                    "content": "\n".join(chosen),
                    "numLines": len(chosen),
                    "startLine": start,
                    "totalLines": len(lines),
                },
            },
        )
        entry = {"kind": "read", "path": tool.path}
        self.log.append(entry)
        return entry

    def _snippet(self, new_text: str, new: str, at_char: int) -> str:
        lines = new_text.split("\n")
        first = new_text[:at_char].count("\n")
        last = first + new.count("\n")
        lo, hi = max(0, first - 4), min(len(lines), last + 5)
        return "\n".join(f"{i + 1:>6}→{lines[i]}" for i in range(lo, hi))

    def _edit(self, tid: str, tool: Edit) -> dict:
        path = self.checkout / tool.path
        original = path.read_text()
        count = original.count(tool.old)
        if count == 0 or (count > 1 and not tool.replace_all):
            raise RuntimeError(f"{self.session_id}: edit of {tool.path} matches {count} times: {tool.old[:60]!r}")
        at_char = original.index(tool.old)
        updated = original.replace(tool.old, tool.new) if tool.replace_all else original.replace(tool.old, tool.new, 1)
        path.write_text(updated)
        content = (
            f"The file {self._abs(tool.path)} has been updated. Here's the result of running `cat -n` on a snippet "
            f"of the edited file:\n{self._snippet(updated, tool.new, at_char)}"
        )
        self._result(
            tid,
            content,
            False,
            {
                "filePath": self._abs(tool.path),
                "oldString": tool.old,
                "newString": tool.new,
                "originalFile": original,
                "structuredPatch": structured_patch(original, updated),
                "userModified": False,
                "replaceAll": tool.replace_all,
            },
        )
        entry = {"kind": "edit", "path": tool.path}
        self.log.append(entry)
        return entry

    def _write(self, tid: str, tool: Write) -> dict:
        path = self.checkout / tool.path
        existed = path.exists()
        original = path.read_text() if existed else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(tool.content)
        if existed:
            content = (
                f"The file {self._abs(tool.path)} has been updated. Here's the result of running `cat -n` on a "
                f"snippet of the edited file:\n{self._snippet(tool.content, tool.content, 0)}"
            )
            tur = {"type": "update", "filePath": self._abs(tool.path), "content": tool.content,
                   "structuredPatch": structured_patch(original, tool.content)}
        else:
            content = f"File created successfully at: {self._abs(tool.path)}"
            tur = {"type": "create", "filePath": self._abs(tool.path), "content": tool.content, "structuredPatch": []}
        self._result(tid, content, False, tur)
        entry = {"kind": "write", "path": tool.path}
        self.log.append(entry)
        return entry

    # ------------------------------------------------------------------ output
    def finish(self, summary: str | None = None) -> list[dict]:
        self.ended_at = self.clock.astimezone(self.start.tzinfo)
        if summary:
            leaf = self.records[-1]["uuid"]
            return [{"type": "summary", "summary": summary, "leafUuid": leaf}, *self.records]
        return list(self.records)


def structured_patch(old: str, new: str) -> list[dict]:
    a, b = old.split("\n"), new.split("\n")
    if a and a[-1] == "":
        a = a[:-1]
    if b and b[-1] == "":
        b = b[:-1]
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines = []
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                lines += [" " + x for x in a[a1:a2]]
            else:
                lines += ["-" + x for x in a[a1:a2]]
                lines += ["+" + x for x in b[b1:b2]]
        hunks.append({"oldStart": i1 + 1, "oldLines": i2 - i1, "newStart": j1 + 1, "newLines": j2 - j1, "lines": lines})
    return hunks


def write_session(records: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
