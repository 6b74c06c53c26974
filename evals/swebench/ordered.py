"""Memory on real repositories, in time order (SWE-Bench-CL style).

One repository's rows are ordered by ``created_at``. Row *k* gets a pack drawn only from memories
whose evidence is sessions of rows 1..k-1: every session a memory cites must belong to one of
those rows (``Session.task_id`` is the row's ``instance_id``), and a memory citing no session
cannot show where it came from, so it is left out. The row is then attempted and graded like any
other (``evals.runner.run_task``, SWE-bench's grading for SWE-bench rows).

SWE-bench rows carry no candidate patches: the choosing agents (``selector``, ``none``) have
nothing to choose, return the empty patch (unresolved without running) and the table says so;
the ``llm`` agent writes the patch itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from dreamer.models import Bank, CitationKind, Memory, MemoryPack, Session
from evals.agents.base import Agent
from evals.errors import TaskLoadError
from evals.tasks import Task

CHOOSING_AGENTS = frozenset({"selector", "none"})


class OrderedRow(BaseModel):
    """One row's outcome in a time-ordered run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: int
    instance_id: str
    created_at: datetime | None
    earlier_sessions: int
    """Sessions of earlier rows the pack could draw on."""
    pack_memories: int
    pack_tokens: int
    status: str
    reason: str
    note: str = ""
    wall_s: float


def in_time_order(tasks: list[Task], repo: str | None = None) -> list[Task]:
    """The rows of one repository (``repo``, or the only one there is), oldest first."""
    repos = sorted({t.repo for t in tasks})
    chosen = repo or (repos[0] if len(repos) == 1 else None)
    if chosen is None:
        raise TaskLoadError(f"the suite holds {len(repos)} repositories ({', '.join(repos)}); "
                            "choose one with --repo")
    rows = [t for t in tasks if t.repo == chosen]
    if not rows:
        raise TaskLoadError(f"the suite holds no row of {chosen!r}")
    missing = [t.instance_id for t in rows if t.created_at is None]
    if missing:
        raise TaskLoadError(f"rows without created_at cannot be put in time order: {missing}")
    return sorted(rows, key=lambda t: (_utc(t.created_at), t.instance_id))  # type: ignore[arg-type]


def from_sessions(bank: Bank, sessions: Iterable[str]) -> Bank:
    """``bank`` with only the memories every session citation of which is in ``sessions``."""
    allowed = set(sessions)
    kept = tuple(m for m in bank.memories if _cited_sessions(m) and _cited_sessions(m) <= allowed)
    return Bank(repo=bank.repo, parent_id=bank.parent_id, origin=bank.origin, memories=kept)


def run_in_order(
    rows: list[Task], bank: Bank, sessions: list[Session], agent: Agent, agent_name: str,
    run_dir: Path, budget: int | None = 1024, timeout: float = 900.0,
    on_row: Callable[[OrderedRow], None] | None = None,
) -> list[OrderedRow]:
    """Attempt ``rows`` in order, each with the pack of memories from earlier rows' sessions."""
    from dreamer.router import pack as route
    from evals.runner import run_task

    by_task: dict[str, list[str]] = {}
    for session in sessions:
        if session.task_id:
            by_task.setdefault(session.task_id, []).append(session.id)
    out: list[OrderedRow] = []
    for position, task in enumerate(rows, start=1):
        started = time.monotonic()
        earlier = [s for t in rows[:position - 1] for s in by_task.get(t.instance_id, [])]
        source = from_sessions(bank, earlier)
        if budget == 0 or not source.active:
            pack = MemoryPack(query=task.problem_statement, budget=budget)
        else:
            pack = route(source, task.problem_statement, repo=task.repo, budget=budget)
        result = run_task(task, agent, pack, run_dir / f"{position:03d}", timeout)
        note = ""
        if not task.candidates and agent_name in CHOOSING_AGENTS:
            note = (f"no candidates: the {agent_name} agent has nothing to choose (empty patch); "
                    "use --agent llm to have a model write the patch")
        row = OrderedRow(
            position=position, instance_id=task.instance_id, created_at=task.created_at,
            earlier_sessions=len(earlier), pack_memories=len(pack.items),
            pack_tokens=pack.tokens, status=result.status, reason=result.reason, note=note,
            wall_s=round(time.monotonic() - started, 1),
        )
        out.append(row)
        if on_row:
            on_row(row)
    return out


def _cited_sessions(memory: Memory) -> set[str]:
    # A session citation's ref is ``<session id>:<event seq>``.
    return {c.ref.split(":", 1)[0] for c in memory.citations if c.kind is CitationKind.SESSION}


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
