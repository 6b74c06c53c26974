"""Write sessions in SWE-agent's ``.traj`` format.

A file holds ``environment``, ``trajectory`` (one entry per agent step: ``action``,
``observation``, ``response``, ``thought``, ``state``), ``history`` (the chat as the model saw
it: ``role``, ``content``, ``agent``, and ``thought``/``action`` on assistant turns) and ``info``
(``submission``: the final diff, ``exit_status``, ``model_stats``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

SYSTEM_PROMPT = (
    "SETTING: You are an autonomous programmer, and you're working directly in the command line "
    "with a special interface.\n\nThe special interface consists of a file editor that shows you "
    "100 lines of a file at a time.\nIn addition to typical bash commands, you can also use the "
    "following commands to help you navigate and edit files.\n\nCOMMANDS:\nopen <path> "
    "[<line_number>]\ngoto <line_number>\nscroll_down\nscroll_up\ncreate <filename>\nsubmit\n"
    "search_dir <search_term> [<dir>]\nsearch_file <search_term> [<file>]\nfind_file <file_name> "
    "[<dir>]\nedit <start_line>:<end_line>\n<replacement_text>\nend_of_edit\n\nRESPONSE FORMAT:\n"
    "Your shell prompt is formatted as follows:\n(Open file: <path>)\n(Current directory: <cwd>)\n"
    "bash-$\n\nYou need to format your output to include *one* discussion and *one* command."
)

ISSUE_TEMPLATE = (
    "We're currently solving the following issue within our repository. Here's the issue text:\n"
    "ISSUE:\n{issue}\n\nINSTRUCTIONS:\nNow, you're going to solve this issue on your own. Your "
    "terminal session has started and you're in the repository's root directory. You can use any "
    "bash commands or the special interface to help you. Edit all the files you need to and run "
    "any checks or tests that you want. Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME.\n"
    "When you're satisfied with all of the changes you've made, you can submit your changes to "
    "the code base by simply running the submit command.\n\n(Open file: n/a)\n"
    "(Current directory: /{slug})\nbash-$"
)


def numbered(path: str, text: str, slug: str, start: int = 1, window: int = 100) -> str:
    """What SWE-agent's ``open`` shows: a header and numbered lines."""
    lines = text.splitlines()
    shown = lines[start - 1:start - 1 + window]
    body = "\n".join(f"{start + i}:{line}" for i, line in enumerate(shown))
    more = len(lines) - (start - 1 + len(shown))
    tail = f"\n({more} more lines below)" if more > 0 else ""
    return f"[File: /{slug}/{path} ({len(lines)} lines total)]\n{body}{tail}"


@dataclass
class TrajectoryWriter:
    """Accumulates one session's steps and renders the ``.traj`` document."""

    slug: str
    issue: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    open_file: str = "n/a"

    def __post_init__(self) -> None:
        self.history = [
            {"role": "system", "content": SYSTEM_PROMPT, "agent": "primary"},
            {"role": "user", "content": ISSUE_TEMPLATE.format(issue=self.issue, slug=self.slug),
             "agent": "primary"},
        ]

    def step(self, thought: str, action: str, observation: str,
             open_file: str | None = None) -> None:
        """One agent turn: its reasoning, the command, and what the environment answered."""
        if open_file:
            self.open_file = f"/{self.slug}/{open_file}"
        response = f"{thought}\n\n```\n{action}\n```"
        state = json.dumps({"open_file": self.open_file, "working_dir": f"/{self.slug}"})
        self.steps.append({"action": f"{action}\n", "observation": observation,
                           "response": response, "state": f"{state}\n",
                           "thought": f"{thought}\n\n"})
        self.history.append({"role": "assistant", "content": response, "thought": f"{thought}\n\n",
                             "action": f"{action}\n", "agent": "primary"})
        prompt = f"(Open file: {self.open_file})\n(Current directory: /{self.slug})\nbash-$"
        self.history.append({"role": "user", "content": f"{observation}\n{prompt}",
                             "agent": "primary"})

    def message(self, content: str) -> None:
        """A message from outside the agent (a reviewer, QA) arriving during the session."""
        self.history.append({"role": "user", "content": content, "agent": "primary"})

    def render(self, submission: str, exit_status: str, seed: int) -> dict[str, Any]:
        """The whole ``.traj`` document."""
        sent = sum(len(m["content"]) for m in self.history) // 4
        calls = len(self.steps)
        return {
            "environment": "swe_main",
            "trajectory": self.steps,
            "history": self.history,
            "info": {
                "submission": submission,
                "exit_status": exit_status,
                "model_stats": {
                    "total_cost": round(sent * 3e-6 * calls + (seed % 97) / 1000, 5),
                    "instance_cost": round(sent * 3e-6 * calls + (seed % 97) / 1000, 5),
                    "tokens_sent": sent * calls,
                    "tokens_received": 120 * calls + seed % 300,
                    "api_calls": calls,
                },
            },
        }
