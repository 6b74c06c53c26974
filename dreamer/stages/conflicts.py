"""conflicts: find memories that contradict each other and resolve them by branch, time and
evidence: split into conditional memories, supersede the older (citing the commit that changed
the rule), or mark the pair unresolved. Nothing is deleted."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from dreamer.extract.settings import SETTING_TAG
from dreamer.models import Bank, CitationKind, Link, Memory
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    commits_of,
    make_judge,
    memory_text,
    stage,
)
from dreamer.stages.rewritten import supersede_rewritten
from dreamer.stages.subjects import code_names, same_subject
from dreamer.stages.text import contradiction

if TYPE_CHECKING:
    from dreamer.stages.judges import Judge

UNRESOLVED = "conflict-unresolved"
"""Tag on both memories of a contradiction that neither time nor branch could settle."""


@stage("conflicts")
class ConflictResolution(Stage):
    """Resolves contradicting pairs among each memory's nearest neighbours."""

    embeds = True

    class Config(StageConfig):
        threshold: float | None = None
        """Cosine similarity from which two memories are on the same topic and are checked for a
        contradiction (None: the embedding backend's default for "topic")."""
        k: int = 8
        """Nearest neighbours looked at per memory."""
        min_gap_hours: float = 0.0
        """The newer memory wins only if its evidence is at least this much newer."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        # Settings first: a changed value is a contradiction without any reading of prose, and
        # the pair is then settled before the similarity pass could pick the wrong commit.
        changed = self._settings(editor, bank)
        rewritten = supersede_rewritten(editor)
        members = editor.active()
        texts = [memory_text(m) for m in members]
        near = context.similarity.neighbours(
            texts, k=self.config.k, blocks=[m.scope.repo for m in members],
            threshold=context.similarity.threshold("topic", self.config.threshold))
        found = 0
        for pair in near.pairs:
            a, b = editor.get(members[pair.i].id), editor.get(members[pair.j].id)
            if a.scope.repo != b.scope.repo or not (a.is_active and b.is_active):
                continue
            if not same_subject(a, b):
                continue  # memories about different things cannot contradict each other
            why = self._contradiction(a, b, judge)
            if why is None:
                continue
            found += 1
            self._resolve(editor, a, b, why)
        return editor.result(contradictions=found + changed + rewritten,
                             settings_changed=changed, code_rewritten=rewritten,
                             pairs_considered=len(near.pairs),
                             lm_failures=judge.failures if judge else 0)

    def _settings(self, editor: BankEditor, bank: Bank) -> int:
        """Supersede, per repository, branch, file and setting, each value by the next newer one
        (chained, so every old value points at its successor), citing the changing commit."""
        groups: dict[tuple[str, str | None, str, str], list[tuple[Memory, str]]] = \
            defaultdict(list)
        for memory in editor.active():
            for (path, key), value in setting_values(memory).items():
                groups[(memory.scope.repo, memory.scope.branch, path, key)].append((memory, value))
        found = 0
        citing = CitingIndex(bank)
        # The main line (no branch) sorts before the branches of its repository.
        for (_, _, path, key), stated in sorted(
                groups.items(), key=lambda item: (item[0][0], item[0][1] is not None,
                                                  item[0][1] or "", *item[0][2:])):
            dated = sorted((p for p in stated if p[0].created_at is not None),
                           key=lambda p: (p[0].created_at, p[0].id))
            for (older, old), (newer, new) in zip(dated, dated[1:], strict=False):
                gap = newer.created_at - older.created_at  # type: ignore[operator]
                if old == new or gap <= timedelta(hours=self.config.min_gap_hours):
                    continue
                if not editor.get(older.id).is_active:
                    continue
                commit = changing_commit(citing, older, newer, path)
                why = f"{key} in {path} is {old} in one and {new} in the other"
                links = (Link(relation="changed_in", target=f"commit:{commit}"),) if commit else ()
                editor.supersede(editor.get(older.id), newer.id, extra_links=links)
                editor.add_links(editor.get(newer.id),
                                 [Link(relation="supersedes", target=older.id)])
                cite = f"; changed in commit {commit}" if commit else ""
                editor.record("superseded", (older.id,), newer.id,
                              f"setting changed ({why}){cite}")
                found += 1
        return found

    @staticmethod
    def _contradiction(a: Memory, b: Memory, judge: Judge | None) -> str | None:
        offline = contradiction(a.summary, b.summary)
        if judge is None:
            return offline
        relation = judge.relation(memory_text(a), memory_text(b))
        if relation is None:
            return offline
        if relation != "contradicts":
            return None
        return offline or "the LM judged them contradictory"

    def _resolve(self, editor: BankEditor, a: Memory, b: Memory, why: str) -> None:
        if a.scope.branch != b.scope.branch:
            self._split(editor, a, b, why)
            return
        older, newer = sorted((a, b), key=lambda m: (m.created_at is None, m.created_at, m.id))
        gap = timedelta(hours=self.config.min_gap_hours)
        if older.created_at is None or newer.created_at is None or (
            newer.created_at - older.created_at <= gap
        ):
            for memory, other in ((a, b), (b, a)):
                editor.update(memory, tags=tuple(sorted({*memory.tags, UNRESOLVED})))
                editor.add_links(memory, [Link(relation="contradicts", target=other.id)])
            editor.record("linked", (a.id, b.id), None,
                          f"unresolved contradiction ({why}): no later evidence settles it")
            return
        kept = sorted(code_names(older) - code_names(newer))
        if len(kept) > 1:
            # The newer memory answers part of the older one; what only the older one names
            # (``discount_for`` beside a contradicted ``pct_of``) is not lost with it.
            for memory, other in ((a, b), (b, a)):
                editor.add_links(memory, [Link(relation="contradicts", target=other.id)])
            editor.record("linked", (older.id, newer.id), None,
                          f"contradicted in part by newer evidence ({why}); it stays for what "
                          f"only it names: {', '.join(kept[:4])}")
            return
        new_commits = [c for c in commits_of(newer) if c not in commits_of(older)]
        changed = (Link(relation="changed_in", target=f"commit:{new_commits[0]}"),) \
            if new_commits else ()
        editor.supersede(older, newer.id, extra_links=changed)
        editor.add_links(newer, [Link(relation="supersedes", target=older.id)])
        cite = f"; changed in commit {new_commits[0]}" if new_commits else ""
        editor.record("superseded", (older.id,), newer.id,
                      f"contradicted by newer evidence ({why}){cite}")

    @staticmethod
    def _split(editor: BankEditor, a: Memory, b: Memory, why: str) -> None:
        """Different branches: each holds on its own branch. A branch-less one gets the
        condition that it does not hold on the other's branch."""
        for memory, other in ((a, b), (b, a)):
            if memory.scope.branch is None and other.scope.branch is not None:
                editor.derive(
                    [memory], summary=memory.summary,
                    conditions=(*memory.conditions, f"not on branch {other.scope.branch}"),
                    action="split", reason=f"contradicts {other.id} on branch "
                    f"{other.scope.branch} ({why}); made conditional",
                )
                return
        for memory, other in ((a, b), (b, a)):
            editor.add_links(memory, [Link(relation="contradicts", target=other.id)])
        editor.record("linked", (a.id, b.id), None,
                      f"contradiction between branches {a.scope.branch} and {b.scope.branch} "
                      f"({why}); each stays on its branch")


def setting_values(memory: Memory) -> dict[tuple[str, str], str]:
    """(file, setting) -> value, from the ``setting:<path>:<KEY>=<value>`` tags extraction puts
    on a statement that the session's observation confirmed."""
    found: dict[tuple[str, str], str] = {}
    for tag in memory.tags:
        if not tag.startswith(f"{SETTING_TAG}:"):
            continue
        head, _, value = tag[len(SETTING_TAG) + 1:].partition("=")
        path, _, key = head.rpartition(":")
        if path and key and value:
            found[(path, key)] = value
    return found


class CitingIndex:
    """The bank's memories (any status) that cite a file at a commit, by (repository, path),
    sorted by date: built once per run, so that each changed setting looks only at the
    memories citing its file between two dates instead of scanning the bank."""

    def __init__(self, bank: Bank) -> None:
        entries: dict[tuple[str, str], list[tuple[datetime, str, Memory]]] = defaultdict(list)
        for memory in bank.memories:
            if memory.created_at is None:
                continue
            paths = {c.path for c in memory.citations
                     if c.kind is CitationKind.FILE and c.path and c.commit}
            for path in paths:
                entries[(memory.scope.repo, path)].append((memory.created_at, memory.id, memory))
        self._dates: dict[tuple[str, str], list[datetime]] = {}
        self._memories: dict[tuple[str, str], list[Memory]] = {}
        for key, found in entries.items():
            found.sort(key=lambda entry: (entry[0], entry[1]))
            self._dates[key] = [entry[0] for entry in found]
            self._memories[key] = [entry[2] for entry in found]

    def between(self, repo: str, path: str, after: datetime, until: datetime) -> list[Memory]:
        """Memories of ``repo`` citing ``path`` at a commit, dated in ``(after, until]``."""
        dates = self._dates.get((repo, path))
        if not dates:
            return []
        start, stop = bisect_right(dates, after), bisect_right(dates, until)
        return self._memories[(repo, path)][start:stop]


def changing_commit(bank: Bank | CitingIndex, older: Memory, newer: Memory,
                    path: str) -> str | None:
    """The commit that changed ``path`` between the two memories' evidence, read off citations.

    The bank's other memories (any status: an episode put to sleep still witnessed the change)
    that cite ``path`` at a commit, dated between the two, are the candidates. One that cites
    the very lines the newer memory saw (same hash) at a commit neither memory saw the file at
    is the change itself; memories that changed the file (not another observed setting) and
    earlier ones win. A newer memory that cites a commit and the file at that same commit (the
    repository's history read it) names the change itself, first. With none, the newer
    memory's own commit: the change is at or before it. ``bank`` may be a ``CitingIndex`` of the
    bank, built once for many calls.
    """
    def cited(memory: Memory) -> list[tuple[str, str | None]]:
        return [(c.commit, c.lines_sha256) for c in memory.citations
                if c.kind is CitationKind.FILE and c.path == path and c.commit]

    # The repository's history said it: the newer memory cites the commit itself and the file's
    # line at that commit (``dreamer.extract.history``).
    commits = {c.ref for c in newer.citations if c.kind is CitationKind.COMMIT}
    old_commits = {commit for commit, _ in cited(older)}
    for commit, _ in cited(newer):
        if commit in commits and commit not in old_commits:
            return commit
    index = bank if isinstance(bank, CitingIndex) else CitingIndex(bank)
    seen = {commit for commit, _ in cited(older) + cited(newer)}
    new_hashes = {h for _, h in cited(newer) if h}
    old_hashes = {h for _, h in cited(older) if h}
    ranked: list[tuple[tuple[bool, bool, object, str], str]] = []
    if older.created_at is not None and newer.created_at is not None:
        candidates = index.between(newer.scope.repo, path, older.created_at, newer.created_at)
    else:
        candidates = []
    for memory in candidates:
        if memory.id in (older.id, newer.id):
            continue
        for commit, digest in cited(memory):
            if commit in seen or (digest is not None and digest in old_hashes):
                continue  # a commit where the file still said the old value changed nothing
            same_lines = digest is not None and digest in new_hashes
            observed = bool(setting_values(memory))
            ranked.append(((not same_lines, observed, memory.created_at, memory.id), commit))
    if ranked:
        return min(ranked, key=lambda item: item[0])[1]
    return next((commit for commit, _ in cited(newer)), None)
