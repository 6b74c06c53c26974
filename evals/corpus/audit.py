"""Audit a built corpus for leaks, from its files alone (no rebuild)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from dreamer.models import MemoryPack
from evals.corpus.certify import oracle_pack
from evals.corpus.info import commit_times, session_times
from evals.leaks import LeakFinding, check_pack
from evals.tasks import Task


def load_corpus_tasks(folder: Path) -> list[Task]:
    """The evaluation tasks of a corpus, as stored (repository locations left relative)."""
    lines = (folder / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    return [Task.model_validate(json.loads(line)) for line in lines if line]


def source_index(folder: Path) -> dict[str, datetime]:
    """When every citable source of the corpus ended: sessions and commits."""
    return {**commit_times(folder), **session_times(folder)}


def audit_corpus(folder: Path, packs: Mapping[str, MemoryPack] | None = None) -> list[LeakFinding]:
    """Leaks of ``packs`` (default: each task's oracle pack) against the corpus's time split."""
    times = source_index(folder)
    findings: list[LeakFinding] = []
    for task in load_corpus_tasks(folder):
        pack = packs.get(task.instance_id) if packs is not None else oracle_pack(task)
        if pack is not None:
            findings += check_pack(task, pack, times)
    return findings
