"""Grow each repository through time: features with their bugs, past fixes, chores, open tasks.

Every repository is one timeline. Family variants are laid out round-robin (one variant of each
family per step), chores are spread between the steps, and each piece of work gets the next
issue number of its repository. The earliest variants of a family are *history*: they happened,
a session recorded them and their fix is on ``main``. The later ones are the evaluation tasks:
their base is a real commit of the history and their fix is never merged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from evals.corpus.gitrepo import GitRepo
from evals.corpus.sizes import RankDealer
from evals.corpus.spec import Chore, EvidenceKind, Family, Rendered, RepoPlan, Variant

QA_AUTHOR = "QA Bot <qa@acme.example>"


@dataclass
class WorkItem:
    """One piece of work in a repository's history: a task of a family, or a chore."""

    repo: RepoPlan
    number: int
    kind: Literal["task", "chore"]
    at: datetime
    """When the work was opened (a task's ``created_at``; a session's start)."""
    base_commit: str
    family: Family | None = None
    variant: Variant | None = None
    position: int | None = None
    """1-based order of the task within its family."""
    history: bool = False
    evidence: EvidenceKind | None = None
    chore: Chore | None = None
    rendered: Rendered | None = None
    gold_patch: str = ""
    decoy_patches: tuple[str, ...] = ()
    test_patch: str = ""
    result_commit: str | None = None
    """The commit the work produced on main (a merged fix, a chore), if any."""
    followup_number: int | None = None
    """Review and defect stories end in a second session (addressing them) with its own number."""
    followup_at: datetime | None = None
    view: dict[str, str] = field(default_factory=dict)
    """Contents of the files the session looks at, as they were at the base."""

    @property
    def instance_id(self) -> str:
        return f"{self.repo.slug}-{self.number}"

    @property
    def has_session(self) -> bool:
        return self.kind == "chore" or self.history


@dataclass
class RepoTimeline:
    """A built repository and its work items in time order."""

    plan: RepoPlan
    repo: GitRepo
    items: list[WorkItem]
    commits: list[tuple[str, datetime, str]]
    """(sha, time, subject) of every commit on main, oldest first."""
    moves: dict[str, str]
    """Old path -> new path for files moved during the history."""


def _view(files: dict[str, str], paths: tuple[str, ...] | list[str]) -> dict[str, str]:
    return {path: files[path] for path in paths if path in files}


class TimelineBuilder:
    """Builds one repository's git history and its work items."""

    def __init__(self, plan: RepoPlan, root: Path) -> None:
        self.plan = plan
        self.repo = GitRepo(root / plan.slug, plan.name)
        self.now = datetime.fromisoformat(plan.start).replace(hour=9)
        self.number = 0
        self.items: list[WorkItem] = []
        self.commits: list[tuple[str, datetime, str]] = []
        self.moves: dict[str, str] = {}
        self.dealers: dict[str, RankDealer] = {}

    def _tick(self, hours: float) -> datetime:
        self.now += timedelta(hours=hours)
        return self.now

    def _next_number(self) -> int:
        self.number += 1
        return self.number

    def _commit(self, changes: dict[str, str | None], message: str, author: str) -> str:
        when = self._tick(1)
        sha = self.repo.commit(changes, message, author, when)
        self.commits.append((sha, when, message))
        return sha

    def build(self) -> RepoTimeline:
        """Write the repository and return its timeline."""
        self._commit(dict(self.plan.scaffold()), "Initial import", self.plan.authors[0])
        steps = max(len(family.variants) for family in self.plan.families)
        chores = list(self.plan.chores)
        per_step: dict[int, list[Chore]] = {step: [] for step in range(steps)}
        for i, chore in enumerate(chores):
            per_step[min(steps - 1, (i * steps) // len(chores))].append(chore)
        for step in range(steps):
            for family in self.plan.families:
                if step < len(family.variants):
                    self._task(family, step)
            for chore in per_step[step]:
                self._chore(chore)
        return RepoTimeline(self.plan, self.repo, self.items, self.commits, self.moves)

    def _task(self, family: Family, step: int) -> None:
        variant = family.variants[step]
        author = self.plan.authors[step % len(self.plan.authors)]
        rendered = variant.render(dict(self.repo.files))
        history = step < family.history
        evidence = family.evidence[step] if history else None
        if family.side_branch:
            base = self.repo.side_commit(f"bug/{variant.key}", rendered.site, variant.site_message,
                                         author, self._tick(2))
        elif rendered.site:
            base = self._commit(dict(rendered.site), variant.site_message, author)
        else:
            base = self.repo.head
        if history and evidence == "test" and not family.side_branch:
            base = self._commit(dict(rendered.hidden_tests),
                                f"test: contract check for {variant.key} (currently red)",
                                QA_AUTHOR)
        files_at_base = {**self.repo.files, **{k: v for k, v in rendered.site.items() if v}}
        if history and evidence == "test" and not family.side_branch:
            test_patch = ""
        else:
            test_patch = self.repo.patch(base, rendered.hidden_tests)
        gold, decoys = rendered.gold, tuple(d.changes for d in rendered.decoys)
        if not history:
            # Size carries no signal: writings spread the gold's code-size rank over the family.
            k = 1 + len(decoys)
            dealer = self.dealers.setdefault(f"{family.id}/{k}", RankDealer(family.id, k,
                                                                            family.id))
            gold, decoys = dealer.deal(
                [(gold, *rendered.gold_forms), *(d.writings for d in rendered.decoys)],
                lambda changes: self.repo.patch(base, changes), f"{family.id}/{variant.key}")
        item = WorkItem(
            repo=self.plan, number=self._next_number(), kind="task", at=self._tick(20),
            base_commit=base, family=family, variant=variant, position=step + 1,
            history=history, evidence=evidence, rendered=rendered,
            gold_patch=self.repo.patch(base, gold),
            decoy_patches=tuple(self.repo.patch(base, d) for d in decoys),
            test_patch=test_patch,
            view=_view(files_at_base, [rendered.edit_path, *(
                family.explore if rendered.explore is None else rendered.explore)]),
        )
        self.items.append(item)
        if history:
            if evidence in ("review", "defect"):
                item.followup_number = self._next_number()
                item.followup_at = self._tick(6)
            self._tick(3)
            fix = dict(rendered.gold) if not family.side_branch else {}
            if evidence != "test" or family.side_branch:
                fix.update(rendered.hidden_tests)
            item.result_commit = self._commit(
                fix, f"fix: {variant.title[0].lower()}{variant.title[1:]} (#{item.number})",
                author)

    def _chore(self, chore: Chore) -> None:
        author = self.plan.authors[self.number % len(self.plan.authors)]
        base = self.repo.head
        item = WorkItem(repo=self.plan, number=self._next_number(), kind="chore",
                        at=self._tick(10), base_commit=base, chore=chore,
                        view=_view(self.repo.files, chore.explore))
        before = dict(self.repo.files)
        changes = dict(chore.changes(before))
        if changes:
            item.gold_patch = self.repo.patch(base, changes)
            self._tick(2)
            item.result_commit = self._commit(changes, f"{chore.message} (#{item.number})", author)
        if chore.tag == "move":
            gone = [path for path, content in changes.items() if content is None]
            new = [path for path, content in changes.items() if content and path not in before]
            self.moves.update(zip(gone, new, strict=True))
        self.items.append(item)


def build_timelines(plans: tuple[RepoPlan, ...], root: Path) -> list[RepoTimeline]:
    """Build every repository of ``plans`` under ``root``."""
    return [TimelineBuilder(plan, root).build() for plan in plans]
