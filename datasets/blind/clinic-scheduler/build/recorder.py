"""Record a scripted SWE-agent 1.x session by really running each step in a checkout.

Every ``bash`` action runs in ``bash -c`` inside the checkout (stdout and stderr merged, as
SWE-ReX's shell session merges them); every ``str_replace_editor`` action is performed on the
checkout's files by a re-implementation of SWE-agent's ``edit_anthropic`` tool that prints what
that tool prints; ``submit`` runs ``git add -A && git diff --cached`` like SWE-agent's submit
tool.  The file written is the ``.traj`` JSON SWE-agent 1.x writes: ``trajectory``,
``history``, ``info``, ``replay_config`` (a JSON string) and ``environment``.  SWE-agent keeps
no wall-clock times in a trajectory, so none are written here (only ``execution_time``).

The checkout lives at ``build/work/<repo_name>``; inside the agent's container it would be at
``/<repo_name>``, so that prefix is mapped both ways (paths in actions -> real checkout, real
checkout -> ``/<repo_name>`` in observations).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shlex
import subprocess
import time
from pathlib import Path

REPO = "acme-health/clinic-scheduler"
REPO_NAME = "acme-health__clinic-scheduler"
VROOT = "/" + REPO_NAME
BUILD = Path(__file__).resolve().parent
VENV = BUILD / ".venv"
MODEL = "claude-3-7-sonnet-20250219"

SYSTEM_TEMPLATE = "You are a helpful assistant that can interact with a computer to solve tasks."
INSTANCE_TEMPLATE = """<uploaded_files>
{{working_dir}}
</uploaded_files>
I've uploaded a python code repository in the directory {{working_dir}}. Consider the following issue:

<issue_description>
{{problem_statement}}
</issue_description>

Can you help me implement the necessary changes to the repository so that the issue is resolved?
Follow these steps to resolve the issue:
1. As a first step, it might be a good idea to find and read code relevant to the <issue_description>
2. Reproduce the problem, preferably with a test in the repository's `tests/` folder, and run it with `python -m pytest`
3. Edit the sourcecode of the repo to resolve the issue
4. Run the test suite again and make sure everything passes
5. Think about edgecases and make sure your fix handles them as well
When you are done, call the `submit` command."""
NEXT_STEP_TEMPLATE = "OBSERVATION:\n{{observation}}"
NO_OUTPUT_TEMPLATE = "Your command ran successfully and did not produce any output."
PARSE_ERROR = (
    '{%- if error_code == "missing" -%}\nYour last output did not use any tool calls!\nPlease make sure '
    "your output includes exactly _ONE_ function call!\nYou must invoke the function directly using the "
    "function call format.\nYou cannot invoke commands with ```, you have to use the function call format.\n"
    "If you think you have already resolved the issue, please submit your changes by running the `submit` "
    "command.\nIf you think you cannot solve the problem, please run `exit_forfeit` (if available) or "
    '`submit`.\nElse, please continue with a new tool call!\n{%- elif error_code == "multiple" -%}\nYour '
    "last output included multiple tool calls!\nPlease make sure your output includes a thought and exactly "
    '_ONE_ function call.\n{%- elif error_code == "unexpected_arg" -%}\nYour action could not be parsed '
    "properly: {{exception_message}}.\nMake sure your function call doesn't include any extra arguments "
    "that are not in the allowed arguments, and only use the allowed commands.\n{%- else -%}\nYour action "
    "could not be parsed properly: {{exception_message}}.\n{% endif %}\n"
)
SNIPPET_LINES = 4
TOOL_SCHEMA_TOKENS = 1187
MAX_RESPONSE_LEN = 16000


def replay_config(instance_id: str, problem: str, base_commit: str, user: str) -> str:
    """The run config as SWE-agent 1.x stores it: ``RunSingleConfig.model_dump_json()``."""
    cfg = {
        "env": {
            "deployment": {
                "image": "python:3.11",
                "port": None,
                "docker_args": [],
                "startup_timeout": 180.0,
                "pull": "missing",
                "remove_images": False,
                "python_standalone_dir": "/root",
                "platform": None,
                "type": "docker",
            },
            "repo": {
                "github_url": f"https://github.com/{REPO}",
                "base_commit": base_commit,
                "clone_timeout": 500,
                "type": "github",
            },
            "post_startup_commands": ["pip install -q pytest==8.3.5"],
            "post_startup_command_timeout": 500,
            "name": "main",
        },
        "agent": {
            "name": "main",
            "templates": {
                "system_template": SYSTEM_TEMPLATE,
                "instance_template": INSTANCE_TEMPLATE,
                "next_step_template": NEXT_STEP_TEMPLATE,
                "next_step_truncated_observation_template": (
                    "Observation: {{observation}}<response clipped><NOTE>Observations should not exceeded "
                    "{{max_observation_length}} characters. {{elided_chars}} characters were elided. Please "
                    "try a different command that produces less output or use head/tail/grep/redirect the "
                    "output to a file. Do not use interactive pagers.</NOTE>"
                ),
                "max_observation_length": 100000,
                "next_step_no_output_template": NO_OUTPUT_TEMPLATE,
                "strategy_template": None,
                "demonstration_template": None,
                "demonstrations": [],
                "put_demos_in_history": False,
                "shell_check_error_template": (
                    "Your bash command contained syntax errors and was NOT executed. Please fix the syntax "
                    "errors and try again. This can be the result of not adhering to the syntax for "
                    "multi-line commands. Here is the output of `bash -n`:\n{{bash_stdout}}\n{{bash_stderr}}"
                ),
                "command_cancelled_timeout_template": (
                    "The command '{{command}}' was cancelled because it took more than {{timeout}} seconds. "
                    "Please try a different command that completes more quickly."
                ),
            },
            "tools": {
                "filter": {
                    "blocklist_error_template": "Operation '{{action}}' is not supported by this environment.",
                    "blocklist": ["vim", "vi", "emacs", "nano", "nohup", "gdb", "less", "tail -f",
                                  "python -m venv", "make"],
                    "blocklist_standalone": ["python", "python3", "ipython", "bash", "sh", "/bin/bash",
                                             "/bin/sh", "nohup", "vi", "vim", "emacs", "nano", "su"],
                    "block_unless_regex": {"radare2": "\\b(?:radare2)\\b.*\\s+-c\\s+.*",
                                           "r2": "\\b(?:radare2)\\b.*\\s+-c\\s+.*"},
                },
                "bundles": [
                    {"path": "/home/" + user + "/SWE-agent/tools/registry", "hidden_tools": []},
                    {"path": "/home/" + user + "/SWE-agent/tools/edit_anthropic", "hidden_tools": []},
                    {"path": "/home/" + user + "/SWE-agent/tools/submit", "hidden_tools": []},
                ],
                "env_variables": {"PAGER": "cat", "MANPAGER": "cat", "LESS": "-R", "PIP_PROGRESS_BAR": "off",
                                  "TQDM_DISABLE": "1", "GIT_PAGER": "cat"},
                "registry_variables": {},
                "submit_command": "submit",
                "parse_function": {"error_message": PARSE_ERROR, "type": "function_calling"},
                "enable_bash_tool": True,
                "format_error_template": PARSE_ERROR,
                "command_docs": None,
                "multi_line_command_endings": {},
                "submit_command_end_name": None,
                "reset_commands": [],
                "execution_timeout": 30,
                "install_timeout": 300,
                "total_execution_timeout": 1800,
                "max_consecutive_execution_timeouts": 3,
            },
            "history_processors": [{"type": "cache_control", "last_n_messages": 2,
                                    "last_n_messages_offset": 0, "tagged_roles": ["user", "tool"]}],
            "model": {
                "name": MODEL,
                "per_instance_cost_limit": 3.0,
                "total_cost_limit": 0.0,
                "per_instance_call_limit": 0,
                "temperature": 0.0,
                "top_p": 1.0,
                "api_base": None,
                "api_version": None,
                "api_key": None,
                "stop": [],
                "completion_kwargs": {},
                "convert_system_to_user": False,
                "retry": {"retries": 20, "min_wait": 10.0, "max_wait": 120.0},
                "delay": 0.0,
                "fallbacks": [],
                "choose_api_key_by_thread": True,
                "max_input_tokens": None,
                "max_output_tokens": None,
            },
            "max_requeries": 3,
            "action_sampler": None,
            "type": "default",
        },
        "problem_statement": {"text": problem, "extra_fields": {}, "type": "text", "id": instance_id},
        "output_dir": (
            f"/home/{user}/swe-runs/trajectories/{user}/"
            f"default__{MODEL}__t-0.00__p-1.00__c-3.00___{instance_id}"
        ),
        "actions": {"open_pr": False, "pr_config": {"skip_if_commits_reference_issue": True},
                    "apply_patch_locally": False},
        "env_var_path": None,
    }
    return json.dumps(cfg, separators=(",", ":"), ensure_ascii=False)


def _tool_call_id(seed: str) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    digest = hashlib.sha256(seed.encode()).digest()
    return "toolu_01" + "".join(alphabet[b % len(alphabet)] for b in digest[:22])


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


class StepFailed(AssertionError):
    pass


class Recorder:
    def __init__(self, instance_id: str, problem: str, checkout: Path, base_commit: str, user: str):
        self.instance_id = instance_id
        self.problem = problem
        self.real = str(checkout)
        self.base_commit = base_commit
        self.user = user
        self.trajectory: list[dict] = []
        self.history: list[dict] = [
            {"role": "system", "content": SYSTEM_TEMPLATE, "agent": "main", "message_type": "system_prompt"},
            {
                "role": "user",
                "content": INSTANCE_TEMPLATE.replace("{{working_dir}}", VROOT).replace(
                    "{{problem_statement}}", problem
                ),
                "agent": "main",
                "message_type": "observation",
            },
        ]
        self.tokens_sent = 0
        self.tokens_received = 0
        self.submission: str | None = None
        self.model_seconds: list[int] = []
        self.env = {
            "PATH": f"{VENV}/bin:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(BUILD / "work" / "home"),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "PAGER": "cat",
            "GIT_PAGER": "cat",
            "PYTHONDONTWRITEBYTECODE": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "TERM": "dumb",
        }
        (BUILD / "work" / "home").mkdir(parents=True, exist_ok=True)

    # -- path mapping ----------------------------------------------------------------

    def _in(self, text: str) -> str:
        return text.replace(VROOT, self.real)

    def _out(self, text: str) -> str:
        text = text.replace(self.real, VROOT)
        return text.replace(str(VENV), "/usr/local")

    # -- tools -------------------------------------------------------------------------

    def _run_bash(self, command: str) -> tuple[str, int]:
        proc = subprocess.run(
            ["bash", "-c", self._in(command)],
            cwd=self.real,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        return self._out(proc.stdout), proc.returncode

    def _make_output(self, content: str, descriptor: str, init_line: int = 1) -> str:
        if len(content) > MAX_RESPONSE_LEN:
            content = content[:MAX_RESPONSE_LEN] + (
                "<response clipped><NOTE>To save on context only part of this file has been shown to you. "
                "You should retry this tool after you have searched inside the file with `grep -n` in order "
                "to find the line numbers of what you are looking for.</NOTE>"
            )
        content = content.expandtabs()
        numbered = "\n".join(f"{i + init_line:6}\t{line}" for i, line in enumerate(content.split("\n")))
        return f"Here's the result of running `cat -n` on {descriptor}:\n" + numbered + "\n"

    def _editor(self, args: dict) -> tuple[str, int]:
        command = args["command"]
        vpath = args["path"]
        path = Path(self._in(vpath))
        if command == "view":
            if path.is_dir():
                proc = subprocess.run(
                    ["bash", "-c", f"find {path} -maxdepth 2 -not -path '*/\\.*'"],
                    stdout=subprocess.PIPE, text=True, env=self.env,
                )
                listing = "\n".join(sorted(proc.stdout.splitlines()))
                return (
                    f"Here's the files and directories up to 2 levels deep in {vpath}, excluding hidden "
                    f"items:\n{self._out(listing)}\n\n"
                ), 0
            if not path.exists():
                return f"The path {vpath} does not exist. Please provide a valid path.", 1
            content = path.read_text()
            init_line = 1
            if "view_range" in args:
                first, last = args["view_range"]
                lines = content.split("\n")
                init_line = first
                content = "\n".join(lines[first - 1 :] if last == -1 else lines[first - 1 : last])
            return self._make_output(content, vpath, init_line), 0
        if command == "create":
            if path.exists():
                return f"File already exists at: {vpath}. Cannot overwrite files using command `create`.", 1
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(args["file_text"])
            return f"File created successfully at: {vpath}", 0
        if command == "str_replace":
            content = path.read_text().expandtabs()
            old = args["old_str"].expandtabs()
            new = args.get("new_str", "").expandtabs()
            count = content.count(old)
            if count == 0:
                return f"No replacement was performed, old_str `{args['old_str']}` did not appear verbatim in {vpath}.", 1
            if count > 1:
                lines = [i + 1 for i, line in enumerate(content.split("\n")) if old in line]
                return (
                    f"No replacement was performed. Multiple occurrences of old_str `{args['old_str']}` in "
                    f"lines {lines}. Please ensure it is unique"
                ), 1
            new_content = content.replace(old, new)
            path.write_text(new_content)
            replacement_line = content.split(old)[0].count("\n")
            start_line = max(0, replacement_line - SNIPPET_LINES)
            end_line = replacement_line + SNIPPET_LINES + new.count("\n")
            snippet = "\n".join(new_content.split("\n")[start_line : end_line + 1])
            msg = f"The file {vpath} has been edited. "
            msg += self._make_output(snippet, f"a snippet of {vpath}", start_line + 1)
            msg += "Review the changes and make sure they are as expected. Edit the file again if necessary."
            return msg, 0
        if command == "insert":
            content = path.read_text().expandtabs()
            text = args["new_str"].expandtabs()
            line_no = args["insert_line"]
            lines = content.split("\n")
            text_lines = text.split("\n")
            new_lines = lines[:line_no] + text_lines + lines[line_no:]
            snippet_lines = (
                lines[max(0, line_no - SNIPPET_LINES) : line_no]
                + text_lines
                + lines[line_no : line_no + SNIPPET_LINES]
            )
            path.write_text("\n".join(new_lines))
            msg = f"The file {vpath} has been edited. "
            msg += self._make_output(
                "\n".join(snippet_lines), "a snippet of the edited file", max(1, line_no - SNIPPET_LINES + 1)
            )
            msg += (
                "Review the changes and make sure they are as expected (correct indentation, no duplicate "
                "lines, etc). Edit the file again if necessary."
            )
            return msg, 0
        raise ValueError(command)

    # -- steps -------------------------------------------------------------------------

    def _query(self) -> list[dict]:
        """The messages sent to the model: the history after the cache_control processor."""
        messages = copy.deepcopy(self.history)
        tagged = 0
        for entry in reversed(messages):
            if tagged < 2 and entry["role"] in ("user", "tool"):
                text = entry["content"] if isinstance(entry["content"], str) else entry["content"][0]["text"]
                entry["content"] = [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]
                if entry["role"] == "tool":
                    entry["content"][0].pop("cache_control")
                    entry["cache_control"] = {"type": "ephemeral"}
                tagged += 1
        return messages

    def _step(self, thought: str, tool: str, arguments: dict, expect: int | None) -> str:
        query = self._query()
        n = len(self.trajectory)
        call_id = _tool_call_id(f"{self.instance_id}:{n}")
        started = time.perf_counter()
        if tool == "bash":
            action = arguments["command"]
            observation, code = self._run_bash(action)
        elif tool == "str_replace_editor":
            parts = ["str_replace_editor", arguments["command"], shlex.quote(arguments["path"])]
            for key in ("file_text", "view_range", "old_str", "new_str", "insert_line"):
                if key in arguments:
                    value = arguments[key]
                    parts.append(f"--{key} " + (shlex.quote(value) if isinstance(value, str) else str(value)))
            action = " ".join(parts)
            observation, code = self._editor(arguments)
        elif tool == "submit":
            action = "submit"
            diff, code = self._run_bash("git add -A && git diff --cached")
            self.submission = diff
            observation = diff
        else:
            raise ValueError(tool)
        elapsed = time.perf_counter() - started
        if expect is not None and code != expect:
            raise StepFailed(
                f"{self.instance_id} step {n}: expected exit {expect}, got {code}\n{action}\n{observation}"
            )
        tool_call = {
            "function": {"arguments": json.dumps(arguments), "name": tool},
            "id": call_id,
            "type": "function",
        }
        self.trajectory.append(
            {
                "action": action,
                "observation": observation,
                "response": thought,
                "thought": thought,
                "execution_time": elapsed,
                "state": {"working_dir": VROOT},
                "query": query,
                "extra_info": {},
            }
        )
        self.history.append(
            {
                "role": "assistant",
                "content": thought,
                "thought": thought,
                "action": action,
                "agent": "main",
                "tool_calls": [tool_call],
                "message_type": "action",
                "thinking_blocks": [],
            }
        )
        content = (
            NO_OUTPUT_TEMPLATE if observation.strip() == "" else NEXT_STEP_TEMPLATE.replace("{{observation}}", observation)
        )
        self.history.append(
            {
                "role": "tool",
                "content": content,
                "agent": "main",
                "message_type": "observation",
                "tool_call_ids": [call_id],
            }
        )
        # the tool schemas (bash, str_replace_editor, submit) go with every call
        self.tokens_sent += TOOL_SCHEMA_TOKENS + sum(_tokens(json.dumps(m["content"])) for m in query)
        self.tokens_received += _tokens(thought) + _tokens(json.dumps(arguments))
        # Deterministic model latency (seconds) for the session's clock in sessions.jsonl.
        self.model_seconds.append(9 + len(thought) // 12 + len(json.dumps(arguments)) // 45 + (3 if tool == "bash" else 1))
        return observation

    # public helpers used by the session scripts
    def bash(self, thought: str, command: str, expect: int | None = 0) -> str:
        return self._step(thought, "bash", {"command": command}, expect)

    def view(self, thought: str, path: str, view_range: list[int] | None = None) -> str:
        args = {"command": "view", "path": path}
        if view_range:
            args["view_range"] = view_range
        return self._step(thought, "str_replace_editor", args, 0)

    def create(self, thought: str, path: str, text: str) -> str:
        return self._step(thought, "str_replace_editor", {"command": "create", "path": path, "file_text": text}, 0)

    def replace(self, thought: str, path: str, old: str, new: str) -> str:
        return self._step(
            thought, "str_replace_editor", {"command": "str_replace", "path": path, "old_str": old, "new_str": new}, 0
        )

    def insert(self, thought: str, path: str, line: int, text: str) -> str:
        return self._step(
            thought, "str_replace_editor", {"command": "insert", "path": path, "insert_line": line, "new_str": text}, 0
        )

    def submit(self, thought: str) -> str:
        return self._step(thought, "submit", {}, 0)

    # -- output ------------------------------------------------------------------------

    def document(self) -> dict:
        calls = len(self.trajectory)
        cost = self.tokens_sent * 3e-6 + self.tokens_received * 15e-6
        info = {
            "swe_agent_hash": "unavailable",
            "swe_agent_version": "1.0.1",
            "swe_rex_version": "1.2.1",
            "swe_rex_hash": "unavailable",
            "submission": self.submission,
            "exit_status": "submitted",
            "model_stats": {
                "instance_cost": round(cost, 5),
                "tokens_sent": self.tokens_sent,
                "tokens_received": self.tokens_received,
                "api_calls": calls,
            },
        }
        return {
            "trajectory": self.trajectory,
            "history": self.history,
            "info": info,
            "replay_config": replay_config(self.instance_id, self.problem, self.base_commit, self.user),
            "environment": "main",
        }

    def duration_seconds(self) -> int:
        return sum(self.model_seconds)
