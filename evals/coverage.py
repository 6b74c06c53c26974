"""Which of a corpus's hidden facts a bank carries: the extraction check of "each hidden fact is
in at least one kept memory that names its identifiers and cites the session and the code".

A fact is *carried* by an active memory that names at least half of the fact's identifiers
(rounded up; a name counts when it appears in the summary or conditions, compared without case
and ignoring a trailing ``()``), cites a session and cites code (a file citation with hashed
lines, or a commit). The share of identifiers of the best memory is reported for every fact, so
a fact half-learnt is visible too. Facts come from the corpus's ``facts.jsonl`` (the format of
``docs/corpus-format.md``), or, for a corpus built by ``dreamer corpus build``, from its
families' definitions.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dreamer.models import CitationKind, Memory


@dataclass(frozen=True)
class HiddenFact:
    family: str
    repo: str
    identifiers: tuple[str, ...]
    changed_in: str | None = None
    """For a rule changed by a later commit: that commit (``superseded.commit``)."""


@dataclass(frozen=True)
class FactCoverage:
    fact: HiddenFact
    named: tuple[str, ...]
    """The identifiers the best memory names."""
    memory: str | None
    """That memory's id, when it also cites a session and code."""
    carried: bool
    superseded_naming_commit: bool | None = None
    """For a changed rule: whether a memory of the older rule is superseded, linked to the
    changing commit (None for other facts)."""
    commit_named: bool | None = None
    """For a changed rule: whether an active memory names or cites the changing commit."""

    def to_json(self) -> dict[str, object]:
        return {"family": self.fact.family, "repo": self.fact.repo,
                "identifiers": list(self.fact.identifiers), "named": list(self.named),
                "memory": self.memory, "carried": self.carried,
                "changed_in": self.fact.changed_in,
                "superseded_naming_commit": self.superseded_naming_commit,
                "commit_named": self.commit_named}


def corpus_facts(folder: Path) -> list[HiddenFact]:
    """The hidden facts of the corpus at ``folder`` (see the module's docstring)."""
    tasks = [json.loads(line) for line in (folder / "tasks.jsonl").read_text().splitlines()
             if line.strip()]
    repo_of = {t.get("family"): t["repo"] for t in tasks if t.get("family")}
    facts_file = folder / "facts.jsonl"
    if facts_file.exists():
        rows = [json.loads(line) for line in facts_file.read_text().splitlines() if line.strip()]
        return [HiddenFact(r["family"], r.get("repo") or repo_of.get(r["family"], "*"),
                           tuple(r.get("identifiers") or ()),
                           (r.get("superseded") or {}).get("commit") or None) for r in rows]
    from evals.corpus.repos import repo_plans

    return [HiddenFact(family.id, family.repo, tuple(family.identifiers))
            for plan in repo_plans(folder / ".cache") for family in plan.families
            if family.id in repo_of]


def _norm(text: str) -> str:
    return text.lower().replace("()", "")


def _forms(identifier: str) -> tuple[str, ...]:
    """How a memory may name ``identifier``: as written, and a Python file also as its module
    (``depot/fx.py`` is ``depot.fx``, the way code imports it)."""
    norm = _norm(identifier)
    if norm.endswith(".py") and "/" in norm and " " not in norm:
        module = norm[:-3].removesuffix("/__init__").replace("/", ".")
        return norm, f"`{module}`", f"{module}."
    return (norm,)


def _cites_session_and_code(memory: Memory) -> bool:
    kinds = {c.kind for c in memory.citations}
    code = any(c.kind is CitationKind.FILE and c.lines_sha256 for c in memory.citations)
    return CitationKind.SESSION in kinds and (code or CitationKind.COMMIT in kinds)


def coverage(facts: Sequence[HiddenFact], memories: Iterable[Memory]) -> list[FactCoverage]:
    """For each fact, the active memory of its repository that names most of its identifiers."""
    memories = list(memories)
    active = [m for m in memories if m.is_active]
    out = []
    for fact in facts:
        need = math.ceil(len(fact.identifiers) / 2)
        best: tuple[int, bool, tuple[str, ...], str | None] = (-1, False, (), None)
        for memory in active:
            if memory.scope.repo not in (fact.repo, "*"):
                continue
            text = _norm(" ".join((memory.summary, *memory.conditions)))
            named = tuple(i for i in fact.identifiers if any(f in text for f in _forms(i)))
            cited = _cites_session_and_code(memory)
            carried = bool(fact.identifiers) and len(named) >= need and cited
            if (carried, len(named)) > (best[1], best[0]):
                best = (len(named), carried, named, memory.id if carried else None)
        superseded = named_commit = None
        if fact.changed_in:
            own = [m for m in memories if m.scope.repo in (fact.repo, "*")]
            by_id = {m.id: m for m in own}
            superseded = any(_superseded_for(m, fact.changed_in, by_id) for m in own)
            named_commit = any(_names_commit(m, fact.changed_in) for m in own if m.is_active)
        out.append(FactCoverage(fact, best[2], best[3], best[1], superseded, named_commit))
    return out


def _superseded_for(memory: Memory, commit: str, by_id: dict[str, Memory]) -> bool:
    """Whether ``memory`` was superseded because of ``commit``: it is linked to the commit and
    superseded by another memory, not by a rewording of itself (a merge or a compression
    derived from it carries its links along)."""
    if memory.is_active or not any(link.relation == "changed_in"
                                   and _same_commit(link.target, commit) for link in memory.links):
        return False
    return any(link.relation == "superseded_by" and (successor := by_id.get(link.target))
               is not None and memory.id not in successor.lineage.parents
               for link in memory.links)


def _same_commit(target: str, commit: str) -> bool:
    sha = target.removeprefix("commit:")
    return len(sha) >= 7 and (sha.startswith(commit) or commit.startswith(sha))


def _names_commit(memory: Memory, commit: str) -> bool:
    """Whether ``memory`` cites ``commit`` or names it (seven or more of its hex digits)."""
    if any(c.kind is CitationKind.COMMIT and _same_commit(c.ref, commit)
           for c in memory.citations):
        return True
    text = " ".join((memory.summary, *memory.conditions))
    return any(_same_commit(word, commit) for word in re.findall(r"\b[0-9a-f]{7,40}\b", text))
