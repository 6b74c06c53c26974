"""Audit a built corpus for leaks, from its files alone (no rebuild)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from dreamer.models import Bank, MemoryPack
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


def audit_banks(folder: Path, refs: Sequence[str],
                budgets: Sequence[int | None]) -> list[tuple[str, LeakFinding]]:
    """Leaks of the packs each bank would hand the corpus's tasks at ``budgets``, checked with
    the store's session times and the corpus's (the harness's check, ``evals.leaks``). A ref
    ``stored`` means every bank alias the store holds for the corpus's repositories."""
    from dreamer.sources import SourceTimes
    from dreamer.store import open_store
    from evals.metrics import budget_label
    from evals.packs import task_pack
    from evals.tasks import load_tasks

    store = open_store()
    tasks = load_tasks(folder)
    times = SourceTimes(store, folder)
    repos = {t.repo for t in tasks}
    banks: dict[str, Bank] = {}
    for ref in refs:
        if ref == "stored":
            for repo, name, bank_id, _ in store.banks.aliases():
                if repo in repos:
                    banks[f"{name}:{repo}"] = store.banks.get(bank_id)
        else:
            banks[ref] = store.banks.resolve(ref)
    findings: list[tuple[str, LeakFinding]] = []
    for name, bank in banks.items():
        for task in tasks:
            if bank.repo not in (None, task.repo):
                continue
            for budget in budgets:
                pack = task_pack(bank, task, budget)
                findings += [(f"{name}@{budget_label(budget)}", f)
                             for f in check_pack(task, pack, times)]
    return findings
