"""Record an OpenHands (CodeActAgent, early-2025 event stream) trajectory by really running
each step in a checkout. Commands run in bash; str_replace_editor calls really read and edit
the files. The saved file is the JSON array of events OpenHands writes for a trajectory."""

import difflib
import hashlib
import json
import os
import random
import socket
import subprocess
from datetime import datetime, timedelta

MODEL = "claude-3-5-sonnet-20241022"
SNIPPET_CONTEXT_WINDOW = 4


def _make_output(file_content, descriptor, init_line=1):
    file_content = file_content.expandtabs()
    numbered = "\n".join(f"{i + init_line:6}\t{line}" for i, line in enumerate(file_content.split("\n")))
    return f"Here's the result of running `cat -n` on {descriptor}:\n" + numbered + "\n"


def get_diff(old, new, path):
    diff = difflib.unified_diff(old.split("\n"), new.split("\n"), fromfile=path, tofile=path, lineterm="")
    return "\n".join(diff)


class Session:
    def __init__(self, name, workdir, env, start, seed):
        self.name = name
        self.workdir = workdir
        self.env = env
        self.t = start  # naive local datetime, as OpenHands writes it
        self.rng = random.Random(seed)
        self.events = []
        self.next_id = 0
        self.tokens = 3400
        self.py = env.get("PATH", "").split(":")[0] + "/python"

    # ---- helpers -------------------------------------------------------------------
    def _ts(self, seconds):
        self.t += timedelta(seconds=seconds, microseconds=self.rng.randint(0, 999_999))
        return self.t.isoformat()

    def _id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def _tool_meta(self, fname, arguments, thought):
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        call_id = "toolu_01" + "".join(self.rng.choice(alphabet) for _ in range(22))
        resp_id = "chatcmpl-" + str(
            __import__("uuid").UUID(int=self.rng.getrandbits(128), version=4)
        )
        completion = 60 + self.rng.randint(0, 260)
        cached = self.tokens - self.rng.randint(5, 200)
        prompt = self.tokens + self.rng.randint(40, 400)
        self.tokens = prompt + completion
        return {
            "function_name": fname,
            "tool_call_id": call_id,
            "model_response": {
                "id": resp_id,
                "created": int(self.t.timestamp()),
                "model": MODEL,
                "object": "chat.completion",
                "system_fingerprint": None,
                "choices": [
                    {
                        "finish_reason": "tool_calls",
                        "index": 0,
                        "message": {
                            "content": thought,
                            "role": "assistant",
                            "tool_calls": [
                                {
                                    "index": 1,
                                    "function": {"arguments": json.dumps(arguments), "name": fname},
                                    "id": call_id,
                                    "type": "function",
                                }
                            ],
                            "function_call": None,
                        },
                    }
                ],
                "usage": {
                    "completion_tokens": completion,
                    "prompt_tokens": prompt,
                    "total_tokens": prompt + completion,
                    "completion_tokens_details": None,
                    "prompt_tokens_details": {"audio_tokens": None, "cached_tokens": max(cached, 0)},
                    "cache_creation_input_tokens": prompt - max(cached, 0),
                    "cache_read_input_tokens": max(cached, 0),
                },
                "service_tier": None,
            },
            "total_calls_in_response": 1,
        }

    def _abs(self, path):
        return path if path.startswith("/") else os.path.join(self.workdir, path)

    # ---- events --------------------------------------------------------------------
    def user(self, text):
        i = self._id()
        self.events.append({
            "id": i, "timestamp": self._ts(2), "source": "user", "message": text,
            "action": "message",
            "args": {"content": text, "image_urls": None, "wait_for_response": False},
            "timeout": 120,
        })
        # agent state changes (loading -> running) take the next ids; they are not saved
        self.next_id += 2

    def run(self, thought, command):
        arguments = {"command": command, "is_input": "false"}
        meta = self._tool_meta("execute_bash", arguments, thought)
        a = self._id()
        self.events.append({
            "id": a, "timestamp": self._ts(3 + self.rng.randint(0, 9)), "source": "agent",
            "message": f"Running command: {command}", "action": "run", "tool_call_metadata": meta,
            "args": {"command": command, "is_input": False, "thought": thought, "blocking": False,
                     "hidden": False, "confirmation_state": "confirmed"},
            "timeout": 120,
        })
        proc = subprocess.run(["bash", "-c", command], cwd=self.workdir, env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = proc.stdout.rstrip("\n")
        code = proc.returncode
        self.events.append({
            "id": self._id(), "timestamp": self._ts(1), "source": "agent",
            "message": f"Command `{command}` executed with exit code {code}.", "cause": a,
            "observation": "run", "tool_call_metadata": meta, "content": out,
            "extras": {"command": command, "metadata": {
                "exit_code": code, "pid": -1, "username": self.env.get("USER", "root"),
                "hostname": socket.gethostname(), "working_dir": self.workdir,
                "py_interpreter_path": self.py, "prefix": "",
                "suffix": f"\n[The command completed with exit code {code}.]"},
                "hidden": False},
            "success": code == 0,
        })
        return out, code

    def view(self, thought, path):
        path = self._abs(path)
        arguments = {"command": "view", "path": path}
        meta = self._tool_meta("str_replace_editor", arguments, thought)
        a = self._id()
        self.events.append({
            "id": a, "timestamp": self._ts(3 + self.rng.randint(0, 6)), "source": "agent",
            "message": f"Reading file: {path}", "action": "read", "tool_call_metadata": meta,
            "args": {"path": path, "start": 0, "end": -1, "thought": thought, "impl_source": "oh_aci",
                     "translated_ipython_code": f"print(file_editor(**{arguments!r}))"},
            "timeout": 120,
        })
        with open(path) as fh:
            content = fh.read()
        self.events.append({
            "id": self._id(), "timestamp": self._ts(0), "source": "agent",
            "message": f"I read the file {path}.", "cause": a, "observation": "read",
            "tool_call_metadata": meta, "content": _make_output(content, path),
            "extras": {"path": path, "impl_source": "oh_aci"},
        })

    def _edit(self, thought, path, arguments, old, new, formatted):
        meta = self._tool_meta("str_replace_editor", arguments, thought)
        a = self._id()
        self.events.append({
            "id": a, "timestamp": self._ts(5 + self.rng.randint(0, 12)), "source": "agent",
            "message": "", "action": "edit", "tool_call_metadata": meta,
            "args": {"path": path, "content": "", "start": 1, "end": -1, "thought": thought,
                     "impl_source": "oh_aci",
                     "translated_ipython_code": f"print(file_editor(**{arguments!r}))"},
            "timeout": 120,
        })
        self.events.append({
            "id": self._id(), "timestamp": self._ts(0), "source": "agent",
            "message": f"I edited the file {path}.", "cause": a, "observation": "edit",
            "tool_call_metadata": meta, "content": get_diff(old or "", new, path),
            "extras": {"path": path, "prev_exist": old is not None, "old_content": old,
                       "new_content": new, "impl_source": "oh_aci",
                       "formatted_output_and_error": formatted},
        })

    def replace(self, thought, path, old_str, new_str):
        path = self._abs(path)
        with open(path) as fh:
            content = fh.read()
        if content.count(old_str) != 1:
            raise RuntimeError(f"{self.name}: old_str occurs {content.count(old_str)} times in {path}")
        new_content = content.replace(old_str, new_str)
        with open(path, "w") as fh:
            fh.write(new_content)
        replacement_line = content.split(old_str)[0].count("\n")
        start_line = max(0, replacement_line - SNIPPET_CONTEXT_WINDOW)
        end_line = replacement_line + SNIPPET_CONTEXT_WINDOW + new_str.count("\n")
        snippet = "\n".join(new_content.split("\n")[start_line:end_line + 1])
        formatted = (f"The file {path} has been edited. "
                     + _make_output(snippet, f"a snippet of {path}", start_line + 1)
                     + "Review the changes and make sure they are as expected. Edit the file again if necessary.")
        args = {"command": "str_replace", "path": path, "old_str": old_str, "new_str": new_str}
        self._edit(thought, path, args, content, new_content, formatted)

    def create(self, thought, path, text):
        path = self._abs(path)
        old = None
        if os.path.exists(path):
            raise RuntimeError(f"{path} exists")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
        args = {"command": "create", "path": path, "file_text": text}
        self._edit(thought, path, args, old, text, f"File created successfully at: {path}")

    def finish(self, thought):
        meta = self._tool_meta("finish", {}, thought)
        self.events.append({
            "id": self._id(), "timestamp": self._ts(4), "source": "agent", "message": thought,
            "action": "finish", "tool_call_metadata": meta,
            "args": {"outputs": {}, "thought": thought}, "timeout": 120,
        })

    def save(self, path):
        with open(path, "w") as fh:
            json.dump(self.events, fh, indent=2)
            fh.write("\n")
        return self.events[0]["timestamp"], self.events[-1]["timestamp"]
