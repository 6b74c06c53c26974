"""Run one scripted SWE-agent 0.7.0 session for real and write its .traj file.

This re-implements, line for line where it matters, what SWE-agent v0.7.0 does
with the default config (config/default.yaml) and the `human_thought` model:

* the system message (command docs generated from the v0.7.0 command files),
* the demonstration message (from the v0.7.0 marshmallow demonstration),
* the instance / next-step / no-output templates,
* the ThoughtActionParser, the heredoc guard for `edit`, the `submit` command,
* the end-marker communication with a long-lived bash process (stdout+stderr
  merged, lines with the done marker dropped, so no trailing newline),
* the trajectory steps (action, observation, response, state, thought,
  execution_time) and the info dict (summarizer, edited_files30/50/70,
  model_stats, exit_status, submission).

The commands are the real v0.7.0 shell functions (build/sweagent_v0_7_0/commands),
sourced into the bash process; every observation is what they printed.
"""
from __future__ import annotations

import copy
import json
import os
import re
import select
import shlex
import subprocess
import time
from pathlib import Path

import yaml
from unidiff import PatchSet

HERE = Path(__file__).resolve().parent
SWE = HERE / "sweagent_v0_7_0"
VENV = Path(os.environ.get("FARE_VENV", "/work/blind-new/.venv-fare-engine"))
REPO_NAME = "acme-transit__fare-engine"
REPO_DIR = Path("/") / REPO_NAME
MARK_START = "///PROCESS-DONE:"
MARK_END = ":PROCESS-DONE///"
MARK_RE = re.compile(rf"{MARK_START}(.+?){MARK_END}")
COMMAND_FILES = ["defaults.sh", "search.sh", "edit_linting.sh", "_split_string.py", "submit.sh"]


# ---------------------------------------------------------------- config ----
def load_config() -> dict:
    return yaml.safe_load((SWE / "default.yaml").read_text())


def parse_bash_functions(contents: str) -> list[dict]:
    lines = contents.split("\n")
    commands, idx, docs = [], 0, []
    while idx < len(lines):
        line = lines[idx]
        idx += 1
        if line.startswith("# "):
            docs.append(line[2:])
        elif line.strip().endswith("() {"):
            name = line.split()[0][:-2]
            while lines[idx].strip() != "}":
                idx += 1
            docstring, end_name, arguments, signature = None, None, None, name
            docs_dict = yaml.safe_load("\n".join(docs).replace("@yaml", ""))
            if docs_dict is not None:
                docstring = docs_dict["docstring"]
                end_name = docs_dict.get("end_name", None)
                arguments = docs_dict.get("arguments", None)
                if "signature" in docs_dict:
                    signature = docs_dict["signature"]
                elif arguments is not None:
                    for param, settings in arguments.items():
                        signature += f" <{param}>" if settings["required"] else f" [<{param}>]"
            commands.append({"name": name, "docstring": docstring, "end_name": end_name,
                             "arguments": arguments, "signature": signature})
            docs = []
    return commands


def all_commands() -> list[dict]:
    cmds = []
    for f in COMMAND_FILES:
        contents = (SWE / "commands" / f).read_text()
        if contents.strip().startswith("#!"):
            continue  # _split_string.py has no @yaml block: a utility script
        cmds += [c for c in parse_bash_functions(contents) if not c["name"].startswith("_")]
    return cmds


def command_docs(cmds: list[dict], env_variables: dict) -> str:
    docs = ""
    for cmd in cmds:
        docs += f"{cmd['name']}:\n"
        if cmd["docstring"] is not None:
            docs += f"  docstring: {cmd['docstring'].format(**env_variables)}\n"
        docs += f"  signature: {cmd['signature']}\n"
        if cmd["arguments"] is not None:
            docs += "  arguments:\n"
            for param, settings in cmd["arguments"].items():
                req = "required" if settings["required"] else "optional"
                docs += f"    - {param} ({settings['type']}) [{req}]: {settings['description']}\n"
        docs += "\n"
    return docs


def system_message(cfg: dict) -> str:
    env_vars = cfg["env_variables"]
    docs = command_docs(all_commands(), env_vars)
    return cfg["system_template"].format(command_docs=docs, **env_vars)


def demonstration_message(cfg: dict) -> str:
    demo = json.loads((SWE / "demo_marshmallow-code__marshmallow-1867.traj").read_text())["history"]
    demo = [e for e in demo if ("agent" not in e) or e["agent"] == "primary"]
    demo = [e for e in demo if e["role"] != "system"]
    return cfg["demonstration_template"].format(demonstration="\n".join(e["content"] for e in demo))


# ---------------------------------------------------------------- parser ----
CODE_BLOCK = re.compile(r"^```(\S*)\s*\n|^```\s*$", re.MULTILINE)


def thought_action(response: str) -> tuple[str, str]:
    stack, last = [], None
    for match in CODE_BLOCK.finditer(response):
        if stack and not match.group(1):
            start = stack.pop()
            if not stack:
                last = (start, match)
        elif match.group(1) is not None:
            stack.append(match)
    start, end = last
    return response[: start.start()] + response[end.end():], response[start.end(): end.start()]


EDIT_PAT = re.compile(r"^\s*(edit)\s*(.*?)^(end_of_edit)\s*$", re.DOTALL | re.MULTILINE)


def guard_multiline(action: str) -> str:
    parsed, rem = [], action
    while rem.strip():
        m = EDIT_PAT.search(rem)
        if m:
            pre, match_action, rem = rem[: m.start()], rem[m.start(): m.end()], rem[m.end():]
            if pre.strip():
                parsed.append(pre)
            if match_action.strip():
                eof = m.group(3).strip()
                if not match_action.split("\n")[0].strip().endswith(f"<< '{eof}'"):
                    guarded = match_action[m.start():]
                    first = guarded.split("\n")[0]
                    parsed.append(guarded.replace(first, first + f" << '{eof}'", 1))
                else:
                    parsed.append(match_action)
        else:
            parsed.append(rem)
            rem = ""
    return "\n".join(parsed)


# ----------------------------------------------------------------- shell ----
class Shell:
    def __init__(self) -> None:
        env = {
            "PATH": f"{VENV}/bin:/root/commands:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root",
            "LANG": "C.UTF-8",
            "VIRTUAL_ENV": str(VENV),
        }
        self.proc = subprocess.Popen(["/bin/bash", "--noprofile", "--norc"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd="/")
        self.returncode = None

    def _communicate(self, input: str, timeout: float = 120) -> str:
        cmd = input if input.endswith("\n") else input + "\n"
        cmd += f'EXITSTATUS="$?"; sleep 0.01; echo {MARK_START}$EXITSTATUS{MARK_END}\n'
        os.write(self.proc.stdin.fileno(), cmd.encode())
        self.proc.stdin.flush()
        buffer, fd, end = b"", self.proc.stdout.fileno(), time.time() + timeout
        while time.time() < end:
            if select.select([fd], [], [], 0.01)[0]:
                data = os.read(fd, 4096)
                if data:
                    buffer += data
                    if MARK_START in buffer.decode("utf-8", errors="backslashreplace").replace("\r\n", "\n"):
                        break
        else:
            raise TimeoutError(buffer)
        decoded = buffer.decode("utf-8", errors="backslashreplace").replace("\r\n", "\n")
        body = "\n".join(line for line in decoded.splitlines() if not line.startswith(MARK_START))
        exit_code = MARK_RE.search(decoded).group(1)
        self.returncode = int(exit_code)
        return body.replace(f"{MARK_START}{exit_code}{MARK_END}", "")

    def communicate(self, input: str, set_last_action: bool = False) -> str:
        out = self._communicate(f"/bin/bash -n <<'EOF'\n{input}\nEOF\n")
        if self.returncode != 0:
            return out
        out = self._communicate(input)
        if set_last_action:
            self._communicate(f"export LAST_ACTION={shlex.quote(input.strip())}")
        return out

    def checked(self, input: str) -> str:
        out = self.communicate(input)
        if self.returncode != 0:
            raise RuntimeError(f"{input!r} failed: {out}")
        return out

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def setup_shell(commit: str, cfg: dict) -> Shell:
    sh = Shell()
    sh.checked("cd /")
    sh.checked(" && ".join([
        "echo -n > /root/files_to_edit.txt", f"cd /{REPO_NAME}", "export ROOT=$(pwd -P)",
        "git status", "git restore .", f"git reset --hard {commit}", "git clean -fdxq",
    ]))
    sh.checked(" && ".join(['export CURRENT_FILE=""', "export CURRENT_LINE=0", "export SEARCH_RESULTS=()",
                            "export SEARCH_FILES=()", "export SEARCH_INDEX=0"]))
    state_code = cfg["state_command"]["code"]
    sh.checked("\n".join([state_code] + [f"{k}={'' if v is None else v}" for k, v in cfg["env_variables"].items()]))
    os.makedirs("/root/commands", exist_ok=True)
    for f in COMMAND_FILES:
        contents = (SWE / "commands" / f).read_text()
        if contents.strip().startswith("#!"):
            dest = Path("/root/commands") / f.rsplit(".", 1)[0]
            dest.write_text(contents)
            sh.checked(f"chmod +x {dest}")
        else:
            dest = Path("/root/commands") / f
            dest.write_text(contents)
            sh.checked(f"source {dest}")
    return sh


# --------------------------------------------------------- edited files ----
def _merge(starts, stops):
    merged = []
    for start, stop in sorted(zip(starts, stops)):
        if not merged or merged[-1][1] < start:
            merged.append([start, stop])
        else:
            merged[-1][1] = max(merged[-1][1], stop)
    a, b = zip(*merged)
    return list(a), list(b)


def _format_file(text, starts, stops):
    starts, stops = _merge(starts, stops)
    out, last_stop, lines = [], None, text.splitlines()
    if starts[0] > 1:
        out.append(f"[{starts[0]-1} lines above omitted]")
    for start, stop in zip(starts, stops):
        if last_stop is not None:
            n = start - last_stop
            if n:
                out.append(f"\n[{n} lines omitted]\n")
        these = lines[start - 1: stop - 1]
        out.append("\n".join([f"{i:6d}: {l}" for i, l in enumerate(these, start=start)]))
        last_stop = stop
    if last_stop < len(lines):
        out.append(f"[{len(lines) - last_stop} lines below omitted]")
    return "\n".join(out)


def edited_files(patch: str, sh: Shell) -> dict:
    out = {}
    pf = PatchSet(patch) if patch else None
    files = {}
    if pf is not None:
        for p in pf:
            if p.is_modified_file:
                files[p.path] = sh.communicate(f"cat /{REPO_NAME}/{p.path}")
    for ctx in (30, 50, 70):
        value = "Empty. No edited files found."
        if pf is not None:
            parts = []
            for p in pf:
                if not p.is_modified_file:
                    continue
                starts = [max(1, h.target_start - ctx) for h in p]
                stops = [h.target_start + h.target_length + ctx for h in p]
                parts.append(f"[File: {p.path}]\n" + _format_file(files[p.path], starts, stops))
            value = "\n\n".join(parts)
        out[f"edited_files{ctx}"] = value
    return out


# ------------------------------------------------------------------- run ----
def zero_stats() -> dict:
    return {"total_cost": 0, "instance_cost": 0, "tokens_sent": 0, "tokens_received": 0, "api_calls": 0}


def run_session(commit: str, issue: str, steps: list[tuple[str, str]], traj_path: Path) -> dict:
    """steps: (thought, action) pairs as the human_thought model would type them."""
    cfg = load_config()
    sh = setup_shell(commit, cfg)
    history = [{"role": "system", "content": system_message(cfg), "agent": "primary"}]
    history.append({"agent": "primary", "content": demonstration_message(cfg), "is_demo": True, "role": "user"})
    trajectory, info = [], {}
    observation = None
    n_calls = 0
    for i, (thought_in, action_in) in enumerate(steps):
        state = sh.communicate("state")
        state_vars = json.loads(state)
        if history[-1]["role"] == "system" or history[-1].get("is_demo", False):
            message = cfg["instance_template"].format(issue=issue, **state_vars)
        elif observation is None or observation.strip() == "":
            message = cfg["next_step_no_output_template"].format(**state_vars)
        else:
            message = cfg["next_step_template"].format(observation=observation, **state_vars)
        history.append({"role": "user", "content": message, "agent": "primary"})
        response = f"{thought_in}\n```\n{action_in}\n```"
        thought, action = thought_action(response)
        history.append({"role": "assistant", "content": response, "thought": thought, "action": action,
                        "agent": "primary"})
        run_action = guard_multiline(action)
        t0 = time.perf_counter()
        done = False
        step_info = edited_files("", sh)
        is_submit = re.match(r"^\s*(submit)(\s*)$", run_action, re.MULTILINE) is not None
        obs = sh.communicate(run_action.strip(), set_last_action=True)
        m = re.search(r"\<\<SUBMISSION\|\|(.*)\|\|SUBMISSION\>\>", obs, re.DOTALL)
        if m is not None:
            submission = m.group(1)
            step_info["exit_status"] = "submitted"
            step_info["submission"] = submission if submission.strip() != "" else None
            step_info.update(edited_files(submission, sh))
            obs = submission if submission.strip() != "" else None
            done = True
        n_calls += 1
        if "summarizer" not in info:
            info["summarizer"] = {"model_stats": zero_stats(), "n_calls": 0}
        info["summarizer"]["n_calls"] += 1
        info.update(step_info)
        if is_submit:
            done = True
        observations = [] if done else [obs]
        observation = "\n".join(o for o in observations if o is not None)
        trajectory.append({"action": action, "observation": observation, "response": response,
                           "state": state, "thought": thought,
                           "execution_time": time.perf_counter() - t0})
        info["model_stats"] = zero_stats()
        if done:
            if i != len(steps) - 1:
                raise RuntimeError("submit before the last step")
            break
    else:
        raise RuntimeError("session did not submit")
    sh.close()
    data = copy.deepcopy({"environment": "swe_main", "trajectory": trajectory, "history": history, "info": info})
    traj_path.write_text(json.dumps(data, indent=2))
    return data
