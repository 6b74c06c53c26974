"""Candidate ids relabelled by a seeded permutation, so that no id or order carries a signal.

Each run of a task shows its candidates in an order drawn from ``(seed, instance_id,
permutation)`` under fresh ids ``cand-1`` ... ``cand-k`` given in that order; the harness maps an
agent's choice back to the task's own candidate. ``permutation=None`` shows the task's own ids in
the task's own order (for inspecting one task by hand).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dreamer.models import content_hash
from evals.tasks import Candidate, Task


@dataclass(frozen=True)
class Relabelling:
    """The candidates as one run shows them, and the way back to the task's ids."""

    candidates: tuple[Candidate, ...]
    original: dict[str, str]
    """Shown id -> the task's candidate id."""
    permutation: int | None

    def back(self, shown_id: str | None) -> str | None:
        """The task's id of the shown candidate ``shown_id`` (None stays None)."""
        return None if shown_id is None else self.original.get(shown_id, shown_id)


def relabel(task: Task, permutation: int | None, seed: int = 0) -> Relabelling:
    """The candidates of ``task`` under permutation number ``permutation`` of run ``seed``."""
    if permutation is None:
        return Relabelling(task.candidates, {c.id: c.id for c in task.candidates}, None)
    rng = random.Random(content_hash([seed, task.instance_id, permutation]))
    order = rng.sample(list(task.candidates), len(task.candidates))
    shown = tuple(c.model_copy(update={"id": f"cand-{i}"}) for i, c in enumerate(order, start=1))
    return Relabelling(shown, {s.id: c.id for s, c in zip(shown, order, strict=True)},
                       permutation)


def gold_id(task: Task) -> str | None:
    """The id of the task's candidate whose patch is the gold patch (ends' whitespace ignored)."""
    gold = task.patch.strip()
    return next((c.id for c in task.candidates if c.patch.strip() == gold), None)
