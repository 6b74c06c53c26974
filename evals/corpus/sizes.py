"""Size carries no signal: each evaluation task's candidates are padded so that, over a family,
the gold is the smallest in some tasks, the largest in some and in between in the rest.

A candidate's size is its changed lines (added plus removed). Each family's evaluation tasks get
a target rank for the gold (0 = smallest), dealt from a seeded shuffle of ``0..k-1`` repeated, so
every rank comes up equally often (within one). Candidates are then padded, in the order the
target asks for, with neutral comment lines appended to the first file they change that takes
``#`` comments: lines that change no behaviour and name nothing of the fact (a reviewer's usual
asides). Every padded candidate is validated again by the build's test runs like any other.

A candidate's description says only how large it is and how many files it touches: never a path,
an identifier or a judgement (``neutral_description``); ``check_descriptions`` proves that none
carries its fact's identifiers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from evals.agents.diffs import diff_stats
from evals.agents.evidence import terms
from evals.corpus.gitrepo import FileChanges

PADDING = (
    "# Behaviour is unchanged for existing callers.",
    "# Kept deliberately small; see the ticket for the wider discussion.",
    "# Nothing else depends on this yet.",
    "# Revisit once the follow-up lands.",
    "# Keep this in step with the rest of the file.",
    "# Reviewed with the team before merging.",
    "# The surrounding code is left as it was.",
    "# Covered by the existing tests.",
)
COMMENTABLE = (".py", ".yaml", ".yml", ".toml", ".cfg", ".sh", ".ini")


def target_ranks(count: int, k: int, seed: str) -> list[int]:
    """``count`` target ranks for the gold among ``k`` candidates, each rank equally often."""
    rng = random.Random(seed)
    ranks: list[int] = []
    while len(ranks) < count:
        block = list(range(k))
        rng.shuffle(block)
        ranks += block
    return ranks[:count]


def pad(changes: FileChanges, lines: int, rng: random.Random) -> FileChanges:
    """``changes`` with ``lines`` neutral comment lines appended to its first commentable file."""
    if lines <= 0:
        return changes
    path = next((p for p, c in changes.items() if c is not None and p.endswith(COMMENTABLE)),
                None)
    if path is None:
        raise ValueError(f"no file of {sorted(changes)} takes comments to pad")
    content = changes[path] or ""
    extra = [PADDING[rng.randrange(len(PADDING))] for _ in range(lines)]
    body = content if content.endswith("\n") else content + "\n"
    return {**changes, path: body + "\n".join(extra) + "\n"}


def balance(gold: FileChanges, decoys: Sequence[FileChanges], rank: int,
            patch_of: Callable[[FileChanges], str], seed: str
            ) -> tuple[FileChanges, tuple[FileChanges, ...]]:
    """Pad gold and decoys so the gold's size rank among them is ``rank`` (0 = smallest), with
    no two candidates of the same size. Decoys keep their relative order of size."""
    rng = random.Random(seed)
    sizes = [diff_stats(patch_of(c)).changed for c in (gold, *decoys)]
    decoy_order = sorted(range(1, len(sizes)), key=lambda i: (sizes[i], i))
    order = decoy_order[:rank] + [0] + decoy_order[rank:]
    padded: dict[int, FileChanges] = {}
    floor = 0
    for index in order:
        need = max(0, floor + 1 - sizes[index])
        if need:
            need += rng.randrange(3)  # sizes do not step by exactly one
        changes = (gold, *decoys)[index]
        padded[index] = pad(changes, need, rng)
        floor = diff_stats(patch_of(padded[index])).changed
    return padded[0], tuple(padded[i] for i in range(1, len(sizes)))


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
