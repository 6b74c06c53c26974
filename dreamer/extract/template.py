"""The agent framework's own words in a trajectory, told apart from what the world said.

A trajectory interleaves text from the world (the issue, a reviewer, a tool's output) with the
agent framework's fixed prompts: SWE-agent wraps the issue in an instance template ("INSTRUCTIONS:
... Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME.") and every observation in a prompt footer.
That template is the same in every session, says nothing about the code, and is addressed to the
agent at work, not to whoever learns from the log; reading it as a lesson or as an injected
instruction would flag every session. ``world_text`` keeps only the world's part.
"""

from __future__ import annotations

import re

# Where the framework's task templates put the issue: SWE-agent 0.x (ISSUE/INSTRUCTIONS),
# SWE-agent 1.x (<pr_description>), OpenHands' and SWE-agent's SWE-bench templates
# (<issue_description>), the bare <issue> tag several harnesses use, and mini-swe-agent's
# instance template ("Please solve this issue: {task}" then its fixed instructions).
_ISSUE_MARKERS = (
    ("ISSUE:", "INSTRUCTIONS:"),
    ("Please solve this issue:",
     "\n\nYou can execute bash commands and edit files to implement the necessary changes."),
    ("<pr_description>", "</pr_description>"),
    ("<issue_description>", "</issue_description>"),
    ("<issue>", "</issue>"),
)
# SWE-agent's observation footer (0.x next-step template).
_FOOTER = re.compile(r"\(Open file: [^\n]*\)\s*\(Current directory: [^\n]*\)\s*bash-\$\s*$")
# Fixed sentences of SWE-agent's templates that also appear outside the instance template
# (demonstrations, next-step and format-error templates).
_FIXED_SENTENCES = re.compile(
    r"Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME\.?|"
    r"Note however that you cannot use any interactive session commands[^\n]*",
)


def issue_part(text: str) -> str | None:
    """The issue inside a framework's task template (line breaks kept), or None without one."""
    for start, stop in _ISSUE_MARKERS:
        if start in text:
            return text.split(start, 1)[1].split(stop, 1)[0].strip()
    return None


def world_text(text: str, task: bool = False) -> str:
    """``text`` without the framework's template: for the task message, only its issue."""
    if task and (issue := issue_part(text)) is not None:
        text = issue
    text = _FOOTER.sub("", text)
    return _FIXED_SENTENCES.sub("", text).strip()
