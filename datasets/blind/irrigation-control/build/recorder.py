"""Record one session with mini-swe-agent 1.17.5's own code.

Run with the venv python that has mini-swe-agent==1.17.5, litellm==1.81.3, pytest==9.0.2:

    python recorder.py <session-name> <output.traj.json>

It reproduces what `mini -y -m anthropic/claude-sonnet-4-5-20250929 -o OUT -t TASK` does
(src/minisweagent/run/mini.py at v1.17.5): mini.yaml, get_model, LocalEnvironment,
InteractiveAgent (yolo), save_traj. The only stand-ins are (1) the Anthropic HTTP endpoint,
replaced by an httpx MockTransport that answers with the scripted assistant turns written by
hand in sessions.py (so litellm builds its real ModelResponse and real cost), (2) the human at
the "Agent wants to finish" prompt, whose scripted replies are the reviewer's comments, and
(3) the wall clock, shifted to the session's recorded date. Every command is really executed
by LocalEnvironment in the checkout (the current working directory).
"""

import hashlib
import json
import os
import random
import sys
import time
from datetime import datetime
from pathlib import Path

_real_time = time.time
_real_perf = time.perf_counter


class VirtualClock:
    def __init__(self):
        self.offset = 0.0

    def start_at(self, epoch):
        self.offset = epoch - _real_time()

    def advance(self, seconds):
        self.offset += seconds

    def __call__(self):
        return _real_time() + self.offset


CLOCK = VirtualClock()
time.time = CLOCK

import platform  # noqa: E402

# The developer's dev container (rendered into <system_information> by mini.yaml), instead of
# the recording machine's kernel string.
_UNAME = platform.uname_result("Linux", "irrigation-dev", "6.10.14-linuxkit", "#1 SMP Fri Nov 29 17:22:03 UTC 2024", "x86_64")
platform.uname = lambda: _UNAME

import httpx  # noqa: E402
import yaml  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402
from minisweagent.agents.interactive import InteractiveAgent  # noqa: E402
from minisweagent.config import builtin_config_dir  # noqa: E402
from minisweagent.environments.local import LocalEnvironment  # noqa: E402
from minisweagent.models import get_model  # noqa: E402
from minisweagent.run.utils.save import save_traj  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sessions import SESSIONS  # noqa: E402

MODEL_NAME = "anthropic/claude-sonnet-4-5-20250929"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _tokens(chars):
    return max(1, int(chars / 3.6))


class ScriptedAnthropic:
    """Answers the Messages API with the next hand-written assistant turn."""

    def __init__(self, name, turns):
        self.turns = list(turns)
        self.rng = random.Random(hashlib.sha256(name.encode()).hexdigest())
        self.prev_prompt = 0

    def __call__(self, request):
        body = json.loads(request.content)
        chars = 0
        for block in body.get("system") or []:
            chars += len(block.get("text", "")) if isinstance(block, dict) else len(str(block))
        for message in body["messages"]:
            content = message["content"]
            if isinstance(content, str):
                chars += len(content)
            else:
                chars += sum(len(part.get("text", "")) for part in content)
        if not self.turns:
            raise RuntimeError("script exhausted")
        text = self.turns.pop(0)
        prompt = _tokens(chars)
        uncached = self.rng.randint(1, 6)
        read = self.prev_prompt if self.prev_prompt and self.prev_prompt < prompt else 0
        created = max(0, prompt - read - uncached)
        self.prev_prompt = prompt
        out = _tokens(len(text)) + self.rng.randint(2, 12)
        CLOCK.advance(1.8 + out / 62.0 + self.rng.uniform(0.4, 3.5))
        payload = {
            "id": "msg_01" + "".join(self.rng.choice(B62) for _ in range(22)),
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": uncached,
                "cache_creation_input_tokens": created,
                "cache_read_input_tokens": read,
                "cache_creation": {"ephemeral_5m_input_tokens": created, "ephemeral_1h_input_tokens": 0},
                "output_tokens": out,
                "service_tier": "standard",
            },
        }
        return httpx.Response(200, json=payload, headers={"content-type": "application/json"})


def record(name, output):
    spec = SESSIONS[name]
    CLOCK.start_at(datetime.fromisoformat(spec["start"]).timestamp())

    # what `mini` (run/mini.py) does
    config = yaml.safe_load((builtin_config_dir / "mini.yaml").read_text())
    config.setdefault("agent", {})["mode"] = "yolo"  # -y
    model = get_model(MODEL_NAME, config.get("model", {}))
    env = LocalEnvironment(**config.get("environment", {}))
    agent = InteractiveAgent(model, env, **config.get("agent", {}))

    # the endpoint: litellm talks to a mock transport that returns the scripted turns
    client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(ScriptedAnthropic(name, spec["turns"]))))
    original_query = model._query
    model._query = lambda messages, **kw: original_query(messages, client=client, api_key="sk-ant-replay", **kw)

    # the human at the exit prompt
    replies = list(spec.get("exit_replies", []))

    def human(prompt):
        reply = replies.pop(0) if replies else ""
        CLOCK.advance(spec.get("human_delay", 45) if reply else 6)
        return reply

    agent._prompt_and_handle_special = human

    exit_status, result, extra_info = None, None, None
    try:
        exit_status, result = agent.run(spec["task"])
    except Exception as e:  # same as mini.py
        import traceback

        exit_status, result = type(e).__name__, str(e)
        extra_info = {"traceback": traceback.format_exc()}
    finally:
        save_traj(agent, Path(output), exit_status=exit_status, result=result, extra_info=extra_info)
    if exit_status != "Submitted":
        raise SystemExit(f"{name}: exit status {exit_status}: {result}")


if __name__ == "__main__":
    record(sys.argv[1], sys.argv[2])
