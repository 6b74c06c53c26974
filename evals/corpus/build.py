"""``build_corpus``: repositories, validated tasks, noisy sessions, leak check, certification."""

from __future__ import annotations

import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamer.models import Memory
from evals.corpus.assemble import build_tasks, families_of, select, source_times, split
from evals.corpus.certify import Certificate, arms, certify
from evals.corpus.config import CorpusConfig
from evals.corpus.decorate import add_noise
from evals.corpus.errors import LeakError
from evals.corpus.memories import failure_memory, rule_memories
from evals.corpus.narrative import SessionRecord, SessionWriter
from evals.corpus.publish import publish
from evals.corpus.repos import repo_plans
from evals.corpus.timeline import RepoTimeline, build_timelines
from evals.corpus.validate import TaskTests, validate
from evals.leaks import LeakFinding, check_pack
from evals.tasks import RepoSource, Task


@dataclass(frozen=True)
class BuildReport:
    """What a build produced: the manifest and how long it took."""

    out: Path
    manifest: dict[str, Any]
    seconds: float


def _moves(timelines: list[RepoTimeline]) -> dict[str, dict[str, Any]]:
    moves: dict[str, dict[str, Any]] = {}
    for tl in timelines:
        for item in tl.items:
            if item.chore and item.chore.tag == "move" and item.result_commit:
                when = next(t for sha, t, _ in tl.commits if sha == item.result_commit)
                moves[tl.plan.name] = {"paths": dict(tl.moves), "at": when}
    return moves


def _pool(timelines: list[RepoTimeline], sessions: list[SessionRecord],
          tests: dict[str, TaskTests], oracles: dict[str, Memory]) -> list[Memory]:
    pool = list(oracles.values())
    for tl in timelines:
        items = [i for i in tl.items if i.kind == "task"]
        pool += [failure_memory(f, items, sessions, tests) for f in tl.plan.families]
    return pool + rule_memories(sessions)


def _absolute(task: Task, out: Path) -> Task:
    location = str((out / task.source.location).resolve())
    return task.model_copy(update={"source": RepoSource(kind="git", location=location)})


def _leaks(tasks: list[Task], pool: list[Memory], times: dict, seeds: int) -> list[LeakFinding]:
    findings: list[LeakFinding] = []
    for task in tasks:
        for _, pack in arms(task, pool, seeds):
            findings += check_pack(task, pack, times)
    return findings


def build_corpus(config: CorpusConfig) -> BuildReport:
    """Build the corpus that ``config`` describes into ``config.out`` (replacing it)."""
    started = time.monotonic()
    out = config.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    plans = select(repo_plans(config.cache.resolve()), config.families,
                   config.variants_per_family)
    timelines = build_timelines(plans, out / "repos")
    tests = validate(timelines, config.workers)
    rng = random.Random(config.seed)
    sessions = [s for tl in timelines for s in SessionWriter(tl, tests, rng).sessions()]
    add_noise(sessions, families_of(timelines), _moves(timelines), rng)
    all_tasks, oracles = build_tasks(timelines, tests, sessions, config.seed, bundles=False)
    evals = [t for t in all_tasks if getattr(t, "split", "eval") == "eval"]
    history = [t for t in all_tasks if getattr(t, "split", "eval") == "history"]
    pool = _pool(timelines, sessions, tests, oracles)
    leaks = _leaks(evals, pool, source_times(timelines, sessions), config.random_seeds)
    if leaks:
        raise LeakError("the corpus leaks:\n" + "\n".join(f.detail for f in leaks[:10]))
    certificates: dict[str, Certificate] = {}
    if config.certify:
        certificates = certify([_absolute(t, out) for t in evals], pool, out / "runs",
                               seeds=config.random_seeds, workers=config.workers,
                               timeout=config.timeout, permutations=config.permutations)
        evals = [t.model_copy(update={"certified": certificates[t.instance_id].certified})
                 for t in evals]
    if config.bundles:
        for tl in timelines:
            tl.repo.bundle(out / "repos" / f"{tl.plan.slug}.bundle")
            shutil.rmtree(tl.repo.path)
        evals = [_bundled(t) for t in evals]
        history = [_bundled(t) for t in history]
    meta = {"seed": config.seed, "permutations": config.permutations,
            "selection": {"families": list(config.families),
            "variants_per_family": config.variants_per_family},
            "repo_heads": {tl.plan.name: tl.commits[-1][0] for tl in timelines},
            "provenance": {tl.plan.name: {"kind": tl.plan.kind, "origin": tl.plan.origin,
                                          "license": tl.plan.license} for tl in timelines}}
    manifest = publish(out, evals, history, sessions, list(oracles.values()), pool,
                       split(all_tasks, sessions), leaks, certificates, meta)
    seconds = time.monotonic() - started
    (out / "build.json").write_text(f'{{"seconds": {seconds:.1f}}}\n')
    return BuildReport(out, manifest, seconds)


def _bundled(task: Task) -> Task:
    location = f"{task.source.location}.bundle"
    return task.model_copy(update={"source": RepoSource(kind="bundle", location=location)})
