"""conflicts: find memories that contradict each other and resolve them by branch, time and
evidence: split into conditional memories, supersede the older (citing the commit that changed
the rule), or mark the pair unresolved. Nothing is deleted."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from dreamer.models import Bank, Link, Memory
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
from dreamer.stages.text import contradiction

if TYPE_CHECKING:
    from dreamer.stages.judges import Judge

UNRESOLVED = "conflict-unresolved"
"""Tag on both memories of a contradiction that neither time nor branch could settle."""


@stage("conflicts")
class ConflictResolution(Stage):
    """Resolves contradicting pairs among each memory's nearest neighbours."""

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
        members = editor.active()
        texts = [memory_text(m) for m in members]
        near = context.similarity.neighbours(
            texts, k=self.config.k, threshold=context.similarity.threshold("topic",
                                                                          self.config.threshold))
        found = 0
        for pair in near.pairs:
            a, b = editor.get(members[pair.i].id), editor.get(members[pair.j].id)
            if a.scope.repo != b.scope.repo or not (a.is_active and b.is_active):
                continue
            why = self._contradiction(a, b, judge)
            if why is None:
                continue
            found += 1
            self._resolve(editor, a, b, why)
        return editor.result(contradictions=found, pairs_considered=len(near.pairs),
                             lm_failures=judge.failures if judge else 0)

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
