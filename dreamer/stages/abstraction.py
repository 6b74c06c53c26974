"""abstraction: from several episodes with a common cause, write the general rule, citing them.

Offline the rule is extractive: the sentence of the episodes that best states a conclusion about
the anchors they share, so every word of it is evidenced. A rule that would be content-free
(``dreamer.extract.substance``: "Not resolved in this session.") is not written. With an LM,
``Abstract`` writes it, and a rule that drops every shared anchor is refused in favour of the
extractive one.

An episode whose session already taught a rule (a failure, domain or procedural memory citing
it) is merged into that rule before any clustering: the rule is its lesson, written by the
extractor from the same evidence. The rule keeps its words and gains a citation of each of the
episode's sessions; the episode stays in the bank, superseded, with all its citations.

Nothing named is lost: an episode that names more than ``max_missing_names`` identifiers its
rule does not name stays active beside the rule (linked ``derived_into`` it), so a rule drawn
from several facts never costs one of them.
"""

from __future__ import annotations

import math
from collections import Counter

from dreamer.extract.substance import content_free
from dreamer.models import Bank, Memory, MemoryType
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    common_scope,
    make_judge,
    memory_text,
    routine,
    session_of,
    sessions_of,
    stage,
    taught_sessions,
)
from dreamer.stages.subjects import code_names
from dreamer.stages.text import anchors, conclusion_score, sentences


@stage("abstraction")
class Abstraction(Stage):
    """Clusters episodes among nearest neighbours and writes one rule per cluster."""

    embeds = True

    class Config(StageConfig):
        types: tuple[str, ...] = ("episodic", "failure")
        """Memory types treated as episodes."""
        threshold: float | None = None
        """Cosine similarity from which two episodes may share a cause (None: the backend's
        default for "cluster")."""
        k: int = 8
        """Nearest neighbours looked at per episode."""
        min_support: int = 3
        """Episodes needed before a rule is written."""
        retire_episodes: bool = True
        """Supersede the episodes by their rule (they stay in the bank, out of retrieval)."""
        captured: bool = True
        """Merge each episode into the rule memory learnt from one of its sessions."""
        rule_types: tuple[str, ...] = ("failure", "domain", "procedural")
        """Memory types that state a lesson and can capture an episode."""
        max_missing_names: int = 1
        """An episode is retired by a rule only if the rule names all but this many of the code
        names the episode states; otherwise it stays in retrieval beside the rule."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        captured = self._absorb_captured(editor) if self.config.captured else 0
        # Routine episodes share files, not causes; forgetting puts them to sleep.
        taught = taught_sessions(bank)
        episodes = [m for m in editor.active(self.config.types) if routine(m, taught) is None]
        texts = [memory_text(m) for m in episodes]
        near = context.similarity.neighbours(
            texts, k=self.config.k,
            blocks=[m.scope.repo for m in episodes],
            threshold=context.similarity.threshold("cluster", self.config.threshold))
        same_repo = [(p.i, p.j) for p in near.pairs
                     if episodes[p.i].scope.repo == episodes[p.j].scope.repo]
        groups = _components(len(episodes), same_repo)
        rules = skipped = kept_apart = 0
        for indices in groups:
            group = [episodes[i] for i in indices]
            shared = _shared_anchors(group)
            if len(group) < self.config.min_support or not shared:
                continue  # no common cause to generalise from
            rule = judge.abstract([memory_text(m) for m in group]) if judge else None
            if rule is not None and not anchors(rule) & shared:
                rule = None  # the LM's rule lost the evidence; keep the extractive one
            written = rule is not None
            rule = rule or _extract_rule(group, shared)
            if content_free(rule, _rule_type(group).value):
                skipped += 1
                continue  # a rule that says nothing is no rule: the episodes stay as they are
            made = editor.derive(
                group, summary=rule, conditions=(f"seen in {len(group)} episodes",),
                type=_rule_type(group), scope=common_scope(group), action="created",
                retire=False,
                reason=f"general rule of {len(group)} episodes sharing "
                f"{', '.join(sorted(shared)[:3])}" + (" (LM written)" if written else ""),
            )
            rules += 1
            if self.config.retire_episodes:
                # An episode that names something the rule does not stays in retrieval: the
                # general rule must not cost a particular fact.
                for member in group:
                    if self._covered(member, made):
                        editor.supersede(member, made.id)
                    else:
                        kept_apart += 1
        return editor.result(rules=rules, episodes=len(episodes), captured=captured,
                             episodes_kept_for_their_names=kept_apart,
                             content_free_refused=skipped,
                             lm_failures=judge.failures if judge else 0)

    def _covered(self, memory: Memory, rule: Memory) -> bool:
        """Whether ``rule`` names all but ``max_missing_names`` of the code names ``memory``
        states (its paths and tests stay cited either way)."""
        return len(code_names(memory) - code_names(rule)) <= self.config.max_missing_names

    def _absorb_captured(self, editor: BankEditor) -> int:
        """Merge each rule memory with the episodes of the sessions it was learnt from; returns
        how many episodes were absorbed."""
        # Rules by (repository, session): an episode looks only at the rules of its sessions.
        by_session: dict[tuple[str, str], list[tuple[Memory, frozenset[str]]]] = {}
        for rule_memory in editor.active(self.config.rule_types):
            learnt = sessions_of(rule_memory)
            for session in learnt:
                by_session.setdefault((rule_memory.scope.repo, session), []).append(
                    (rule_memory, learnt))
        absorbed: dict[str, list[Memory]] = {}
        for episode in editor.active(["episodic"]):
            own = sessions_of(episode)
            near = {r.id: (r, s) for session in own
                    for r, s in by_session.get((episode.scope.repo, session), ())}
            mine = [(r, s & own) for r, s in near.values()]
            if mine:
                # The rule sharing most sessions, then the best evidenced, takes the episode,
                # unless the episode names something the rule does not (nothing named is lost).
                best = max(mine, key=lambda rs: (len(rs[1]), len(rs[0].citations), rs[0].id))[0]
                if self._covered(episode, best):
                    absorbed.setdefault(best.id, []).append(episode)
        for rule_id, episodes in sorted(absorbed.items()):
            rule = editor.get(rule_id)
            known = sessions_of(rule)
            # The rule gains one citation per new session (the story's evidence), not the
            # story's files and tests, which said nothing about the lesson.
            extra = tuple({s: c for m in episodes for c in m.citations
                           if (s := session_of(c)) and s not in known}.values())
            if not extra:  # the rule cites every session already: it stays as it is
                for episode in episodes:
                    editor.supersede(episode, rule.id)
                    editor.record("superseded", (episode.id,), rule.id,
                                  f"captured: the {rule.type.value} rule learnt from its "
                                  "sessions cites them all")
                continue
            editor.derive(
                [rule, *episodes], summary=rule.summary, conditions=rule.conditions,
                type=rule.type, scope=rule.scope, citations=(*rule.citations, *extra),
                action="merged", reason=f"captured: {len(episodes)} episode(s) of the sessions "
                f"this {rule.type.value} rule was learnt from; it cites their sessions",
            )
        return sum(len(e) for e in absorbed.values())

def _components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in edges:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


def _shared_anchors(group: list[Memory]) -> frozenset[str]:
    """Anchors named by at least half of the episodes (and by two at least): the common cause."""
    counts = Counter(a for m in group for a in anchors(memory_text(m)))
    need = max(2, math.ceil(len(group) / 2))
    return frozenset(a for a, c in counts.items() if c >= need)


def _extract_rule(group: list[Memory], shared: frozenset[str], max_sentences: int = 2) -> str:
    """The episodes' sentences that best state the shared cause in general terms: each names
    shared anchors, states a rule or fix, and names little that is particular to one episode.
    The best comes first; another is added only while it names a shared anchor still missing
    (a failure's test and the file that fixed it are usually two sentences)."""
    candidates = sorted({s for m in group for s in sentences(m.summary, clauses=False)})

    def score(sentence: str) -> tuple[float, int, str]:
        own = anchors(sentence)
        general = conclusion_score(sentence, shared) - len(own) - 0.5 * len(own - shared)
        return (general, -len(sentence), sentence)

    ranked = sorted(candidates, key=score, reverse=True)
    chosen = [ranked[0]]
    missing = shared - anchors(ranked[0])
    for sentence in ranked[1:]:
        if len(chosen) >= max_sentences or not missing:
            break
        if anchors(sentence) & missing and score(sentence)[0] > 0:
            chosen.append(sentence)
            missing -= anchors(sentence)
    return " ".join(c if c.endswith((".", "!", "?")) else c + "." for c in chosen)


def _rule_type(group: list[Memory]) -> MemoryType:
    """A rule about failures stays a failure memory; one drawn from plain episodes is domain."""
    if sum(m.type is MemoryType.FAILURE for m in group) * 2 >= len(group):
        return MemoryType.FAILURE
    return MemoryType.DOMAIN
