"""The dream pipeline: runs a strategy's stages over a bank and says what became of every memory.

``dream(bank, strategy)`` never touches its input (banks are frozen) and is deterministic: the
same bank and strategy give the same bank id. ``store_dream`` keeps the candidate as a new bank
version (origin ``dream``, parent = the input) with its diff and provenance beside it, and
moves the ``candidate`` alias. ``trace`` reads two banks back into a per-memory account.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamer import settings
from dreamer.bank_tokens import TokenParts, token_parts, tokens_of
from dreamer.collector import long_lived
from dreamer.models import (
    Bank,
    BankDiff,
    BankOrigin,
    MemoryStatus,
    ProvenanceEntry,
    forget_shared,
)
from dreamer.strategy import Strategy


@dataclass(frozen=True)
class DreamResult:
    """A dream's candidate bank, its diff against the input, the provenance and the metrics."""

    bank: Bank
    diff: BankDiff
    provenance: tuple[ProvenanceEntry, ...]
    metrics: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, dict[str, float]] = field(default_factory=dict)
    """CPU and wall seconds of each stage (with shards: CPU summed, wall the longest shard's);
    apart from ``metrics``, which two dreams of one bank give alike."""
    shards: int = 1
    """The processes the stages ran in (``dreamer.shards``)."""


def make_context(strategy: Strategy, lm: Any | None = None, **fields: Any) -> Any:
    """The stage context for ``strategy``: its similarity backend, the LM, and ``fields``.
    With an LM, the stages run the strategy's saved program (``program:``) when it names one,
    else a fresh ``DreamProgram``."""
    from dreamer.stages import Similarity, StageContext

    if lm is not None and fields.get("program") is None:
        from dreamer.programs import DreamProgram, load_dream_program

        path = strategy.program_path()
        fields["program"] = (load_dream_program(path, strategy) if path is not None
                             else DreamProgram(strategy=strategy))
    return StageContext(similarity=Similarity(strategy.embedding), lm=lm, **fields)


def dream(bank: Bank, strategy: Strategy, context: Any | None = None) -> DreamResult:
    """Run ``strategy``'s stages over ``bank`` in order and return the candidate. A bank of
    several repositories may be dreamt in shards on several cores (``dreamer.shards``): the
    same candidate, diff, provenance and metrics as in one process."""
    from dreamer import shards

    context = context if context is not None else make_context(strategy)
    if context.lm is not None and context.lm_usage is None:
        from dreamer.lm import usage_for

        context.lm_usage = usage_for(context.lm)
    if context.now is None:  # forgetting's present: the input's, whatever the shard
        context = replace(context, now=newest(bank))
    try:
        with long_lived() as keep:
            plan = shards.plan(bank, context)
            run = shards.run(bank, strategy, context, plan, keep) if plan else \
                run_stages(bank, strategy, context, keep)
            return _finish(bank, strategy, context, run)
    finally:
        forget_shared()  # the links a dream made are its banks' to keep, not this process's


def newest(bank: Bank) -> datetime | None:
    """The time of the newest evidence among the bank's active memories (None: no times)."""
    return max((m.created_at for m in bank.active if m.created_at is not None), default=None)


@dataclass
class StagesRun:
    """What the stages made of a bank (or of one shard of it): the last bank, the provenance
    in order, each stage's own metrics, and before the first stage and after each, the active
    memories and their token parts."""

    bank: Bank
    provenance: list[list[ProvenanceEntry]]
    """One list per stage."""
    metrics: list[tuple[str, dict[str, Any]]]
    active: list[int]
    parts: list[list[TokenParts]]
    """Before the first stage and after each: the active lines' token parts (one per shard
    that has active memories)."""
    timings: dict[str, dict[str, float]] = field(default_factory=dict)
    shards: int = 1


def run_stages(bank: Bank, strategy: Strategy, context: Any, keep: Any,
               first_key: Any = None) -> StagesRun:
    """Run the stages in order; ``first_key`` orders the input's last active line among
    shards (None: its position in ``bank``)."""
    import time

    from dreamer import progress
    from dreamer.stages import STAGES

    active = bank.active
    run = StagesRun(bank, [], [], [len(active)], [token_parts(
        active, len(active) - 1 if first_key is None else first_key)])
    stages = list(strategy.stage_configs())
    step = progress.start(f"dream ({strategy.name})", len(stages))
    for name, config in stages:
        cpu, wall = time.process_time(), time.perf_counter()
        result = STAGES.get(name)(config).run(run.bank, context)
        took = run.timings.setdefault(name, {"cpu": 0.0, "wall": 0.0})
        took["cpu"] += time.process_time() - cpu
        took["wall"] += time.perf_counter() - wall
        step.advance(detail=name)
        run.bank = result.bank
        active = result.bank.active
        run.metrics.append((name, result.metrics))
        run.active.append(len(active))
        run.parts.append(token_parts(active, active[-1].id if active else None))
        run.provenance.append(list(result.provenance))
        keep()
    return run


def _finish(bank: Bank, strategy: Strategy, context: Any, run: StagesRun) -> DreamResult:
    from dreamer.lm import lm_name

    tokens = [tokens_of(p) for p in run.parts]
    stage_metrics = {
        name: {**own, "active_memories": {"before": run.active[i], "after": run.active[i + 1]},
               "active_tokens": {"before": tokens[i], "after": tokens[i + 1]}}
        for i, (name, own) in enumerate(run.metrics)
    }
    lm_usage = _lm_usage(context)
    if context.lm_usage is not None:
        context.lm_usage.check(f"the dream of {bank.id} with strategy {strategy.name}")
    repos = {m.id: m.scope.repo or "" for m in run.bank.memories}

    def repo(entry: ProvenanceEntry) -> str:
        return repos.get(entry.output or (entry.inputs[0] if entry.inputs else ""), "")

    # Each stage's entries by repository (stable): one order whether or not it ran in shards.
    provenance = [entry for stage in run.provenance for entry in sorted(stage, key=repo)]
    touched = {i for entry in provenance for i in entry.inputs}
    provenance.extend(
        ProvenanceEntry(stage="pipeline", action="kept", inputs=(m.id,), output=m.id,
                        reason="no stage changed it")
        for m in sorted(bank.memories, key=lambda m: m.id) if m.id not in touched
    )
    origin = BankOrigin(
        kind="dream",
        config={"strategy": strategy.model_dump(mode="json"), "lm": lm_name(context.lm),
                "lm_usage": lm_usage},
        config_hash=strategy.config_hash(),
        note=f"dream of {bank.id} with strategy {strategy.name}",
    )
    candidate = Bank(repo=bank.repo, parent_id=bank.id, origin=origin,
                     memories=tuple(sorted(run.bank.memories, key=lambda m: m.id)))
    metrics = {
        "strategy": strategy.name,
        "config_hash": strategy.config_hash(),
        "active_memories": {"before": run.active[0], "after": len(candidate.active)},
        "active_tokens": {"before": tokens[0], "after": tokens[-1]},
        "memories": len(candidate.memories),
        "stages": stage_metrics,
        "lm_usage": lm_usage,
    }
    prov = tuple(provenance)
    return DreamResult(candidate, BankDiff.between(bank, candidate, prov), prov, metrics,
                       run.timings, run.shards)


def _lm_usage(context: Any) -> dict[str, Any]:
    """The LM calls, failures and fallbacks of the dream (all zero offline)."""
    if context.lm_usage is None:
        return {"model": None, "calls": 0, "failures": 0, "fallbacks": 0}
    return dict(context.lm_usage.as_dict())


def store_dream(store: Any, result: DreamResult, alias: str | None = "candidate") -> Path:
    """Keep the candidate bank, its diff and provenance under ``<home>/dreams/``, and move
    ``alias`` (None: no alias moves, as for ablation runs). Returns the report's path.

    The report is written first, whole (to a temporary file renamed into place), then the bank
    and the alias move commit in one transaction: a dream killed at any moment leaves either no
    new bank and alias (at most a report no bank names, which the next dream of the same bank
    rewrites) or all three.
    """
    path = report_path(result.bank.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The diff as pydantic writes it: a dump then ``json.dumps`` took 2.8 s of a 100K dream.
    metrics = json.dumps(result.metrics, indent=1, default=str)
    text = f'{{"diff": {result.diff.model_dump_json(indent=1)},\n "metrics": {metrics}}}\n'
    _write_whole(path, text)
    if alias:
        store.banks.put_and_move(result.bank, alias, repo=result.bank.repo,
                                 reason=f"dream with strategy {result.metrics['strategy']}",
                                 actor="dream")
    else:
        store.banks.put(result.bank)
    return path


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the whole new one."""
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def report_path(bank_id: str) -> Path:
    """Where a dream's diff and provenance are kept."""
    return settings.home() / "dreams" / f"{bank_id}.json"


def load_provenance(bank_id: str) -> tuple[ProvenanceEntry, ...]:
    """The stored provenance of the dream that made ``bank_id`` (empty if none is kept)."""
    path = report_path(bank_id)
    if not path.is_file():
        return ()
    diff = json.loads(path.read_text(encoding="utf-8"))["diff"]
    return tuple(ProvenanceEntry.model_validate(e) for e in diff.get("provenance", ()))


def trace(before: Bank, after: Bank,
          provenance: tuple[ProvenanceEntry, ...] = ()) -> dict[str, Any]:
    """Where each memory of ``before`` went in ``after``, and what each new memory came from.

    Read from the banks themselves (status, ``superseded_by`` links, lineage); ``provenance``
    adds the reasons when it is known.
    """
    new = {m.id: m for m in after.memories}
    reasons: dict[str, str] = {}
    for entry in provenance:
        for i in entry.inputs:
            reasons.setdefault(i, f"{entry.stage}: {entry.reason}")
    inputs = []
    for memory in sorted(before.memories, key=lambda m: m.id):
        now = new.get(memory.id)
        row: dict[str, Any] = {"memory": memory.id, "summary": memory.summary}
        if now is None:
            row |= {"fate": "missing"}
        elif now.status is MemoryStatus.SUPERSEDED:
            target = _follow(now.id, new)
            by = next((link.target for link in now.links if link.relation == "superseded_by"), "")
            via = new.get(by, now)
            merged = memory.id in via.lineage.parents
            fate = ("merged" if len(via.lineage.parents) > 1 else "rewritten") if merged \
                else "superseded"
            commit = next((link.target for link in now.links
                           if link.relation == "changed_in"), None)
            row |= {"fate": fate, "into": target, "stage": via.lineage.stage if merged else
                    "conflicts", "changed_in": commit}
        elif now.status is MemoryStatus.DORMANT and memory.is_active:
            row |= {"fate": "dormant"}
        else:
            row |= {"fate": "kept" if now.status == memory.status else now.status.value}
        row["reason"] = reasons.get(memory.id, "")
        inputs.append(row)
    old = {m.id for m in before.memories}
    outputs = [
        {"memory": m.id, "summary": m.summary, "status": m.status.value,
         "inputs": list(m.lineage.parents), "stage": m.lineage.stage, "reason": m.lineage.reason}
        for m in sorted(after.memories, key=lambda m: m.id) if m.id not in old
    ]
    counts: dict[str, int] = {}
    for row in inputs:
        counts[row["fate"]] = counts.get(row["fate"], 0) + 1
    counts["created"] = len(outputs)
    return {"before": before.id, "after": after.id, "counts": counts,
            "inputs": inputs, "outputs": outputs}


def _follow(memory_id: str, memories: dict[str, Any]) -> str:
    """The active memory a chain of ``superseded_by`` links ends at (or where it stops)."""
    seen = {memory_id}
    current = memories[memory_id]
    while current.status is MemoryStatus.SUPERSEDED:
        nxt = next((link.target for link in current.links
                    if link.relation == "superseded_by"), None)
        if nxt is None or nxt in seen or nxt not in memories:
            break
        seen.add(nxt)
        current = memories[nxt]
    return str(current.id)
