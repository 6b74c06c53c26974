"""Validate every task by running its tests: the bug is caught, the gold fixes it, decoys fail.

FAIL_TO_PASS and PASS_TO_PASS come from these runs, never from the templates' intentions: a
test is FAIL_TO_PASS when it fails at the base (with the test patch) and passes with the gold,
PASS_TO_PASS when it passes in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from evals.corpus.errors import CorpusValidationError
from evals.corpus.testrun import TestJob, TestRun, run_jobs
from evals.corpus.timeline import RepoTimeline, WorkItem


@dataclass(frozen=True)
class TaskTests:
    """A task's graded tests and the runs they came from."""

    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...]
    runs: dict[str, TestRun]
    """``base``, ``gold``, ``decoy0``..., and ``decoy0-visible`` for sessions that need it."""


def jobs_for(timeline: RepoTimeline, item: WorkItem) -> list[TestJob]:
    """The runs that validate ``item`` (and give its session real output)."""
    assert item.rendered is not None
    path, slug = str(timeline.repo.path), timeline.plan.slug
    files = item.rendered.test_files
    key = item.instance_id

    def job(name: str, *patches: str) -> TestJob:
        return TestJob(key=f"{key}/{name}", repo_path=path, slug=slug, base=item.base_commit,
                       patches=patches, test_files=files)

    jobs = [job("base", item.test_patch), job("gold", item.gold_patch, item.test_patch)]
    jobs += [job(f"decoy{i}", decoy, item.test_patch) for i, decoy in enumerate(item.decoy_patches)]
    if item.history and item.evidence != "test":
        hidden = set(item.rendered.hidden_tests)
        visible = tuple(f for f in files if f not in hidden)
        jobs.append(TestJob(key=f"{key}/decoy0-visible", repo_path=path, slug=slug,
                            base=item.base_commit, patches=(item.decoy_patches[0],),
                            test_files=visible))
    return jobs


def _graded(base: TestRun, gold: TestRun) -> tuple[tuple[str, ...], tuple[str, ...]]:
    f2p = sorted(t for t, o in gold.outcomes.items()
                 if o == "passed" and base.outcomes.get(t) != "passed")
    p2p = sorted(t for t, o in gold.outcomes.items()
                 if o == "passed" and base.outcomes.get(t) == "passed")
    return tuple(f2p), tuple(p2p)


def check_item(item: WorkItem, runs: dict[str, TestRun]) -> tuple[TaskTests, list[str]]:
    """Grade one task from its runs; return its tests and what is wrong with it (if anything)."""
    key = item.instance_id
    mine = {name.split("/", 1)[1]: run for name, run in runs.items()
            if name.split("/", 1)[0] == key}
    f2p, p2p = _graded(mine["base"], mine["gold"])
    problems = []
    if not f2p:
        problems.append(f"{key}: no test fails at the base and passes with the gold")
    failing_gold = [t for t, o in mine["gold"].outcomes.items() if o in ("failed", "error")]
    if failing_gold:
        problems.append(f"{key}: the gold leaves tests failing: {failing_gold[:3]}")
    graded = set(f2p) | set(p2p)
    for name, run in mine.items():
        if name.startswith("decoy") and not name.endswith("visible"):
            if all(run.outcomes.get(t) == "passed" for t in graded):
                problems.append(f"{key}: {name} passes every graded test")
    return TaskTests(f2p, p2p, mine), problems


def validate(timelines: list[RepoTimeline], workers: int) -> dict[str, TaskTests]:
    """Run and grade every task of ``timelines``; raise if any task is not as designed."""
    jobs = [job for tl in timelines for item in tl.items if item.kind == "task"
            for job in jobs_for(tl, item)]
    runs = run_jobs(jobs, workers)
    results: dict[str, TaskTests] = {}
    problems: list[str] = []
    for tl in timelines:
        for item in tl.items:
            if item.kind == "task":
                results[item.instance_id], found = check_item(item, runs)
                problems += found
    if problems:
        raise CorpusValidationError("tasks not as designed:\n" + "\n".join(problems))
    return results
