"""The hostile set: over two thousand trajectory files that have each broken a naive ingest.

Every format's minimal valid document is built here (never copied from real data) with a slot
in each field a hostile value can reach (repository, branch, task, commit, an edit's path, a
message, a timestamp, an action, an unread extra field). Each value below is put in each slot
of each format: JSON nested 5,000 deep, integers of 5,000 digits, ``"\\ud800"``, NUL in names,
names of 100,000 characters, ``../../etc/passwd`` as an edit path, Rich markup in a repository
name, timestamps in the year 2508, SWE-smith instance ids, values of the wrong type. Then
truncations of every format, binary, empty and mis-encoded files, Claude Code files with no
usable record, and the special entries a folder walk meets: a FIFO, links to ``/dev/zero``,
to ``/etc/passwd`` and to a folder, dangling and looping links, hidden files.

Run it to write the set: ``python tests/ingest/hostile.py OUT_DIR`` prints what it wrote.
``text-over-limit`` is over the text limit when ``DREAMER_INGEST_MAX_TEXT`` is 100,000 (the
test sets it; the default is ten times that).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SLOT = "__HOSTILE_SLOT__"
QUOTED = json.dumps(SLOT)

# Raw JSON text put in place of a slot: each has crashed, or could crash, a naive reader.
RAW_VALUES: dict[str, str] = {
    "deep-array-5000": "[" * 5000 + "]" * 5000,
    "deep-object-5000": '{"a":' * 5000 + "1" + "}" * 5000,
    "deep-array-65": "[" * 65 + "]" * 65,
    "deep-array-40": "[" * 40 + "1" + "]" * 40,
    "int-5000-digits": "7" * 5000,
    "int-4301-digits": "-" + "9" * 4301,
    "int-65-digits": "1" * 65,
    "float-huge": "1e999",
    "float-tiny": "-1e-999",
    "nan": "NaN",
    "infinity": "-Infinity",
    "lone-surrogate": json.dumps("\ud800"),
    "lone-low-surrogate": json.dumps("x\udfffy"),
    "surrogate-escape-text": '"\\ud800\\ud800 after \\udc00"',
    "nul": '"\\u0000"',
    "nul-inside": '"acme/\\u0000shop"',
    "name-100k": json.dumps("a" * 100_000),
    "name-300": json.dumps("acme/" + "b" * 295),
    "text-over-limit": json.dumps("line of output\n" * 8_000),  # 120,000 characters
    "dotdot-path": json.dumps("../../etc/passwd"),
    "absolute-path": json.dumps("/etc/passwd"),
    "home-path": json.dumps("~/.ssh/id_rsa"),
    "windows-path": json.dumps("C:\\Windows\\system32"),
    "rich-markup": json.dumps("acme/[s]hop-orders"),
    "rich-style": json.dumps("[bold red]acme[/bold red]/shop"),
    "newline-name": json.dumps("acme/shop\norders"),
    "spaces": json.dumps("acme shop"),
    "empty-string": '""',
    "swe-smith-id": json.dumps("getmoto__moto.694ce1f4.pr_5420"),
    "swe-bench-id": json.dumps("astropy__astropy-12907"),
    "time-2508": "17000000000",
    "time-ms": "1700000000000",
    "time-us": "1700000000000000",
    "time-ns": "1700000000000000000",
    "time-negative": "-5",
    "time-iso-2508": json.dumps("2508-01-01T00:00:00Z"),
    "time-garbage": json.dumps("yesterday-ish"),
    "null": "null",
    "true": "true",
    "zero": "0",
    "list": "[1, 2]",
    "object": '{"k": "v"}',
    "secret": json.dumps("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    "markup-text": json.dumps("[/] [red]unclosed [link=file:///etc/passwd]x"),
    "control-chars": json.dumps("\x1b[31mred\x1b[0m\x07\x08"),
}

SLOTS = ("repo", "branch", "task", "commit", "path", "text", "time", "action", "extra")


def _swe_agent(slot: str) -> tuple[str, Any]:
    def at(name: str, default: Any) -> Any:
        return SLOT if slot == name else default

    config = {"repo_name": at("repo", "acme/shop-orders"),
              "created_at": at("time", "2025-05-01T08:00:00Z"),
              "env": {"repo": {"base_commit": at("commit", "0123abcd")}},
              "problem_statement": {"id": at("task", "acme__shop-orders-1")}}
    doc = {
        "environment": "main",
        "trajectory": [
            {"action": at("action", "pytest -q"), "observation": at("text", "1 failed in 0.1s"),
             "response": "run the tests", "thought": "", "state": {"working_dir": "/testbed"}},
            {"action": f"str_replace_editor str_replace {at('path', '/testbed/src/orders.py')} "
                       "--old_str a --new_str b" if slot != "path" else SLOT,
             "observation": "edited", "response": "", "thought": "",
             "state": {"open_file": "n/a", "working_dir": "/testbed"}},
        ],
        "history": [{"role": "user", "content": "Fix the order status."}],
        "info": {"exit_status": "submitted", "submission": "", "extra": at("extra", 1)},
        "replay_config": SLOT if slot == "extra" else config,
    }
    if slot == "branch":
        doc["info"]["branch"] = SLOT
    return ".traj", doc


def _mini(slot: str) -> tuple[str, Any]:
    def at(name: str, default: Any) -> Any:
        return SLOT if slot == name else default

    return ".traj.json", {
        "trajectory_format": "mini-swe-agent-1",
        "info": {"exit_status": at("task", "Submitted"), "submission": at("commit", ""),
                 "model_stats": {"instance_cost": at("extra", 0.1)}, "repo": at("repo", "x"),
                 "branch": at("branch", "main")},
        "messages": [
            {"role": "user", "content": at("text", "Fix divide().")},
            {"role": "assistant", "content": "run\n```bash\n" + "pytest\n```",
             "extra": {"actions": [{"command": at("action", "pytest")}]},
             "timestamp": at("time", 1700000000)},
            {"role": "user",
             "content": "<returncode>1</returncode><output>1 failed in 0.1s</output>",
             "extra": {"returncode": 1, "raw_output": at("path", "1 failed in 0.1s")}},
        ],
    }


def _openhands(slot: str) -> tuple[str, Any]:
    def at(name: str, default: Any) -> Any:
        return SLOT if slot == name else default

    events = [
        {"id": 1, "timestamp": at("time", "2025-03-01T10:00:03"), "source": "agent",
         "action": "run", "args": {"command": at("action", "pytest -q")}},
        {"id": 2, "observation": "run", "content": at("text", "1 failed in 0.1s"), "cause": 1,
         "extras": {"command": "pytest -q", "metadata": {"exit_code": at("extra", 1),
                                                          "working_dir": "/workspace/shop"}}},
        {"id": 3, "source": "agent", "action": "edit",
         "args": {"path": at("path", "/workspace/shop/src/orders.py")}},
    ]
    wrapper = {"instance_id": at("task", "acme__shop-1"),
               "instance": {"repo": at("repo", "acme/shop"), "base_commit": at("commit", "abc1234"),
                            "branch": at("branch", "main")},
               "history": events}
    return ".json", wrapper if slot in {"task", "repo", "commit", "branch"} else events


def _claude(slot: str) -> tuple[str, Any]:
    def at(name: str, default: Any) -> Any:
        return SLOT if slot == name else default

    base = {"sessionId": "0f1e2d3c-aaaa-bbbb-cccc-000000000001", "cwd": at("repo", "/home/me/shop"),
            "gitBranch": at("branch", "main"), "version": "1.0.17", "isSidechain": False}
    records = [
        {**base, "type": "user", "uuid": "u1", "parentUuid": None,
         "timestamp": at("time", "2025-06-10T12:36:23.208Z"),
         "message": {"role": "user", "content": at("text", "fix the tests")}},
        {**base, "type": "assistant", "uuid": "u2", "parentUuid": "u1",
         "timestamp": "2025-06-10T12:36:26Z",
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Edit",
              "input": {"file_path": at("path", "/home/me/shop/src/orders.py"),
                        "old_string": "a", "new_string": "b"}},
             {"type": "tool_use", "id": "t2", "name": "Bash",
              "input": {"command": at("action", "pytest -q")}}]}},
        {**base, "type": "user", "uuid": "u3", "parentUuid": "u2",
         "timestamp": "2025-06-10T12:36:28Z",
         "toolUseResult": at("extra", {"filePath": "/home/me/shop/src/orders.py",
                                       "structuredPatch": [{"oldStart": at("commit", 3),
                                                            "oldLines": 1, "newStart": 3,
                                                            "newLines": 1,
                                                            "lines": ["-a", "+b"]}]}),
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
             {"type": "tool_result", "tool_use_id": at("task", "t2"),
              "content": "1 failed in 0.1s"}]}},
    ]
    return ".jsonl", records


def _dreamer(slot: str) -> tuple[str, Any]:
    def at(name: str, default: Any) -> Any:
        return SLOT if slot == name else default

    return ".jsonl", [
        {"type": "session", "format": "dreamer-session/1", "repo": at("repo", "acme/shop"),
         "branch": at("branch", "main"), "commit": at("commit", "abc1234"),
         "task_id": at("task", "T-1"), "started_at": at("time", "2025-05-01T08:00:00Z"),
         "metadata": {"agent": at("extra", "bot")}},
        {"type": "event", "kind": "command", "role": "assistant", "text": at("action", "pytest"),
         "data": {"command": "pytest"}},
        {"type": "event", "kind": "observation", "role": "environment",
         "text": at("text", "1 failed"), "data": {"exit_code": 1, "cause": 0}},
        {"type": "event", "kind": "edit", "role": "assistant", "text": "edit",
         "data": {"paths": [at("path", "src/orders.py")]}},
    ]


FORMATS: dict[str, Callable[[str], tuple[str, Any]]] = {
    "swe-agent": _swe_agent, "mini-swe-agent": _mini, "openhands": _openhands,
    "claude-code": _claude, "dreamer": _dreamer,
}


def render(fmt: str, slot: str, raw: str) -> tuple[str, bytes]:
    """One hostile file: (suffix, bytes) of ``fmt``'s document with ``raw`` JSON in ``slot``."""
    suffix, doc = FORMATS[fmt](slot)
    if suffix == ".jsonl":
        text = "\n".join(json.dumps(record) for record in doc) + "\n"
    else:
        text = json.dumps(doc, indent=1)
    return suffix, text.replace(QUOTED, raw).encode("utf-8", errors="surrogatepass")


def valid(fmt: str) -> tuple[str, bytes]:
    """``fmt``'s document with an ordinary value in every slot."""
    return render(fmt, "none", QUOTED)


@dataclass(frozen=True)
class Entry:
    """One thing the set holds: its path (relative to the set's folder) and what it is."""

    path: str
    kind: str
    special: bool = False
    """A FIFO or a link: a folder walk must record it in ``skipped``."""


def write(folder: Path) -> list[Entry]:
    """Write the hostile set into ``folder``; return every entry in it."""
    folder.mkdir(parents=True, exist_ok=True)
    entries: list[Entry] = []

    def put(name: str, data: bytes, kind: str) -> None:
        (folder / name).write_bytes(data)
        entries.append(Entry(name, kind))

    for fmt in FORMATS:
        stem = fmt.replace("-", "_")
        for slot in SLOTS:
            for label, raw in RAW_VALUES.items():
                suffix, data = render(fmt, slot, raw)
                put(f"{stem}.{slot}.{label}{suffix}", data, f"{fmt}:{slot}:{label}")
        suffix, data = valid(fmt)
        put(f"{stem}.valid{suffix}", data, f"{fmt}:valid")
        put(f"{stem}.valid-copy{suffix}", data, f"{fmt}:duplicate")
        for cut in (1, 2, 7, len(data) // 3, len(data) // 2, len(data) - 2):
            put(f"{stem}.cut-{cut}{suffix}", data[:cut], f"{fmt}:truncated")
        put(f"{stem}.bom{suffix}", b"\xef\xbb\xbf" + data, f"{fmt}:bom")
        put(f"{stem}.crlf{suffix}", data.replace(b"\n", b"\r\n"), f"{fmt}:crlf")
        put(f"{stem}.latin1{suffix}", data.replace(b"Fix", b"F\xe9x").replace(b"fix", b"f\xe9x")
            + b"\xe9", f"{fmt}:not-utf8")
        put(f"{stem}.nul-byte{suffix}", data[:10] + b"\x00" + data[10:], f"{fmt}:binary")
    for name, data in {
        "empty.json": b"", "blank.jsonl": b"\n\n  \n", "binary.traj": os.urandom(64) + b"\x00",
        "number.json": b"42", "string.json": b'"a trajectory"', "null.json": b"null",
        "deep-bare.json": b"[" * 100_000 + b"]" * 100_000, "int-bare.json": b"9" * 100_000,
        "claude-summary-only.jsonl": b'{"type":"summary","summary":"x","leafUuid":"l1"}\n',
        "claude-no-usable.jsonl": (b'{"type":"user","sessionId":"s","uuid":"u"}\n'
                                   b'{"type":"assistant","sessionId":"s","uuid":"v"}\n'),
        "claude-unknown-types.jsonl": b'{"type":"progress","sessionId":"s","uuid":"u"}\n'
                                      b'{"type":"user","sessionId":"s","uuid":"w"}\n',
        "not-json.ndjson": b"hello\nworld\n",
        "notes.md": b"# not a trajectory name",
    }.items():
        put(name, data, "misc")
    entries += _specials(folder)
    return entries


def _specials(folder: Path) -> list[Entry]:
    """A FIFO, links of every troublesome kind, hidden entries: what a folder walk meets."""
    inside = folder / "specials"
    inside.mkdir(exist_ok=True)
    found: list[Entry] = []
    os.mkfifo(inside / "pipe.jsonl")
    found.append(Entry("specials/pipe.jsonl", "fifo", True))
    links = {
        "to-dev-zero.json": "/dev/zero", "to-etc-passwd.json": "/etc/passwd",
        "dangling.json": str(inside / "missing.json"), "loop-a.json": str(inside / "loop-b.json"),
        "loop-b.json": str(inside / "loop-a.json"), "to-folder": str(folder),
        "to-parent.jsonl": "../dreamer.valid.jsonl",
    }
    for name, target in links.items():
        os.symlink(target, inside / name)
        found.append(Entry(f"specials/{name}", "link", True))
    (inside / ".hidden.json").write_text("{}")
    found.append(Entry("specials/.hidden.json", "hidden", True))
    (inside / ".hidden-folder").mkdir()
    (inside / ".hidden-folder" / "x.json").write_text("{}")
    found.append(Entry("specials/.hidden-folder", "hidden", True))
    return found


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-set")
    written = write(out)
    print(f"{len(written)} entries ({sum(not e.special for e in written)} files, "
          f"{sum(e.special for e in written)} special) in {out}")
