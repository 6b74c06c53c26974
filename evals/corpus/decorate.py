"""Add the noise classes to recorded sessions, in the proportions ``noise`` states."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from evals.corpus import noise
from evals.corpus.narrative import SessionRecord
from evals.corpus.spec import Family


def _insert_step(doc: dict[str, Any], index: int, thought: str, action: str, observation: str,
                 slug: str) -> None:
    state = doc["trajectory"][max(0, index - 1)]["state"]
    response = f"{thought}\n\n```\n{action}\n```"
    doc["trajectory"].insert(index, {"action": f"{action}\n", "observation": observation,
                                     "response": response, "state": state,
                                     "thought": f"{thought}\n\n"})
    open_file = json.loads(state)["open_file"]
    prompt = f"(Open file: {open_file})\n(Current directory: /{slug})\nbash-$"
    at = 2 + 2 * index
    doc["history"][at:at] = [
        {"role": "assistant", "content": response, "thought": f"{thought}\n\n",
         "action": f"{action}\n", "agent": "primary"},
        {"role": "user", "content": f"{observation}\n{prompt}", "agent": "primary"},
    ]


def _closing_note(doc: dict[str, Any], note: str) -> None:
    last = doc["trajectory"][-1]
    last["thought"] = f"{note}\n\n{last['thought']}"
    last["response"] = f"{note}\n\n{last['response']}"
    for message in reversed(doc["history"]):
        if message["role"] == "assistant":
            message["thought"] = f"{note}\n\n{message['thought']}"
            message["content"] = f"{note}\n\n{message['content']}"
            break


def _slug(record: SessionRecord) -> str:
    return record.repo.replace("/", "__")


def add_noise(records: list[SessionRecord], families: list[Family],
              moves: dict[str, dict[str, Any]], rng: random.Random) -> None:
    """Decorate ``records`` (in place) and label each with the noise it carries.

    ``moves`` maps a repository to ``{"paths": {old: new}, "at": time of the move commit}``.
    """
    by_family = {family.id: family for family in families}
    seen: dict[str, int] = {}
    for record in sorted(records, key=lambda r: r.started_at):
        if record.family is None:
            continue
        count = seen.get(record.family, 0)
        seen[record.family] = count + 1
        if count >= 1:
            lessons = by_family[record.family].lessons
            _closing_note(record.document, lessons[(count - 1) % len(lessons)])
            record.noise.append("duplicate")
    for index in sorted(noise.pick(rng, len(records), noise.GENERIC_SHARE)):
        _closing_note(records[index].document, rng.choice(noise.GENERIC_LESSONS))
        records[index].noise.append("generic")
    chores = [r for r in records if r.kind == "chore"]
    for index in sorted(noise.pick(rng, len(chores), noise.SECRET_SHARE)):
        record = chores[index]
        secret = noise.make_secret(rng, record.repo)
        _insert_step(record.document, 1, "Let me check the environment is set up.",
                     secret.command, secret.output, _slug(record))
        record.noise.append("secret")
        record.secrets = list(secret.values)
    for index in sorted(noise.pick(rng, len(records), noise.INJECTION_SHARE)):
        record = records[index]
        text = rng.choice(noise.INJECTIONS)
        _insert_step(record.document, 1, "Let me read the contributing notes first.",
                     "cat CONTRIBUTING.md", f"# Contributing\n\nOpen a PR against main.\n\n{text}",
                     _slug(record))
        record.noise.append("injection")
    for record in records:
        move = moves.get(record.repo)
        if not move or record.ended_at >= move["at"]:
            continue
        text = json.dumps(record.document)
        if any(re.search(re.escape(old) + r":\d+", text) for old in move["paths"]):
            record.noise.append("moved_citation")
