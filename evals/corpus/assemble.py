"""Turn built timelines into the corpus's records: tasks (with candidates and oracle memories),
the time split, and the index of when every source (session, commit) existed."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime
from typing import Any

from dreamer.models import Memory
from evals.corpus.errors import CorpusValidationError
from evals.corpus.memories import oracle_memory
from evals.corpus.narrative import SessionRecord
from evals.corpus.sizes import check_descriptions, neutral_description
from evals.corpus.spec import Family, RepoPlan
from evals.corpus.timeline import RepoTimeline, WorkItem
from evals.corpus.validate import TaskTests
from evals.tasks import Candidate, RepoSource, Task

SPLIT_RULE = ("A task may use memory only from sessions that ended strictly before the task was "
              "opened (created_at), and never from the task itself or anything later.")


def select(plans: tuple[RepoPlan, ...], families: tuple[str, ...],
           per_family: int | None) -> tuple[RepoPlan, ...]:
    """The plans restricted to ``families`` (all when empty), each cut to ``per_family`` tasks."""
    chosen = []
    for plan in plans:
        kept = tuple(
            replace(f, variants=f.variants[:per_family] if per_family else f.variants)
            for f in plan.families if not families or f.id in families)
        if kept:
            chosen.append(replace(plan, families=kept))
    return tuple(chosen)


def _candidates(item: WorkItem, seed: int) -> tuple[Candidate, ...]:
    """The gold and its decoys, shuffled, each described by its size alone."""
    assert item.rendered is not None and item.family is not None
    patches = [item.gold_patch, *item.decoy_patches]
    random.Random(f"{seed}:{item.instance_id}").shuffle(patches)
    candidates = tuple(Candidate(id=f"cand-{i + 1}", patch=patch,
                                 description=neutral_description(patch))
                       for i, patch in enumerate(patches))
    carried = check_descriptions([c.description for c in candidates], item.family.identifiers)
    if carried:
        raise CorpusValidationError(f"{item.instance_id}: a candidate description names the "
                                    f"fact: {carried}")
    return candidates


def make_task(item: WorkItem, tests: TaskTests, oracle: Memory, source: RepoSource,
              seed: int, test_command: str | None) -> Task:
    """The harness's task for ``item``; ``oracle_memories`` and ``split`` are extra fields."""
    assert item.variant and item.family
    fields: dict[str, Any] = dict(
        instance_id=item.instance_id, repo=item.repo.name, base_commit=item.base_commit,
        patch=item.gold_patch, test_patch=item.test_patch,
        problem_statement=f"{item.variant.title}\n\n{item.variant.problem}",
        hints_text=item.variant.hint, FAIL_TO_PASS=tests.fail_to_pass,
        PASS_TO_PASS=tests.pass_to_pass, created_at=item.at, version="1.0",
        source=source, family=item.family.id, position=item.position,
        candidates=_candidates(item, seed), test_command=test_command, certified=None,
        oracle_memories=(oracle.model_dump(mode="json"),),
        split="history" if item.history else "eval",
    )
    return Task(**fields)


def build_tasks(timelines: list[RepoTimeline], tests: dict[str, TaskTests],
                sessions: list[SessionRecord], seed: int,
                bundles: bool) -> tuple[list[Task], dict[str, Memory]]:
    """Every task of the corpus (history and evaluation) and each family's oracle memory."""
    tasks: list[Task] = []
    oracles: dict[str, Memory] = {}
    for tl in timelines:
        items = [i for i in tl.items if i.kind == "task"]
        location = f"repos/{tl.plan.slug}.bundle" if bundles else f"repos/{tl.plan.slug}"
        source = RepoSource(kind="bundle" if bundles else "git", location=location)
        for family in tl.plan.families:
            oracles[family.id] = oracle_memory(family, items, sessions, tests)
        for item in items:
            assert item.family is not None
            tasks.append(make_task(item, tests[item.instance_id], oracles[item.family.id],
                                   source, seed, tl.plan.test_command))
    return tasks, oracles


def source_times(timelines: list[RepoTimeline],
                 sessions: list[SessionRecord]) -> dict[str, datetime]:
    """When every citable source existed: sessions (trajectory and ingest ids) and commits."""
    from dreamer.models import Session

    times: dict[str, datetime] = {sha: when for tl in timelines for sha, when, _ in tl.commits}
    for record in sessions:
        times[record.instance_id] = record.ended_at
        times[Session.make_id(record.sha256, 0)] = record.ended_at
    return times


def split(tasks: list[Task], sessions: list[SessionRecord]) -> dict[str, object]:
    """The time split: for each task, the sessions its memory may come from."""
    entries = {}
    for task in tasks:
        assert task.created_at is not None
        allowed = sorted(r.instance_id for r in sessions
                         if r.repo == task.repo and r.ended_at < task.created_at)
        entries[task.instance_id] = {"created_at": task.created_at.isoformat(),
                                     "role": getattr(task, "split", "eval"),
                                     "allowed_sessions": allowed}
    return {"rule": SPLIT_RULE, "tasks": entries}


def families_of(timelines: list[RepoTimeline]) -> list[Family]:
    return [family for tl in timelines for family in tl.plan.families]
