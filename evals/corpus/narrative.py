"""The recorded sessions: what happened in each past task and chore, as SWE-agent trajectories.

A family's first past task is found through a failing test; the next ones go through a naive
fix that is merged for review or shipped, then a reviewer's comment or a QA defect, and a second
session that fixes it. Test output in the sessions is the real output of the builder's runs.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from evals.corpus.testrun import TestRun
from evals.corpus.timeline import RepoTimeline, WorkItem
from evals.corpus.trajectory import TrajectoryWriter, numbered
from evals.corpus.validate import TaskTests

RULE_STATEMENTS = {
    ("acme/shop-orders", "rule_old"): "List endpoints page at 50 orders (PAGE_SIZE = 50 in "
    "shop/config.py); the mobile app's infinite scroll assumes pages of 50, keep it that way.",
    ("acme/shop-orders", "rule_new"): "Pages are 100 orders now (PAGE_SIZE = 100 in "
    "shop/config.py); the app team asked for 100, anything assuming 50 is wrong.",
    ("acme/billing-api", "rule_old"): "PayGate calls must send API version 2023-10-01 "
    "(API_VERSION in billing/gateway.py); the 2024 version changes refund payloads, don't bump it.",
    ("acme/billing-api", "rule_new"): "We are on PayGate API version 2024-06-01 (API_VERSION in "
    "billing/gateway.py); the old 2023-10-01 payloads are rejected for new webhooks.",
}


@dataclass
class SessionRecord:
    """One recorded session: where its file is and what the builder knows about it."""

    instance_id: str
    repo: str
    kind: str
    """``history`` (a past task's first session), ``followup`` (addressing review/defect) or
    ``chore``."""
    started_at: datetime
    ended_at: datetime
    commit_start: str
    commit_end: str | None
    task: str | None = None
    family: str | None = None
    evidence: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    document: dict[str, Any] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return f"sessions/{self.instance_id}.traj"

    def raw(self) -> bytes:
        # SWE-agent records no wall-clock times; the session's times go in ``info`` (read by
        # dreamer's SWE-agent adapter), so memories know when their evidence happened.
        info = {**self.document.get("info", {}),
                "started_at": f"{self.started_at.isoformat()}+00:00",
                "ended_at": f"{self.ended_at.isoformat()}+00:00"}
        document = {**self.document, "info": info}
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.raw()).hexdigest()


def _git_log(writer: TrajectoryWriter, sha: str, when: datetime, subject: str) -> None:
    writer.step("Let me check where the branch is before I start.",
                "git log -1 --format='%H %ad %s' --date=iso",
                f"{sha} {when:%Y-%m-%d %H:%M:%S} +0000 {subject}")


def _pytest(writer: TrajectoryWriter, run: TestRun, files: tuple[str, ...], thought: str) -> None:
    writer.step(thought, f"python -m pytest -rA {' '.join(files)}", run.output.rstrip())


def _open(writer: TrajectoryWriter, item: WorkItem, path: str, thought: str) -> None:
    if path in item.view:
        writer.step(thought, f"open {path}", numbered(path, item.view[path], item.repo.slug),
                    open_file=path)


def _fix(writer: TrajectoryWriter, item: WorkItem, thought: str) -> None:
    """The passing fix: an edit, or a command that generates it (then the diff it left)."""
    assert item.rendered is not None
    command = item.rendered.fix_command
    if command is None:
        writer.step(thought, f"edit {item.rendered.edit_path}", item.gold_patch)
        return
    writer.step(thought, command[0], command[1])
    writer.step("Let me check what that changed.", "git diff", item.gold_patch)


def _subject(tl: RepoTimeline, sha: str) -> str:
    return next((s for c, _, s in tl.commits if c == sha), "bug branch")


class SessionWriter:
    """Builds every session of a repository timeline."""

    def __init__(self, tl: RepoTimeline, tests: dict[str, TaskTests], rng: random.Random) -> None:
        self.tl = tl
        self.tests = tests
        self.rng = rng

    def sessions(self) -> list[SessionRecord]:
        records: list[SessionRecord] = []
        for item in self.tl.items:
            if item.kind == "chore":
                records.append(self._chore(item))
            elif item.history:
                records += self._history(item)
        return records

    # ----------------------------------------------------------------- tasks

    def _history(self, item: WorkItem) -> list[SessionRecord]:
        assert item.variant and item.rendered and item.family
        runs = self.tests[item.instance_id].runs
        slug, rendered = item.repo.slug, item.rendered
        files = rendered.test_files
        writer = TrajectoryWriter(slug, f"{item.variant.title}\n\n{item.variant.problem}")
        _git_log(writer, item.base_commit, item.at, _subject(self.tl, item.base_commit))
        _open(writer, item, rendered.edit_path, "Let me look at the code the issue is about.")
        decoy = rendered.decoys[0]
        record = SessionRecord(item.instance_id, item.repo.name, "history", item.at,
                               item.at + timedelta(hours=2), item.base_commit, None,
                               task=item.instance_id, family=item.family.id)
        if item.evidence == "test":
            if item.test_patch:
                writer.step("I'll add regression tests that reproduce the report first.",
                            f"create {next(iter(rendered.hidden_tests))}", "[File created]")
            _pytest(writer, runs["base"], files, "Let me run the tests to see the failure.")
            writer.step(f"I think the fix is to {decoy.description}.", f"edit {rendered.edit_path}",
                        item.decoy_patches[0])
            _pytest(writer, runs["decoy0"], files, "Run the tests again.")
            for path in list(item.view)[1:]:
                _open(writer, item, path, f"Still failing. Let me look at {path} "
                      f"({path}:1) to understand what is expected.")
            _fix(writer, item, f"Now I see. I'll {rendered.gold_description}.")
            _pytest(writer, runs["gold"], files, "And the tests once more.")
            record.evidence = ["test"]
            record.commit_end = item.result_commit
            document = writer.render(item.test_patch + item.gold_patch, "submitted", item.number)
            record.document = document
            return [record]
        visible = tuple(f for f in files if f not in rendered.hidden_tests)
        writer.step(f"The simplest fix is to {decoy.description}.", f"edit {rendered.edit_path}",
                    item.decoy_patches[0])
        _pytest(writer, runs["decoy0-visible"], visible, "Let me make sure nothing else broke.")
        writer.step("Tests pass. Submitting.", "submit", "")
        record.document = writer.render(item.decoy_patches[0], "submitted", item.number)
        return [record, self._followup(item)]

    def _followup(self, item: WorkItem) -> SessionRecord:
        assert item.variant and item.rendered and item.family and item.followup_at
        assert item.followup_number is not None
        runs = self.tests[item.instance_id].runs
        slug, rendered = item.repo.slug, item.rendered
        if item.evidence == "review":
            issue = (f"Address the review on #{item.number} ({item.variant.title}).\n\n"
                     + item.family.review(item.variant, rendered))
        else:
            issue = (item.family.defect(item.variant, rendered) + "\n\n```\n"
                     + runs["decoy0"].output.rstrip() + "\n```")
        writer = TrajectoryWriter(slug, issue)
        _git_log(writer, item.base_commit, item.followup_at, _subject(self.tl, item.base_commit))
        for path in item.view:
            _open(writer, item, path, f"Let me read {path} again with the comment in mind.")
        writer.step("I'll add tests that pin the expected behaviour.",
                    f"create {next(iter(rendered.hidden_tests))}", "[File created]")
        _pytest(writer, runs["decoy0"], rendered.test_files,
                "With the current change, the new tests should fail.")
        _fix(writer, item, f"Confirmed. I'll {rendered.gold_description}.")
        _pytest(writer, runs["gold"], rendered.test_files, "Run the tests again.")
        number = item.followup_number
        return SessionRecord(
            f"{slug}-{number}", item.repo.name, "followup", item.followup_at,
            item.followup_at + timedelta(hours=2), item.base_commit, item.result_commit,
            task=item.instance_id, family=item.family.id, evidence=[item.evidence or ""],
            document=writer.render(item.gold_patch + item.test_patch, "submitted", number))

    # ----------------------------------------------------------------- chores

    def _chore(self, item: WorkItem) -> SessionRecord:
        assert item.chore is not None
        chore, slug = item.chore, item.repo.slug
        writer = TrajectoryWriter(slug, chore.title)
        _git_log(writer, item.base_commit, item.at, _subject(self.tl, item.base_commit))
        for path in chore.explore:
            _open(writer, item, path, f"Start with {path} ({path}:1).")
        record = SessionRecord(item.instance_id, item.repo.name, "chore", item.at,
                               item.at + timedelta(hours=1, minutes=30), item.base_commit,
                               item.result_commit)
        statement = RULE_STATEMENTS.get((item.repo.name, chore.tag))
        if statement:
            writer.step(f"Found it. {statement}", "search_dir PAGE_SIZE" if "PAGE" in statement
                        else "search_dir API_VERSION", "Found 1 matches.")
            record.noise.append("rule_change")
        if item.gold_patch:
            writer.step("Making the change.", "edit", item.gold_patch)
            writer.step("Quick test run.", "python -m pytest -q",
                        f"{12 + item.number % 9} passed in 0.{20 + item.number % 60:02d}s")
            record.document = writer.render(item.gold_patch, "submitted", item.number)
        else:
            writer.step("Nothing to change in the code; answering in the ticket.", "exit", "")
            record.document = writer.render("", "early_exit", item.number)
        return record
