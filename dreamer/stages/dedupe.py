"""dedupe: merge memories that say the same thing in different words; the merge keeps every
citation of its inputs, which stay in the bank as superseded.

A merge keeps the words of the member that names most, and nothing named is lost: a code name
of another member that those words lack is kept as an "also named" condition, and a member that
would lose more than ``max_missing_names`` of them is another fact and stays as it is. Two
memories are merged only when they are of one repository, agree on every setting they state, do
not contradict each other, share a subject (an identifier they name, a file or test they
cite: ``dreamer.stages.subjects``), and are as alike as the ``same`` threshold asks (``shared``
when they cite the same lines). ``benchmarks/merge_pairs.py`` measures the precision and recall
of that decision on pairs labelled from the corpora's ground truth.
"""

from __future__ import annotations

from dreamer.extract.rewrites import rewrite_of
from dreamer.models import Bank, CitationKind, Memory, MemoryType
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    common_scope,
    make_judge,
    memory_text,
    stage,
)
from dreamer.stages.conflicts import setting_values
from dreamer.stages.rewritten import straddle
from dreamer.stages.similarity import Neighbours
from dreamer.stages.subjects import code_names, same_subject
from dreamer.stages.text import contradiction


@stage("dedupe")
class Dedupe(Stage):
    """Clusters near-identical active memories of one repository and merges each cluster."""

    embeds = True

    class Config(StageConfig):
        threshold: float | None = None
        """Cosine similarity from which two memories state the same fact (None: the embedding
        backend's default for "same")."""
        k: int = 8
        """Nearest neighbours looked at per memory: the only pairs ever compared."""
        shared_span_threshold: float | None = None
        """Cosine similarity from which two memories that cite overlapping lines of the same
        file state the same fact (None: the backend's "shared" default). Loose paraphrases of one
        lesson about one piece of code score lower than rewordings, but share their evidence."""
        same_type: bool = False
        """Merge only memories of the same type (a failure and a procedure may say the same)."""
        episodes_with_rules: bool = False
        """Merge an episode with a rule (failure, domain, ...) that retells it. Off: an episode
        is a story, not a restatement of the lesson; abstraction supersedes it by the rule
        learnt from its session, without piling the story's citations onto the rule."""
        max_missing_names: int = 2
        """A member joins a merge only if the kept words lack at most this many of the code
        names it states (kept as an "also named" condition); beyond that it is another fact."""
        confirmation_bonus: float = 0.05
        """Confidence gained per extra memory that confirms the merged one (capped at 0.95)."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        members = editor.active()
        texts = [memory_text(m) for m in members]
        same = context.similarity.threshold("same", self.config.threshold)
        spans = context.similarity.threshold("shared", self.config.shared_span_threshold)
        # The LM judges every topical pair; offline, the thresholds decide.
        floor = min(same, spans, context.similarity.threshold("topic"))
        near = context.similarity.neighbours(texts, k=self.config.k, threshold=floor,
                                             blocks=[m.scope.repo for m in members])
        parent = list(range(len(members)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        asked = 0
        lm_joined: set[int] = set()  # memories the LM (not the fallback) judged the same
        for pair in near.pairs:
            a, b = members[pair.i], members[pair.j]
            ra, rb = root(pair.i), root(pair.j)
            if ra == rb or not self._compatible(a, b):
                continue
            need = spans if _shared_span(a, b) else same
            verdict = None
            if judge is not None:
                asked += 1
                verdict = judge.same_fact(texts[pair.i], texts[pair.j])
                if verdict:
                    lm_joined.update((pair.i, pair.j))
            if verdict is None:  # offline, or the LM failed: exactly the offline rule
                # A cluster grows only while its seeds stay alike, so chains of loosely
                # similar memories never collapse into one.
                verdict = pair.score >= need and near.sim(ra, rb) >= min(need, same)
            if verdict:
                parent[max(ra, rb)] = min(ra, rb)

        clusters: dict[int, list[int]] = {}
        for i in range(len(members)):
            clusters.setdefault(root(i), []).append(i)
        merged = skipped = 0
        for indices in sorted(clusters.values()):
            if len(indices) < 2:
                continue
            # The merge keeps one member's words: the member that names most of what the
            # cluster names (a failure's fix rather than a guard about its test), then the most
            # central. Names of the others that its words lack are kept as a condition when they
            # are few; a member that would lose more stays as it is.
            names = {i: code_names(members[i]) for i in indices}
            most = max(len(names[i]) for i in indices)
            keeper = _medoid([i for i in indices if len(names[i]) == most], near, members,
                             indices)
            kept = [i for i in indices
                    if len(names[i] - names[keeper]) <= self.config.max_missing_names]
            skipped += len(indices) - len(kept)
            if len(kept) < 2:
                continue
            indices = kept
            group = [members[i] for i in indices]
            best = members[keeper]
            missing = sorted(frozenset().union(*(names[i] for i in indices)) - names[keeper])
            conditions = tuple(best.conditions)
            if missing:
                conditions += ("also named " + ", ".join(f"`{n}`" for n in missing),)
            bonus = self.config.confirmation_bonus * (len(group) - 1)
            editor.derive(
                group, summary=best.summary, conditions=conditions, type=best.type,
                scope=common_scope(group),
                confidence=min(0.95, max(m.confidence for m in group) + bonus),
                action="merged",
                reason=f"{len(group)} memories state the same lesson"
                + (" (LM judged)" if lm_joined & set(indices) else f" (similarity >= {same})"),
            )
            merged += len(group)
        return editor.result(
            memories_merged=merged, pairs_considered=len(near.pairs),
            memories_kept_apart=skipped,
            lm_calls=asked, lm_failures=judge.failures if judge else 0,
        )

    def _compatible(self, a: Memory, b: Memory) -> bool:
        if a.scope.repo != b.scope.repo:
            return False  # scopes never leak, not even into a merge
        if self.config.same_type and a.type != b.type:
            return False
        episodic = (a.type is MemoryType.EPISODIC, b.type is MemoryType.EPISODIC)
        if not self.config.episodes_with_rules and episodic[0] != episodic[1]:
            return False
        # A rule and its reversal look alike to embeddings; conflict resolution owns them, and
        # so it does two values of one setting, whatever their wording.
        va, vb = setting_values(a), setting_values(b)
        if any(va[k] != vb[k] for k in va.keys() & vb.keys()):
            return False
        # Different subjects are different facts, however alike the words; so are the code
        # before and after a commit rewrote it, and a commit's history and a session's story.
        if not same_subject(a, b) or straddle(a, b):
            return False
        if (rewrite_of(a) is None) != (rewrite_of(b) is None):
            return False
        if _guard(a) and _guard(b) and not _same_guard(a, b):
            return False  # a guard's fact is the file it guards and the tests it names
        return contradiction(a.summary, b.summary) is None

    def would_merge(self, a: Memory, b: Memory, score: float, context: StageContext) -> bool:
        """The offline decision for one pair at cosine ``score`` (as the stage takes it for a
        pair of nearest neighbours): compatible, and as alike as the thresholds ask."""
        same = context.similarity.threshold("same", self.config.threshold)
        spans = context.similarity.threshold("shared", self.config.shared_span_threshold)
        need = spans if _shared_span(a, b) else same
        return self._compatible(a, b) and score >= need


def _guard(memory: Memory) -> bool:
    """A guard: "changing P can break T: run F before touching it" (``extract.procedures``)."""
    return memory.type is MemoryType.PROCEDURAL and (memory.lineage.reason or "").startswith(
        "guard")


def _same_guard(a: Memory, b: Memory) -> bool:
    """Two guards of one file that name a test in common."""
    tests = [{c.ref for c in m.citations if c.kind is CitationKind.TEST} for m in (a, b)]
    return set(a.conditions) == set(b.conditions) and bool(tests[0] & tests[1])


MEDOID_SAMPLE = 16
"""Members of a cluster its medoid is chosen among and compared with."""


def _medoid(candidates: list[int], near: Neighbours, members: list[Memory],
            indices: list[int] | None = None) -> int:
    """The candidate most like the cluster's others (``indices``, default the candidates);
    ties go to more evidence, then the shorter text. Likeness is summed over the first
    ``MEDOID_SAMPLE`` members, so a large cluster costs linear, not quadratic, time."""
    group = (indices if indices is not None else candidates)[:MEDOID_SAMPLE]
    candidates = candidates[:MEDOID_SAMPLE] if len(candidates) > MEDOID_SAMPLE else candidates

    def key(i: int) -> tuple[float, int, int, str]:
        centrality = sum(near.sim(i, j) for j in group if j != i)
        m = members[i]
        return (-round(centrality, 4), -len(m.citations), len(m.summary), m.id)

    return min(candidates, key=key)



def _shared_span(a: Memory, b: Memory) -> bool:
    """Both cite overlapping lines of one file (or the same test, when they are about a file in
    common: one test fails for changes to different files, and those are different lessons):
    the same piece of code."""
    files = [{c.path for c in m.citations if c.kind is CitationKind.FILE and c.path}
             | {k.removeprefix("when changing ") for k in m.conditions
                if k.startswith("when changing ")} for m in (a, b)]
    for x in a.citations:
        for y in b.citations:
            if x.kind is CitationKind.TEST and y.kind is CitationKind.TEST and x.ref == y.ref \
                    and files[0] & files[1]:
                return True
            # A citation without lines (a file the session named, lines not found) says where,
            # not which piece of code: it overlaps nothing.
            if x.kind is y.kind is CitationKind.FILE and x.path and x.path == y.path \
                    and x.start_line is not None and y.start_line is not None \
                    and x.start_line <= (y.end_line or y.start_line) \
                    and y.start_line <= (x.end_line or x.start_line):
                return True
    return False
