"""Size carries no signal: over a family, the gold is the smallest candidate in some tasks, the
largest in some and in between in the rest, by the size the size controls compare.

A candidate's size is its changed *code* lines (``DiffStats.code``: added plus removed lines
that are neither blank nor comments), so neither comments nor docstrings can move it. Sizes vary
naturally instead: a family's gold and each of its decoys come in several *writings*
(``Rendered.gold_forms``, ``Decoy.forms``), real code that an engineer might equally write: a
guard clause, a local variable naming an expression, a named constant with a check, the
fix written in the other fix's shape. A writing never changes what the candidate does to the
graded tests (the build's test runs validate each chosen writing like any other candidate), and
it adds no evidence term of any family's memories (a decoy's writing none that the gold's
writings lack; ``tests/corpus/test_corpus_families.py`` checks it): its names are already on
every candidate's changed lines, or are the function's own arguments and locals named in no
memory, Python keywords and builtins (which ``evals.agents.evidence.terms`` drops), so that no
memory, oracle or placebo, prefers a writing to another.

``RankDealer`` picks one writing per candidate for each evaluation task of a family, so that the
candidates' code sizes are pairwise distinct (a size tie makes the controls abstain) and the
gold's rank among them (0 = smallest) is the rank dealt least often so far among those the
writings can reach: every rank comes up equally often over a family (within one) when every
task can reach every rank, and ``RankDealer.counts`` shows it when one cannot.

A candidate's description says only how large it is and how many files it touches: never a path,
an identifier or a judgement (``neutral_description``); ``check_descriptions`` proves that none
carries its fact's identifiers.
"""

from __future__ import annotations

import ast
import itertools
import random
from collections.abc import Callable, Sequence

from evals.agents.diffs import diff_stats
from evals.agents.evidence import terms
from evals.corpus.errors import CorpusError
from evals.corpus.gitrepo import FileChanges


def code_size(patch: str) -> int:
    """The size the size controls compare: changed lines that carry code."""
    return diff_stats(patch).code


class RankDealer:
    """Deals the gold's size rank to each evaluation task of one family (``k`` candidates)."""

    def __init__(self, family: str, k: int, seed: str) -> None:
        self.family = family
        self.counts = [0] * k
        """How many tasks got each rank so far (0 = the gold is the smallest)."""
        self.rng = random.Random(seed)

    def deal(self, forms: Sequence[Sequence[FileChanges]], patch_of: Callable[[FileChanges], str],
             task: str) -> tuple[FileChanges, tuple[FileChanges, ...]]:
        """One writing per candidate (``forms[0]``: the gold's writings, then each decoy's) with
        distinct code sizes and the gold at the least dealt reachable rank."""
        if len(forms) != len(self.counts):
            raise CorpusError(f"{task}: {len(forms)} candidates, the family has "
                              f"{len(self.counts)}")
        sizes = [[code_size(patch_of(f)) for f in writings] for writings in forms]
        reach: dict[int, list[tuple[int, ...]]] = {}
        for choice in itertools.product(*(range(len(s)) for s in sizes)):
            picked = [sizes[slot][i] for slot, i in enumerate(choice)]
            if len(set(picked)) == len(picked):
                reach.setdefault(sorted(picked).index(picked[0]), []).append(choice)
        if not reach:
            raise CorpusError(f"{task} ({self.family}): no writing of its candidates gives "
                              f"distinct code sizes {sizes}")
        least = min(self.counts[rank] for rank in reach)
        rank = self.rng.choice(sorted(r for r in reach if self.counts[r] == least))
        self.counts[rank] += 1
        choice = self.rng.choice(reach[rank])
        chosen = [forms[slot][i] for slot, i in enumerate(choice)]
        return chosen[0], tuple(chosen[1:])


def with_local(text: str, expr: str, name: str) -> str:
    """``text`` with ``expr`` (on one line, once) first bound to the local ``name``."""
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if expr in line]
    if len(hits) != 1:
        raise CorpusError(f"{expr!r} is on {len(hits)} lines, not one")
    line = lines[hits[0]]
    indent = line[:len(line) - len(line.lstrip())]
    lines[hits[0]:hits[0] + 1] = [f"{indent}{name} = {expr}\n", line.replace(expr, name, 1)]
    return "".join(lines)


def with_guard(text: str, func: str, guard: str) -> str:
    """``text`` with ``guard`` (lines, unindented) first in the body of function ``func``
    (after its docstring)."""
    tree = ast.parse(text)
    node = next((n for n in ast.walk(tree)
                 if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == func),
                None)
    if node is None:
        raise CorpusError(f"no function {func!r} to guard")
    first = node.body[0]
    docstring = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                 and isinstance(first.value.value, str))
    anchor = node.body[1] if docstring and len(node.body) > 1 else first
    lines = text.splitlines(keepends=True)
    at = (first.end_lineno or first.lineno) if docstring else anchor.lineno - 1
    indent = " " * anchor.col_offset
    block = [f"{indent}{row}\n" if row else "\n" for row in guard.splitlines()]
    lines[at:at] = block
    return "".join(lines)


def guard_writings(text: str, func: str, guards: Sequence[str]) -> tuple[str, ...]:
    """``text`` and ``text`` with every non-empty subset of ``guards`` first in ``func``."""
    out = [text]
    for count in range(1, len(guards) + 1):
        for subset in itertools.combinations(guards, count):
            form = text
            for guard in reversed(subset):
                form = with_guard(form, func, guard)
            out.append(form)
    return tuple(out)


def neutral_description(patch: str) -> str:
    """What a candidate is, without a word of what it does: its size and how many files."""
    stats = diff_stats(patch)
    files = len(stats.paths)
    return (f"a change of {stats.changed} lines (+{len(stats.added)} -{len(stats.removed)}) "
            f"in {files} file{'s' if files != 1 else ''}")


def check_descriptions(descriptions: Sequence[str], identifiers: Sequence[str]) -> list[str]:
    """The descriptions that carry one of ``identifiers``' terms (each with the terms)."""
    wanted = set().union(*(terms(i) for i in identifiers)) if identifiers else set()
    found = []
    for text in descriptions:
        hit = terms(text) & wanted
        if hit:
            found.append(f"{text!r} names {sorted(hit)}")
    return found
