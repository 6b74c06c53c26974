"""linking: relate memories to each other, to the code symbols they name, to the tests they
cite and to the failure modes they describe. Links change no memory's id, only its state."""

from __future__ import annotations

import re

from dreamer.models import Bank, CitationKind, Link, Memory
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    make_judge,
    memory_text,
    stage,
)
from dreamer.stages.text import anchors

_FAILURE = re.compile(
    r"\b[A-Z]\w*(?:Error|Exception|Failure|Timeout|Warning)\b"
    r"|\b(?i:exit (?:code|status) \d+|segfault|timed out|deadlock|flaky)\b")
_SYMBOL = re.compile(r"^[A-Za-z_][\w.]*(?:\(\))?$")


@stage("linking")
class Linking(Stage):
    """Adds ``related``, ``symbol``, ``test`` and ``failure_mode`` links to active memories."""

    embeds = True

    class Config(StageConfig):
        threshold: float | None = None
        """Cosine similarity from which two memories are related (None: the backend's default
        for "related")."""
        k: int = 5
        """Nearest neighbours looked at per memory."""
        max_related: int = 3
        """Related links per memory at most, best first."""
        symbols: bool = True
        """Link the code symbols (identifiers, dotted names) a memory names."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        members = editor.active()
        texts = [memory_text(m) for m in members]
        near = context.similarity.neighbours(
            texts, k=self.config.k,
            blocks=[m.scope.repo for m in members],
            threshold=context.similarity.threshold("related", self.config.threshold))
        new: dict[str, list[Link]] = {m.id: self._own_links(m) for m in members}
        degree = dict.fromkeys(new, 0)
        for pair in near.pairs:
            a, b = members[pair.i], members[pair.j]
            if a.scope.repo != b.scope.repo:
                continue
            if max(degree[a.id], degree[b.id]) >= self.config.max_related:
                continue
            if judge is not None and judge.related(texts[pair.i], texts[pair.j]) is False:
                continue
            new[a.id].append(Link(relation="related", target=b.id))
            new[b.id].append(Link(relation="related", target=a.id))
            degree[a.id] += 1
            degree[b.id] += 1
        counts: dict[str, int] = {}
        for memory in members:
            added = editor.add_links(memory, new[memory.id])
            if added:
                kinds = sorted({link.relation for link in new[memory.id]})
                editor.record("linked", (memory.id,), memory.id,
                              f"{added} links ({', '.join(kinds)})")
            for link in set(new[memory.id]) - set(memory.links):
                counts[link.relation] = counts.get(link.relation, 0) + 1
        return editor.result(**{f"links_{k}": v for k, v in sorted(counts.items())},
                             lm_failures=judge.failures if judge else 0)

    def _own_links(self, memory: Memory) -> list[Link]:
        """Links read off one memory: its symbols, cited tests and failure modes."""
        links = [Link(relation="test", target=c.ref)
                 for c in memory.citations if c.kind is CitationKind.TEST]
        text = memory_text(memory)
        links += [Link(relation="failure_mode", target=m.group(0))
                  for m in _FAILURE.finditer(text)]
        if self.config.symbols:
            links += [Link(relation="symbol", target=a) for a in anchors(text, keep_case=True)
                      if _SYMBOL.match(a) and ("_" in a or "." in a or a[1:] != a[1:].lower())
                      and not a.lower().endswith((".py", ".toml", ".yaml", ".yml", ".json", ".md"))]
        return sorted(set(links), key=lambda link: (link.relation, link.target))
