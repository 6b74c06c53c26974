"""Record one SWE-agent 1.x (windowed tools, thought_action parser) session by really running
each action in a checkout, with the real SWE-agent tool scripts on PATH.

Writes the .traj file in the shape SWE-agent 1.0 writes (trajectory / history / info /
replay_config / environment)."""
import copy
import json
import os
import subprocess
import time
from pathlib import Path

import yaml

from patch_formatter import PatchFormatter

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
SCRATCH = CORPUS.parent / "scratch-fleet"
TOOLS = SCRATCH / "swe-tools" / "tools"
VENV = SCRATCH / "venv"
ENV_FILE = SCRATCH / "swe-agent-env.json"
REPO_NAME = "acme-fleet__fleet-maintenance"

CFG = yaml.safe_load((BUILD / "07_thought_action.yaml").read_text())
BUNDLES = ["registry", "windowed", "search", "windowed_edit_linting", "submit"]


def command_docs():
    out = []
    for b in BUNDLES:
        cfg = yaml.safe_load((TOOLS / b / "config.yaml").read_text())
        for name, t in (cfg.get("tools") or {}).items():
            doc = t["docstring"].strip().replace("{WINDOW}", "100")
            sig = t["signature"].strip()
            s = f"{name}:\n  docstring: {doc}\n  signature: {sig}\n"
            if t.get("arguments"):
                s += "  arguments:\n"
                for a in t["arguments"]:
                    req = "required" if a.get("required") else "optional"
                    s += f"    - {a['name']} ({a['type']}) [{req}]: {a['description']}\n"
            out.append(s)
    return "\n".join(out)


def tool_env(repo):
    env = {
        "PATH": ":".join([str(TOOLS / b / "bin") for b in BUNDLES] + [str(VENV / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        "PYTHONPATH": f"{TOOLS / 'windowed' / 'lib'}:{TOOLS / 'registry' / 'lib'}",
        "SWE_AGENT_ENV_FILE": str(ENV_FILE),
        "ROOT": str(repo),
        "HOME": str(SCRATCH),
        "PYTHONDONTWRITEBYTECODE": "1",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "PAGER": "cat",
        "GIT_PAGER": "cat",
        "WINDOW": "100",
        "OVERLAP": "2",
    }
    return env


def reset_registry():
    ENV_FILE.write_text(json.dumps({"WINDOW": "100", "OVERLAP": "2", "FIRST_LINE": "0", "CURRENT_FILE": "",
                                    "CURRENT_LINE": "0", "SEARCH_RESULTS": "()", "SEARCH_FILES": "()",
                                    "SEARCH_INDEX": "0"}))


def state(repo):
    cur = json.loads(ENV_FILE.read_text()).get("CURRENT_FILE")
    return {"open_file": "n/a" if not cur else str(Path(cur).resolve()), "working_dir": str(repo)}


def run_action(action, repo):
    cmd = action.rstrip("\n")
    first, _, rest = cmd.partition("\n")
    if first.startswith("edit ") and rest.endswith("end_of_edit"):
        cmd = f"{first} << 'end_of_edit'\n{rest}"
    if cmd.strip() == "submit":
        cmd = "git add -A && git diff --cached"
    t0 = time.perf_counter()
    p = subprocess.run(["bash", "-c", cmd], cwd=repo, env=tool_env(repo), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.stdout, time.perf_counter() - t0


def record(spec, repo, out_path, base_commit):
    reset_registry()
    docs = command_docs()
    tpl = CFG["agent"]["templates"]
    fmt = lambda s, **kw: s.replace("{{", "{").replace("}}", "}").format(**kw)
    system = fmt(tpl["system_template"], WINDOW=100, command_docs=docs)
    st = state(repo)
    instance = fmt(tpl["instance_template"], problem_statement=spec["problem_statement"], **st)
    history = [
        {"role": "system", "content": system, "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": instance, "agent": "main", "message_type": "observation"},
    ]
    trajectory = []
    submission = None
    sent = len(system) + len(instance)
    total_sent = 0
    received = 0
    for thought, action in spec["steps"]:
        if callable(action):
            action = action(repo)
        thought = thought.strip() + "\n\n"
        action = action.strip("\n") + "\n"
        response = f"DISCUSSION\n{thought}```\n{action}```"
        total_sent += sent
        received += len(response)
        obs, dt = run_action(action, repo)
        obs = obs.rstrip("\n") if not action.startswith("submit") else obs
        if action.strip() == "submit":
            submission = obs
        st = state(repo)
        history.append({"role": "assistant", "content": response, "thought": "DISCUSSION\n" + thought,
                        "action": action, "agent": "main", "message_type": "action"})
        if obs.strip() == "":
            content = fmt(tpl["next_step_no_output_template"], **st)
        else:
            content = fmt(tpl["next_step_template"], observation=obs, **st)
        history.append({"role": "user", "content": content, "agent": "main", "message_type": "observation"})
        sent += len(response) + len(content)
        trajectory.append({"action": action, "observation": obs, "response": response,
                           "thought": "DISCUSSION\n" + thought, "execution_time": round(dt, 6), "state": st})
    info = {"submission": submission, "exit_status": "submitted" if submission is not None else None}
    for n in (30, 50, 70):
        val = "Empty. No edited files found."
        if submission:
            pf = PatchFormatter(submission, read_method=lambda p: (repo / p).read_text())
            val = pf.get_files_str(original=False, context_length=n)
        info[f"edited_files{n}"] = val
    api_calls = len(spec["steps"])
    info["model_stats"] = {"instance_cost": round(total_sent / 4 * 2.5e-6 + received / 4 * 1e-5, 6),
                           "tokens_sent": total_sent // 4, "tokens_received": received // 4,
                           "api_calls": api_calls}
    rc = json.loads((BUILD / "replay_template.json").read_text())
    rc["env"]["repo"] = {"github_url": "https://github.com/acme-fleet/fleet-maintenance", "base_commit": base_commit,
                         "clone_timeout": 500.0, "type": "github"}
    rc["env"]["deployment"]["image"] = "python:3.11"
    rc["agent"]["templates"]["system_template"] = tpl["system_template"].replace("{{", "{").replace("}}", "}")
    rc["agent"]["templates"]["instance_template"] = tpl["instance_template"].replace("{{", "{").replace("}}", "}")
    rc["agent"]["templates"]["demonstrations"] = []
    t = rc["agent"]["tools"]
    t["bundles"] = [{"path": f"tools/{b}", "hidden_tools": []} for b in BUNDLES]
    t["parse_function"] = {"error_message": "Your output was not formatted correctly. You must always include one discussion and one command as part of your response. Make sure you do not have multiple discussion/command tags.\nPlease make sure your output precisely matches the following format:\nDISCUSSION\nDiscuss here with yourself about what your planning and what you're going to do in this step.\n\n```\ncommand(s) that you're going to run\n```\n", "type": "thought_action"}
    t["enable_bash_tool"] = True
    t["command_docs"] = docs
    t["multi_line_command_endings"] = {"edit": "end_of_edit"}
    rc["problem_statement"] = {"text": spec["problem_statement"], "extra_fields": {}, "type": "text",
                               "id": spec["id"]}
    data = {"environment": "main", "trajectory": trajectory, "history": history, "info": info,
            "replay_config": rc}
    out_path.write_text(json.dumps(data, indent=2))
    return submission
