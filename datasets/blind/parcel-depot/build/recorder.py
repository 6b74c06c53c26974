"""Record a session as a SWE-agent 1.x .traj by really running its steps in a checkout."""
import hashlib
import json
import shlex
import subprocess
import time
from pathlib import Path

from common import git, run, test_env

SYSTEM = "You are a helpful assistant that can interact with a computer to solve tasks."

INSTANCE = """<uploaded_files>
{wd}
</uploaded_files>
I've uploaded a python code repository in the directory {wd}. Consider the following PR description:

<pr_description>
{ps}
</pr_description>

Can you help me implement the necessary changes to the repository so that the requirements specified in the <pr_description> are met?
I've already taken care of all changes to any of the test files described in the <pr_description>. This means you DON'T have to modify the testing logic or any of the tests in any way!
Your task is to make the minimal changes to non-tests files in the {wd} directory to ensure the <pr_description> is satisfied.
Follow these steps to resolve the issue:
1. As a first step, it might be a good idea to find and read code relevant to the <pr_description>
2. Create a script to reproduce the error and execute it with `python <filename.py>` using the bash tool, to confirm the error
3. Edit the sourcecode of the repo to resolve the issue
4. Rerun your reproduce script and confirm that the error is fixed!
5. Think about edgecases and make sure your fix handles them as well
Your thinking should be thorough and so it's fine if it's very long."""

REVIEW = """Thank you for your work on this issue. Please carefully follow the steps below to help review your changes.

1. If you made any changes to your code after running the reproduction script, please run the reproduction script again.
  If the reproduction script is failing, please revisit your changes and make sure they are correct.
  If you have already removed your reproduction script, please ignore this step.
2. Remove your reproduction script (if you haven't done so already).
3. If you have modified any TEST files, please revert them to the state they had before you started fixing the issue.
  You can do this with `git checkout -- /path/to/test/file.py`. Use below <diff> to find the files you need to revert.
4. Run the submit command again to confirm.

Here is a list of all of your changes:

<diff>
{diff}
</diff>
"""

NO_OUTPUT = "Your command ran successfully and did not produce any output."

TOOLS_CONFIG = {
    "filter": {"blocklist_error_template": "Operation '{{action}}' is not supported by this environment.",
               "blocklist": ["vim", "vi", "emacs", "nano", "nohup", "gdb", "less", "tail -f", "python -m venv", "make"],
               "blocklist_standalone": ["python", "python3", "ipython", "bash", "sh", "/bin/bash", "/bin/sh", "nohup", "vi", "vim", "emacs", "nano", "su"],
               "block_unless_regex": {"radare2": "\\b(?:radare2)\\b.*\\s+-c\\s+.*", "r2": "\\b(?:radare2)\\b.*\\s+-c\\s+.*"}},
    "bundles": [{"path": "/opt/SWE-agent/tools/registry", "hidden_tools": []},
                {"path": "/opt/SWE-agent/tools/edit_anthropic", "hidden_tools": []},
                {"path": "/opt/SWE-agent/tools/review_on_submit_m", "hidden_tools": []}],
    "env_variables": {"PAGER": "cat", "MANPAGER": "cat", "LESS": "-R", "PIP_PROGRESS_BAR": "off", "TQDM_DISABLE": "1", "GIT_PAGER": "cat"},
    "registry_variables": {"USE_FILEMAP": "true", "SUBMIT_REVIEW_MESSAGES": [REVIEW.replace("{diff}", "{{diff}}")]},
    "submit_command": "submit",
    "parse_function": {"error_message": "{%- if error_code == \"missing\" -%}\nYour last output did not use any tool calls!\nPlease make sure your output includes exactly _ONE_ function call!\nYou must invoke the function directly using the function call format.\nYou cannot invoke commands with ```, you have to use the function call format.\nIf you think you have already resolved the issue, please submit your changes by running the `submit` command.\nIf you think you cannot solve the problem, please run `exit_forfeit` (if available) or `submit`.\nElse, please continue with a new tool call!\n{%- elif error_code == \"multiple\" -%}\nYour last output included multiple tool calls!\nPlease make sure your output includes a thought and exactly _ONE_ function call.\n{%- elif error_code == \"unexpected_arg\" -%}\nYour action could not be parsed properly: {{exception_message}}.\nMake sure your function call doesn't include any extra arguments that are not in the allowed arguments, and only use the allowed commands.\n{%- else -%}\nYour action could not be parsed properly: {{exception_message}}.\n{% endif %}\n", "type": "function_calling"},
    "enable_bash_tool": True,
    "format_error_template": "{%- if error_code == \"missing\" -%}\nYour last output did not use any tool calls!\n{%- endif %}\n",
    "command_docs": None,
    "multi_line_command_endings": {},
    "submit_command_end_name": None,
    "reset_commands": [],
    "execution_timeout": 30,
    "install_timeout": 300,
    "total_execution_timeout": 1800,
    "max_consecutive_execution_timeouts": 3,
}


def _call_id(seed):
    return "toolu_01" + hashlib.sha256(seed.encode()).hexdigest()[:22]


def _cat_n(lines, start=1):
    return "\n".join(f"{i:6}\t{line}" for i, line in enumerate(lines, start))


class Session:
    def __init__(self, repo_dir, instance_id, problem_statement, base_commit, model_seed):
        self.wd = str(repo_dir)
        self.repo_dir = Path(repo_dir)
        self.instance_id = instance_id
        self.problem_statement = problem_statement
        self.base_commit = base_commit
        self.trajectory = []
        self.history = [
            {"role": "system", "content": SYSTEM, "agent": "main", "message_type": "system_prompt"},
            {"role": "user", "content": INSTANCE.format(wd=self.wd, ps=problem_statement),
             "agent": "main", "message_type": "observation"},
        ]
        self.elapsed = 0.0
        self.think = 0.0
        self.n = 0
        self.submitted_once = False
        self.submission = None
        self.seed = model_seed
        self.tokens_sent = 0
        self.tokens_received = 0

    # ---- tool implementations -------------------------------------------------------------
    def _bash(self, command):
        t0 = time.monotonic()
        p = subprocess.run(["sh", "-c", command], cwd=self.wd, env={**_base_env(), **test_env()},
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.stdout, time.monotonic() - t0

    def _abs(self, path):
        return path if path.startswith("/") else f"{self.wd}/{path}"

    def _view(self, path, view_range=None):
        p = Path(self._abs(path))
        if p.is_dir():
            out = run(["find", str(p), "-maxdepth", "2", "-not", "-path", "*/.*",
                       "-not", "-path", "*__pycache__*"], self.wd).stdout.split()
            return (f"Here's the files and directories up to 2 levels deep in {p}, excluding hidden items:\n"
                    + "\n".join(sorted(out)) + "\n\n\n")
        lines = p.read_text().split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        if view_range:
            a, b = view_range
            b = len(lines) if b == -1 else b
            return f"Here's the result of running `cat -n` on {p}:\n" + _cat_n(lines[a - 1:b], a) + "\n"
        return f"Here's the result of running `cat -n` on {p}:\n" + _cat_n(lines) + "\n"

    def _create(self, path, text):
        p = Path(self._abs(path))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        return f"File created successfully at: {p}\n"

    def _replace(self, path, old, new):
        p = Path(self._abs(path))
        text = p.read_text()
        count = text.count(old)
        if count != 1:
            raise RuntimeError(f"{self.instance_id}: old_str occurs {count} times in {path}:\n{old}")
        before = text.split(old)[0]
        text = text.replace(old, new)
        p.write_text(text)
        start_line = before.count("\n")
        lines = text.split("\n")
        a = max(0, start_line - 4)
        b = min(len(lines), start_line + new.count("\n") + 5)
        snippet = _cat_n(lines[a:b], a + 1)
        return (f"The file {p} has been edited. Here's the result of running `cat -n` on a snippet of {p}:\n"
                f"{snippet}\nReview the changes and make sure they are as expected. Edit the file again if necessary.\n")

    def _diff(self):
        run(["git", "add", "-A"], self.wd)
        d = run(["git", "diff", "--cached"], self.wd).stdout
        run(["git", "reset", "-q"], self.wd)
        return d

    # ---- one step ---------------------------------------------------------------------------
    def step(self, thought, tool, **args):
        self.n += 1
        query = _cache_control(self.history)
        if tool == "bash":
            action = args["command"]
            fn_args = {"command": args["command"]}
            obs, dt = self._bash(args["command"])
        elif tool == "str_replace_editor":
            cmd = args["command"]
            path = self._abs(args["path"])
            fn_args = {"command": cmd, "path": path}
            t0 = time.monotonic()
            if cmd == "view":
                vr = args.get("view_range")
                if vr:
                    fn_args["view_range"] = vr
                    action = f"str_replace_editor view {path}  --view_range {vr[0]} {vr[1]}"
                else:
                    action = f"str_replace_editor view {path}"
                obs = self._view(path, vr)
            elif cmd == "create":
                fn_args["file_text"] = args["file_text"]
                action = f"str_replace_editor create {path} --file_text {shlex.quote(args['file_text'])}"
                obs = self._create(path, args["file_text"])
            elif cmd == "str_replace":
                fn_args["old_str"] = args["old_str"]
                fn_args["new_str"] = args["new_str"]
                action = (f"str_replace_editor str_replace {path}   --old_str {shlex.quote(args['old_str'])} "
                          f"--new_str {shlex.quote(args['new_str'])}")
                obs = self._replace(path, args["old_str"], args["new_str"])
            else:
                raise ValueError(cmd)
            dt = time.monotonic() - t0 + 0.08
        elif tool == "submit":
            action = "submit"
            fn_args = {}
            t0 = time.monotonic()
            diff = self._diff()
            if not self.submitted_once and diff.strip():
                obs = REVIEW.format(diff=diff)
                self.submitted_once = True
            else:
                obs = diff
                self.submission = diff if diff.strip() else None
            dt = time.monotonic() - t0 + 0.2
        else:
            raise ValueError(tool)
        dt = round(dt, 4)
        call_id = _call_id(f"{self.instance_id}/{self.n}/{action}")
        tool_calls = [{"index": 0, "function": {"arguments": json.dumps(fn_args), "name": tool},
                       "id": call_id, "type": "function"}]
        self.history.append({"role": "assistant", "content": thought, "thought": thought, "action": action,
                             "agent": "main", "tool_calls": tool_calls, "message_type": "action",
                             "thinking_blocks": []})
        shown = obs if obs.strip() else NO_OUTPUT
        self.history.append({"role": "tool", "content": ("OBSERVATION:\n" + obs) if obs.strip() else NO_OUTPUT,
                             "agent": "main", "message_type": "observation", "tool_call_ids": [call_id]})
        self.trajectory.append({
            "action": action,
            "observation": obs,
            "response": thought,
            "thought": thought,
            "execution_time": dt,
            "state": {"working_dir": self.wd},
            "query": query,
            "extra_info": {},
        })
        self.elapsed += dt
        # deterministic "model time" between steps
        self.think += 6 + int(hashlib.sha256(f"{self.seed}{self.n}".encode()).hexdigest()[:2], 16) % 40
        sent = sum(len(json.dumps(m)) for m in query) // 4
        self.tokens_sent += sent
        self.tokens_received += len(thought) // 4 + len(json.dumps(fn_args)) // 4
        return obs

    def duration_seconds(self):
        """Wall time of the session: model time plus a nominal 3 s per tool call (deterministic, so that
        commit dates and shas do not depend on how fast this machine runs the commands)."""
        return self.think + 3 * self.n

    def to_traj(self, output_dir):
        sub = self.submission or ""
        edited = _edited_files(self.repo_dir, sub)
        info = {
            "swe_agent_hash": "7f3b2c9e4d1a0b8f6e5c3a2d1f0e9b8c7a6d5e4f",
            "swe_agent_version": "1.1.0",
            "swe_rex_version": "1.2.1",
            "swe_rex_hash": "unavailable",
            "submission": self.submission,
            "exit_status": "submitted",
            **edited,
            "model_stats": {
                "instance_cost": round(self.tokens_sent * 3e-6 + self.tokens_received * 15e-6, 4),
                "tokens_sent": self.tokens_sent,
                "tokens_received": self.tokens_received,
                "api_calls": self.n,
            },
        }
        replay = {
            "env": {
                "deployment": {"type": "local"},
                "repo": {"path": self.wd, "base_commit": self.base_commit, "type": "local"},
                "post_startup_commands": [],
                "post_startup_command_timeout": 500,
                "name": "main",
            },
            "agent": {
                "name": "main",
                "templates": {"system_template": SYSTEM, "instance_template": INSTANCE.replace("{wd}", "{{working_dir}}").replace("{ps}", "{{problem_statement}}"),
                              "next_step_template": "OBSERVATION:\n{{observation}}",
                              "next_step_truncated_observation_template": "Observation: {{observation[:max_observation_length]}}<response clipped><NOTE>Observations should not exceeded {{max_observation_length}} characters. {{elided_chars}} characters were elided. Please try a different command that produces less output or use head/tail/grep/redirect the output to a file. Do not use interactive pagers.</NOTE>",
                              "max_observation_length": 100000,
                              "next_step_no_output_template": NO_OUTPUT,
                              "strategy_template": None, "demonstration_template": None, "demonstrations": [],
                              "put_demos_in_history": False, "shell_check_error_template": "Your bash command contained syntax errors and was NOT executed. Please fix the syntax errors and try again. This can be the result of not adhering to the syntax for multi-line commands. Here is the output of `bash -n`:\n{{bash_stdout}}\n{{bash_stderr}}",
                              "command_cancelled_timeout_template": "The command '{{command}}' was cancelled because it took more than {{timeout}} seconds. Please try a different command that completes more quickly. Note: A common source of this error is if the command is interactive or requires user input (it is impossible to receive user input in the current environment, so the command will never complete)."},
                "tools": TOOLS_CONFIG,
                "history_processors": [{"type": "cache_control", "last_n_messages": 2, "last_n_messages_offset": 0,
                                        "tagged_roles": ["user", "tool"]}],
                "model": {"name": "claude-3-7-sonnet-20250219", "per_instance_cost_limit": 2.0, "total_cost_limit": 0.0,
                          "per_instance_call_limit": 0, "temperature": 0.0, "top_p": 1.0, "api_base": None,
                          "api_version": None, "api_key": None, "stop": [], "completion_kwargs": {},
                          "convert_system_to_user": False, "retry": {"retries": 20, "min_wait": 10.0, "max_wait": 120.0},
                          "delay": 0.0, "fallbacks": [], "choose_api_key_by_thread": True,
                          "max_input_tokens": None, "max_output_tokens": None},
                "max_requeries": 3,
                "action_sampler": None,
                "type": "default",
            },
            "problem_statement": {"text": self.problem_statement, "extra_fields": {}, "type": "text", "id": self.instance_id},
            "output_dir": f"trajectories/sam/default__claude-3-7-sonnet-20250219__t-0.00__p-1.00__c-2.00___{self.instance_id}",
            "actions": {"open_pr": False, "pr_config": {"skip_if_commits_reference_issue": True},
                        "apply_patch_locally": False},
            "env_var_path": None,
        }
        return {"trajectory": self.trajectory, "history": self.history, "info": info,
                "replay_config": json.dumps(replay), "environment": "main"}


def _cache_control(history):
    """What the cache_control history processor sends: the last two user/tool messages tagged."""
    msgs = json.loads(json.dumps(history))
    tagged = 0
    for m in reversed(msgs):
        if m["role"] in ("user", "tool") and tagged < 2:
            m["content"] = [{"type": "text", "text": m["content"], "cache_control": {"type": "ephemeral"}}]
            tagged += 1
    return msgs


def _base_env():
    import os
    return {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "USER")}


def _edited_files(repo_dir, patch):
    if not patch.strip():
        return {f"edited_files{n}": "Empty. No edited files found." for n in (30, 50, 70)}
    files = {}
    cur = None
    for line in patch.splitlines():
        if line.startswith("+++ b/"):
            cur = line[6:]
            files[cur] = []
        elif line.startswith("@@") and cur:
            new = line.split("+")[1].split(" ")[0]
            start, _, cnt = new.partition(",")
            files[cur].append((int(start), int(cnt or 1)))
    out = {}
    for ctx in (30, 50, 70):
        parts = []
        for f, hunks in files.items():
            p = Path(repo_dir, f)
            if not p.exists():
                continue
            lines = p.read_text().splitlines()
            keep = set()
            for s, c in hunks:
                keep.update(range(max(1, s - ctx), min(len(lines), s + c + ctx) + 1))
            body, last = [], 0
            for i in sorted(keep):
                if last and i != last + 1:
                    body.append("[...]")
                body.append(f"{i:>4}: {lines[i - 1]}")
                last = i
            parts.append(f"[File: {f}]\n" + "\n".join(body))
        out[f"edited_files{ctx}"] = "\n\n".join(parts) + "\n"
    return out
