"""A dream of a bank of several repositories, on several cores.

No stage compares, merges or links memories of two repositories (scopes never leak), and the
one thing a stage reads from the whole bank, forgetting's present, travels in the stage context.
So the repositories of a large bank are dealt into shards, the first dreamt in the dreaming
process, each other one meanwhile by a worker process forked from it (the bank, the vectors
embedded so far and the model come along without a copy), and the shards' runs are put back
together: the same candidate bank, diff, provenance and metrics as one process gives
(``tests/test_shards.py`` compares them).

A worker is forked even from a process with other threads (a Prefect task's): it takes no lock
another thread may hold (the embedder's is renewed at a fork; torch and faiss run one thread,
without the OpenMP pools a fork does not carry) and reports no progress of its own.

``DREAMER_DREAM_WORKERS`` sets the processes (default: the cores idle when the dream starts,
as the embedder counts them; at most one per repository); 1 dreams in this process. A bank of
fewer than ``SHARD_MIN`` memories, a dream with a language model (its calls and their
accounting stay in one process), the TF-IDF backend (a text's vector depends on the texts it
is fitted with), a platform without ``fork`` and a daemonic process (which may not have
children) are dreamt in this process.
"""

from __future__ import annotations

import gc
import io
import multiprocessing
import os
import pickle
import sys
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from dreamer.errors import DreamError
from dreamer.models import Bank, Citation, Link, Memory, shared
from dreamer.strategy import Strategy

if TYPE_CHECKING:
    from dreamer.pipeline import StagesRun

SHARD_MIN = 5_000
"""Below this many memories a dream stays in one process: forking and sending the shards'
banks back would cost more than the second core saves."""


@dataclass(frozen=True)
class Plan:
    """The positions in the input bank of each shard's memories (whole repositories)."""

    shards: tuple[tuple[int, ...], ...]


def workers() -> int:
    """``DREAMER_DREAM_WORKERS``, or the cores idle when the dream starts."""
    from dreamer import cpu, settings

    return settings.count("DREAMER_DREAM_WORKERS") or cpu.idle_cores()


def plan(bank: Bank, context: Any) -> Plan | None:
    """How to shard ``bank``'s dream, or None to dream it in this process."""
    if _in_worker or context.lm is not None or len(bank.memories) < SHARD_MIN:
        return None
    if context.similarity.backend != "minilm":
        return None  # TF-IDF weighs a text by the others it is fitted with: not per shard
    from dreamer import cpu

    if not cpu.may_fork():
        return None
    by_repo: dict[Hashable, list[int]] = {}
    for position, memory in enumerate(bank.memories):
        by_repo.setdefault(memory.scope.repo, []).append(position)
    count = min(workers(), len(by_repo))
    if count < 2:
        return None
    # The largest repositories first, each to the lightest shard so far (ties: the first).
    shards: list[list[int]] = [[] for _ in range(count)]
    for repo in sorted(by_repo, key=lambda r: (-len(by_repo[r]), str(r))):
        min(shards, key=len).extend(by_repo[repo])
    return Plan(tuple(tuple(sorted(shard)) for shard in shards))


_in_worker = False
"""True in a shard's worker: it dreams its own shard in its own process."""
_job: tuple[Bank, Strategy, Any] | None = None
"""The dream whose shards the forked workers read (set only while they run)."""


def run(bank: Bank, strategy: Strategy, context: Any, shards: Plan, keep: Any) -> StagesRun:
    """Dream the first shard of ``bank`` in this process and each other one in a forked worker
    meanwhile; their runs merged in shard order. (This process would otherwise only wait: a
    worker less is one copy less of what the workers write of the forked memory, and the first
    shard is neither sent nor rebuilt.)"""
    from dreamer import cpu
    from dreamer.pipeline import run_stages

    global _job
    _prepare(bank, strategy, context)
    _job = (bank, strategy, context)
    mine, *others = shards.shards
    try:
        fork = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(len(others), mp_context=fork,
                                 initializer=_start_worker) as pool:
            # Every worker is forked at the first submission, before a progress bar's thread.
            futures = [pool.submit(_dream_shard, shard) for shard in others]
            shard, last = _shard(bank, mine)
            with cpu.limited(1):  # the workers take the other cores
                runs = [run_stages(shard, strategy, context, keep, first_key=last)]
            # While the workers finish (they send their own output's hashes): the hashes the
            # diff and the bank's id will read, of this shard's output and of the whole input.
            for memory in (*runs[0].bank.memories, *bank.memories):
                memory.state_hash()  # and the id with it; each computed once, then cached
            sent = [future.result() for future in futures]
    except BrokenProcessPool as exc:
        raise DreamError(
            f"a worker dreaming one of {len(shards.shards)} shards of a bank of "
            f"{len(bank.memories)} memories died ({exc}); nothing was kept. Dream in one "
            "process with DREAMER_DREAM_WORKERS=1 if memory is short") from exc
    finally:
        _job = None
    for data in sent:
        got: ShardRun = _Reader(data, bank).load()
        runs.append(replace(got.run, bank=got.run.bank.model_copy(
            update={"memories": _rebuilt(bank, got)})))
    return merge(runs)


def _prepare(bank: Bank, strategy: Strategy, context: Any) -> None:
    """Ask, before the fork, what the first stage that embeds will ask: the vectors of the
    active memories' texts. Those missing are embedded on every core here rather than on one
    core per shard, and the model, loaded here, is shared with the workers by the fork rather
    than loaded by each of them (at 100K, 700 MiB less)."""
    from dreamer.stages import STAGES
    from dreamer.stages.base import memory_text

    if any(STAGES.get(name).embeds for name, _ in strategy.stage_configs()):
        context.similarity.embed([memory_text(m) for m in bank.active])


def _shard(bank: Bank, positions: tuple[int, ...]) -> tuple[Bank, int | None]:
    """The shard's bank, and the input position of its last active memory."""
    memories = tuple(bank.memories[p] for p in positions)
    last = next((p for p in reversed(positions) if bank.memories[p].is_active), None)
    return bank.model_copy(update={"memories": memories}), last


def _start_worker() -> None:
    """In a new worker: one thread for torch and faiss (their OpenMP pools do not survive a
    fork; one thread never uses them) and no progress of its own (the dreaming process reports
    its own shard's)."""
    global _in_worker
    _in_worker = True
    os.environ["DREAMER_EMBED_THREADS"] = "1"
    if "faiss" in sys.modules:
        sys.modules["faiss"].omp_set_num_threads(1)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    from dreamer import progress

    progress.silence()


class ShardRun(NamedTuple):
    """What a worker sends back: its run (whose bank holds only the memories the shard made),
    and each memory it kept as a change to its input: the fields that changed (none: the input
    itself) and its state hash (empty for the input itself), by input position."""

    run: StagesRun
    kept: list[tuple[int, dict[str, Any], str]]


def _dream_shard(positions: tuple[int, ...]) -> bytes:
    """Dream one shard in a worker. Most memories come out as the input with a new status or
    links: sending only those fields back costs a tenth of sending whole memories, which the
    merging process would read alone. The hashes of what it changed and made are computed here,
    in parallel, for the same reason (the merging process computes the input's while it
    waits)."""
    from dreamer.pipeline import run_stages

    if _job is None:
        raise RuntimeError("a shard's worker runs only inside dreamer.shards.run")
    bank, strategy, context = _job
    shard, last = _shard(bank, positions)
    memories = shard.memories
    # What the stages hold between them is kept out of the cyclic collector here too (see
    # ``collector.long_lived``: the worker inherits its thresholds, not its later freezes).
    ran = run_stages(shard, strategy, context, keep=gc.freeze, first_key=last)
    position = {m.id: p for p, m in zip(positions, memories, strict=True)}
    kept, made = [], []
    for memory in ran.bank.memories:
        at = position.get(memory.id)
        if at is None:
            memory.state_hash()  # cached in the memory, so it travels with it
            made.append(memory)
            continue
        old = bank.memories[at]
        changed = {name: value for name in type(memory).model_fields
                   if (value := getattr(memory, name)) is not getattr(old, name)}
        if "links" in changed:  # as pairs: a model each would cost most of the reading
            changed["links"] = tuple((link.relation, link.target) for link in changed["links"])
        kept.append((at, changed, memory.state_hash() if changed else ""))
    ran.bank = ran.bank.model_copy(update={"memories": tuple(made)})
    # A memory a stage made keeps every citation of its parents: the very objects the merging
    # process holds too (it forked this one), so they travel as their place in the input bank.
    places = {id(c): (p, i) for p in positions for i, c in enumerate(bank.memories[p].citations)}
    out = io.BytesIO()
    _Writer(out, places).dump(ShardRun(ran, kept))
    return out.getvalue()


class _Writer(pickle.Pickler):
    def __init__(self, file: io.BytesIO, places: dict[int, tuple[int, int]]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.places = places

    def persistent_id(self, obj: Any) -> tuple[int, int] | None:
        return self.places.get(id(obj)) if type(obj) is Citation else None


class _Reader(pickle.Unpickler):
    def __init__(self, data: bytes, bank: Bank) -> None:
        super().__init__(io.BytesIO(data))
        self.bank = bank

    def persistent_load(self, pid: Any) -> Citation:
        position, index = pid
        return self.bank.memories[position].citations[index]


def _rebuilt(bank: Bank, shard: ShardRun) -> tuple[Memory, ...]:
    """A shard's memories in the merging process: its input memories with their changes, then
    the ones it made."""
    out = []
    links: dict[tuple[str, str], Link] = {}  # each distinct link made once, as a pair
    for at, changed, state in shard.kept:
        if not changed:
            out.append(bank.memories[at])
            continue
        if "links" in changed:
            changed["links"] = tuple(
                links.get(pair) or links.setdefault(pair, shared(Link(relation=pair[0],
                                                                      target=pair[1])))
                for pair in changed["links"])
        memory = bank.memories[at].model_copy(update=changed)
        memory.keep_hashes(_state_hash=state)
        out.append(memory)
    return (*out, *shard.run.bank.memories)


def merge(runs: list[StagesRun]) -> StagesRun:
    """One run of the whole bank from its shards' runs: memories, provenance (stage by
    stage), metrics and active memories added up; token parts put side by side; CPU seconds
    added, wall seconds the longest shard's."""
    from dreamer.pipeline import StagesRun

    first = runs[0]
    memories = tuple(m for ran in runs for m in ran.bank.memories)
    points = range(len(first.active))
    return StagesRun(
        bank=first.bank.model_copy(update={"memories": memories}),
        provenance=[[e for ran in runs for e in ran.provenance[i]]
                    for i in range(len(first.provenance))],
        metrics=[(name, _added([ran.metrics[i][1] for ran in runs]))
                 for i, (name, _) in enumerate(first.metrics)],
        active=[sum(ran.active[i] for ran in runs) for i in points],
        parts=[[p for ran in runs for p in ran.parts[i]] for i in points],
        timings={name: {"cpu": sum(ran.timings[name]["cpu"] for ran in runs),
                        "wall": max(ran.timings[name]["wall"] for ran in runs)}
                 for name in first.timings},
        shards=len(runs),
    )


def _added(metrics: list[dict[str, Any]]) -> dict[str, Any]:
    """Shards' metrics of one stage, key by key: numbers added, mappings merged the same way;
    anything else must agree."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys(k for m in metrics for k in m):
        values = [m[key] for m in metrics if key in m]
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            out[key] = sum(values)
        elif all(isinstance(v, dict) for v in values):
            out[key] = _added(values)
        elif all(v == values[0] for v in values):
            out[key] = values[0]
        else:
            raise ValueError(f"shards disagree on the stage metric {key!r}: {values!r}")
    return out
