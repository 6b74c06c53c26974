"""The leak check: a task's memory may come only from before it, and never carry its fix.

Two rules, checked for every memory in a task's pack:

1. **time**: every source a memory cites (a session, by trajectory instance id or ingest
   ``ses_`` id, or a commit sha) ended strictly before the task was opened, and so was the
   memory's own ``created_at``;
2. **gold**: no run of ``min_run`` consecutive words of the gold patch's added lines, and no
   whole added line of ``MIN_LINE`` words or more, appears in the pack's text. Naming the right
   function or constant is allowed; carrying the fix is not. A review or defect a memory cites
   is timed by the sessions it was seen in, which the memory also cites.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from dreamer.models import MemoryPack
from evals.agents.diffs import diff_stats
from evals.tasks import Task

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
MIN_RUN = 8
"""How many consecutive gold words make a leak. Words, not punctuation: eight tokens of
``db.update("orders",`` are boilerplate any earlier fix of the repository shares, while eight
identifiers in a row are the fix itself."""


def _utc(when: datetime | None) -> datetime | None:
    """Times without a zone are UTC: compare every time as an aware UTC time."""
    if when is None:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


class LeakFinding(BaseModel):
    """One leak: which task, which memory, which rule, and the evidence."""

    model_config = ConfigDict(frozen=True)

    task: str
    memory: str | None
    rule: Literal["time", "gold"]
    detail: str


def tokens(text: str) -> list[str]:
    """The tokens the gold rule compares: identifiers and numbers."""
    return _TOKEN.findall(text)


MIN_LINE = 4
"""A whole added line of the gold, if it has at least this many words, is a leak too: a short
line can be the entire fix."""


def gold_runs(patch: str, min_run: int = MIN_RUN) -> set[tuple[str, ...]]:
    """Every run of ``min_run`` consecutive words of the patch's added lines, read in order,
    and every whole added line of ``MIN_LINE`` words or more."""
    lines = [tokens(line) for line in diff_stats(patch).added]
    toks = [tok for line in lines for tok in line]
    runs = {tuple(toks[i:i + min_run]) for i in range(len(toks) - min_run + 1)}
    return runs | {tuple(line) for line in lines if MIN_LINE <= len(line) < min_run}


def find_gold_run(text: str, runs: set[tuple[str, ...]], min_run: int = MIN_RUN) -> str | None:
    """The first run of ``runs`` found in ``text``, joined; None when there is none."""
    toks = tokens(text)
    for size in sorted({len(run) for run in runs}, reverse=True):
        for i in range(len(toks) - size + 1):
            window = tuple(toks[i:i + size])
            if window in runs:
                return " ".join(window)
    return None


def check_pack(task: Task, pack: MemoryPack, source_times: Mapping[str, datetime],
               min_run: int = MIN_RUN) -> list[LeakFinding]:
    """Leaks of ``pack`` for ``task``. ``source_times`` maps a session or commit ref to when it
    ended; a cited ref missing from it is reported, since its time cannot be shown to be earlier."""
    findings: list[LeakFinding] = []
    opened = _utc(task.created_at)
    for item in pack.items:
        memory = item.memory
        created = _utc(memory.created_at)
        seen_in_sessions = any(c.kind.value == "session" for c in memory.citations)
        if opened and created and created >= opened:
            findings.append(LeakFinding(task=task.instance_id, memory=memory.id, rule="time",
                                        detail=f"memory created {memory.created_at} >= task "
                                               f"opened {opened}"))
        for cite in memory.citations:
            if cite.kind.value in ("test", "file"):
                continue
            if cite.kind.value in ("review", "defect") and seen_in_sessions:
                continue  # known from the cited sessions, whose times are checked
            when = _utc(source_times.get(cite.ref) or source_times.get(cite.ref.split(":", 1)[0]))
            if when is None:
                findings.append(LeakFinding(task=task.instance_id, memory=memory.id, rule="time",
                                            detail=f"cited {cite.kind.value} {cite.ref} has no "
                                                   "known time"))
            elif opened and when >= opened:
                findings.append(LeakFinding(task=task.instance_id, memory=memory.id, rule="time",
                                            detail=f"cited {cite.kind.value} {cite.ref} ended "
                                                   f"{when} >= task opened {opened}"))
    runs = gold_runs(task.patch, min_run)
    texts = [(item.memory.id, item.memory.summary + " " + " ".join(item.memory.conditions))
             for item in pack.items] + [(None, pack.text)]
    for memory_id, text in texts:
        run = find_gold_run(text, runs, min_run)
        if run:
            findings.append(LeakFinding(task=task.instance_id, memory=memory_id, rule="gold",
                                        detail=f"carries the gold's added tokens: {run!r}"))
    return findings


def check_packs(tasks: Iterable[Task], packs: Mapping[str, MemoryPack],
                source_times: Mapping[str, datetime]) -> list[LeakFinding]:
    """Leaks of every task's pack (tasks without a pack have nothing to leak)."""
    findings: list[LeakFinding] = []
    for task in tasks:
        if task.instance_id in packs:
            findings += check_pack(task, packs[task.instance_id], source_times)
    return findings
