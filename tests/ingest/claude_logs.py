"""Realistic Claude Code session logs, written the way Claude Code 1.x writes them.

One record per line: ``user`` and ``assistant`` records linked by ``uuid``/``parentUuid``, each
with ``sessionId``, ``cwd``, ``gitBranch``, ``version`` and ``timestamp``; the assistant's
``tool_use`` parts (Bash, Read, Edit, Write) answered by ``tool_result`` parts in the next
user record, which also carries the tool's structured ``toolUseResult`` (Bash: stdout and
stderr; Edit and Write: the file path and a ``structuredPatch``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

FAILING = """============================= test session starts ==============================
collected 3 items

tests/test_orders.py .F.                                                 [100%]

=================================== FAILURES ===================================
___________________________ test_cancel_paid_order ____________________________

    def test_cancel_paid_order():
        order = Order(status="paid")
>       cancel(order)
E       orders.errors.InvalidTransition: paid -> cancelled needs refund_first()

tests/test_orders.py:21: InvalidTransition
=========================== short test summary info ============================
FAILED tests/test_orders.py::test_cancel_paid_order - orders.errors.InvalidTransition
========================= 1 failed, 2 passed in 0.08s ==========================
"""
PASSING = """============================= test session starts ==============================
collected 3 items

tests/test_orders.py ...                                                 [100%]

============================== 3 passed in 0.05s ===============================
"""


class ClaudeLog:
    """Builds one session's records in order (``user``/``assistant`` turns and tool calls)."""

    def __init__(self, session_id: str, cwd: str = "/home/dev/shop-orders",
                 branch: str = "fix/cancel-paid", start: datetime | None = None) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.branch = branch
        self.clock = start or datetime(2025, 6, 10, 12, 0, tzinfo=UTC)
        self.records: list[dict[str, Any]] = []
        self._last: str | None = None
        self._tools = 0

    def _record(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        self.clock += timedelta(seconds=7)
        uuid = f"{self.session_id[:8]}-{len(self.records):04d}"
        self.records.append({
            "parentUuid": self._last, "isSidechain": False, "userType": "external",
            "cwd": self.cwd, "sessionId": self.session_id, "version": "1.0.17",
            "gitBranch": self.branch, "type": kind, "message": message, "uuid": uuid,
            "timestamp": self.clock.isoformat().replace("+00:00", "Z"), **extra,
        })
        self._last = uuid

    def user(self, text: str) -> ClaudeLog:
        self._record("user", {"role": "user", "content": text})
        return self

    def say(self, text: str) -> ClaudeLog:
        self._record("assistant", {"role": "assistant", "type": "message",
                                   "content": [{"type": "text", "text": text}]})
        return self

    def tool(self, name: str, tool_input: dict[str, Any], output: str,
             result: Any, is_error: bool = False) -> ClaudeLog:
        self._tools += 1
        call = f"toolu_{self.session_id[:6]}{self._tools:03d}"
        self._record("assistant", {"role": "assistant", "type": "message", "content": [
            {"type": "tool_use", "id": call, "name": name, "input": tool_input}]})
        self._record("user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call, "content": output,
             "is_error": is_error}]}, toolUseResult=result)
        return self

    def bash(self, command: str, stdout: str, exit_code: int = 0) -> ClaudeLog:
        output = stdout if exit_code == 0 else f"Exit code {exit_code}\n{stdout}"
        return self.tool("Bash", {"command": command, "description": command}, output,
                         {"stdout": stdout, "stderr": "", "interrupted": False,
                          "isImage": False}, is_error=exit_code != 0)

    def edit(self, path: str, old: str, new: str, line: int) -> ClaudeLog:
        full = f"{self.cwd}/{path}"
        patch = [{"oldStart": line, "oldLines": 1, "newStart": line, "newLines": 1,
                  "lines": [f"-{old}", f"+{new}"]}]
        return self.tool("Edit", {"file_path": full, "old_string": old, "new_string": new},
                         f"The file {full} has been updated.",
                         {"filePath": full, "oldString": old, "newString": new,
                          "originalFile": None, "structuredPatch": patch,
                          "userModified": False, "replaceAll": False})

    def write(self, path: str, content: str) -> ClaudeLog:
        full = f"{self.cwd}/{path}"
        return self.tool("Write", {"file_path": full, "content": content},
                         f"File created successfully at: {full}",
                         {"type": "create", "filePath": full, "content": content,
                          "structuredPatch": []})

    def text(self) -> str:
        return "".join(json.dumps(record) + "\n" for record in self.records)


def fix_session(session_id: str = "7d9c1a52-0b3e-4c1e-9a77-5f1f2e3d4c5b") -> ClaudeLog:
    """A session that reproduces a failing test, reads the code, fixes it and passes."""
    log = ClaudeLog(session_id)
    log.user("test_cancel_paid_order fails since the refund change; fix it")
    log.say("I'll run the order tests first to see the failure.")
    log.bash("python -m pytest tests/test_orders.py -q", FAILING, exit_code=1)
    log.say("A paid order must be refunded before it is cancelled: cancel() should call "
            "refund_first() for paid orders.")
    log.tool("Read", {"file_path": f"{log.cwd}/src/orders/transitions.py"},
             "    18\tdef cancel(order):\n    19\t    order.transition('cancelled')\n",
             {"type": "text", "file": {"filePath": f"{log.cwd}/src/orders/transitions.py"}})
    log.edit("src/orders/transitions.py", "    order.transition('cancelled')",
             "    refund_first(order); order.transition('cancelled')", 19)
    log.bash("python -m pytest tests/test_orders.py -q", PASSING)
    log.write("docs/transitions.md", "paid -> cancelled goes through refund_first()\n")
    log.say("Fixed: cancel() now calls refund_first() for paid orders; all 3 tests pass.")
    return log
