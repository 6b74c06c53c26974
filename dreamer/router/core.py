"""The router: scope -> hybrid candidates -> rerank -> verify -> pack, for one query.

``Router`` keeps built indexes in process (an LRU by bank), so repeated recalls on one bank only
query. It works on a ``Bank`` in memory; given a store, it also reads usage counts for reranking
and appends what each recall served and verified.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from dreamer.models import Bank, Memory, MemoryPack, Usage, Verification
from dreamer.router.config import RouterConfig
from dreamer.router.errors import RouterError
from dreamer.router.feedback import (
    RecallRecord,
    Signal,
    record_feedback,
    record_recalls,
    usage_counts,
)
from dreamer.router.index import BankIndex
from dreamer.router.packing import Offer, line_cost, pack_offers, render
from dreamer.router.rerank import Scored, fuse, rerank
from dreamer.router.scope import RepoPartition, ScopeQuery, in_scope
from dreamer.router.verify import MemoryCheck, State, Verifier, head_commit
from dreamer.router.writer import RecordWriter

if TYPE_CHECKING:
    from dreamer.store import Store

log = logging.getLogger(__name__)


class RecallResult(BaseModel):
    """One recall: the pack, how each packed memory's citations fared, and notes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bank_id: str
    scope: dict[str, str | None]
    pack: MemoryPack
    memory_ids: tuple[str, ...] = ()
    """Ids of the packed memories, in pack order."""
    checks: dict[str, MemoryCheck] = {}
    """Verification of each packed memory, by memory id (empty without a checkout)."""
    candidates: int = 0
    """How many scoped memories were ranked before packing."""
    notes: tuple[str, ...] = ()
    """What did not go to plan (a leg that failed and was skipped), for the caller to see."""

    def to_json(self) -> dict[str, Any]:
        """Structured data for agents: each memory with its verification and current citations."""
        memories = []
        for item, mid in zip(self.pack.items, self.memory_ids, strict=True):
            memory = item.memory
            check = self.checks.get(mid)
            citations = check.current_citations if check else memory.citations
            memories.append({
                "id": mid, "type": memory.type.value, "summary": memory.summary,
                "conditions": list(memory.conditions),
                "scope": memory.scope.model_dump(mode="json"),
                "confidence": memory.confidence, "score": item.score, "tokens": item.tokens,
                "verification": item.verification,
                "citations": [c.model_dump(mode="json", exclude_none=True) for c in citations],
                "moved": [c.model_dump(mode="json", exclude_none=True)
                          for c in (check.citations if check else ()) if c.state == "relocated"],
            })
        return {
            "bank": self.bank_id, "query": self.pack.query, "scope": self.scope,
            "budget": self.pack.budget, "tokens": self.pack.tokens, "text": self.pack.text,
            "candidates": self.candidates, "memories": memories, "notes": list(self.notes),
        }


class Router:
    """Retrieval over banks, configured once; thread-safe; indexes cached per bank.

    With ``background_records``, what a recall served and verified is written to the store by
    one background thread once no recall is being answered (``dreamer.router.writer``: a
    server's latency need not include the inserts, nor a burst of recalls compete with them);
    ``flush()`` writes everything pending, and the server calls it before it closes the store.
    """

    def __init__(self, config: RouterConfig | None = None, store: Store | None = None,
                 background_records: bool = False) -> None:
        self.config = config or RouterConfig.from_env()
        self.store = store
        self._indexes: OrderedDict[str, BankIndex] = OrderedDict()
        self._by_object: dict[int, tuple[Bank, BankIndex]] = {}
        self._verifier = Verifier()
        self._lines: dict[tuple[str, State], str] = {}
        self._lock = threading.RLock()
        self._writer = RecordWriter(partial(record_recalls, store)) \
            if background_records and store is not None else None

    def variant(self, **config: Any) -> Router:
        """A router with these config fields changed, sharing this one's store and record
        writer (so one ``flush`` covers both)."""
        other = Router(self.config.model_copy(update=config), store=self.store)
        other._writer = self._writer
        return other

    def flush(self) -> None:
        """Write every recall's pending records now (a write's error is raised here)."""
        if self._writer is not None:
            self._writer.flush()

    def index(self, bank: Bank) -> BankIndex:
        """The built index of ``bank``, cached by object and by content id."""
        with self._lock:
            hit = self._by_object.get(id(bank))
            # Entries hold their bank, so an object id in the map is never reused while cached.
            if hit is not None and hit[0] is bank:
                self._indexes.move_to_end(hit[1].bank_id)
                return hit[1]
            # The same content loaded again (another object): its index, not a new one.
            index = self._indexes.get(bank.id) or BankIndex.build(bank)
            self._indexes[index.bank_id] = index
            self._indexes.move_to_end(index.bank_id)
            self._by_object[id(bank)] = (bank, index)
            while len(self._indexes) > self.config.index_cache:
                self._indexes.popitem(last=False)
            live = {id(i) for i in self._indexes.values()}
            for key in [k for k, (_, i) in self._by_object.items() if id(i) not in live]:
                del self._by_object[key]
            while len(self._by_object) > 4 * self.config.index_cache:
                self._by_object.pop(next(iter(self._by_object)))
            return index

    def recall(
        self, bank: Bank, query: str, *, repo: str, branch: str | None = None,
        module: str | None = None, phase: str | None = None, budget: int | None = None,
        checkout: Path | str | None = None, task_id: str | None = None, record: bool = True,
    ) -> RecallResult:
        """Scoped, ranked, verified memories of ``bank`` for ``query``, packed into ``budget``."""
        with self._writer.busy() if self._writer is not None else nullcontext():
            return self._recall(bank, query, repo=repo, branch=branch, module=module,
                                phase=phase, budget=budget, checkout=checkout, task_id=task_id,
                                record=record)

    def _recall(
        self, bank: Bank, query: str, *, repo: str, branch: str | None, module: str | None,
        phase: str | None, budget: int | None, checkout: Path | str | None,
        task_id: str | None, record: bool,
    ) -> RecallResult:
        scope = ScopeQuery(repo=repo, branch=branch, module=module, phase=phase)
        index = self.index(bank)
        notes: list[str] = []
        ranked = self._rank(index, query, scope, notes)
        root = Path(checkout).expanduser().resolve() if checkout is not None else None
        commit = head_commit(root) if root is not None else None
        offers, checks = self._offers(index, ranked, root, commit, budget)
        packed = pack_offers(query, offers, budget)
        pack = packed.pack
        if self.store is not None and record:
            done = RecallRecord(tuple(packed.memory_ids), tuple(checks.values()),
                                index.bank_id, repo, root, commit, task_id)
            if self._writer is None:
                record_recalls(self.store, [done])
            else:
                self._writer.submit(done)
        return RecallResult(
            bank_id=index.bank_id, pack=pack, memory_ids=packed.memory_ids,
            candidates=len(ranked), notes=tuple(notes),
            scope={"repo": repo, "branch": branch, "module": module, "phase": phase,
                   "checkout": str(root) if root else None},
            checks={mid: checks[mid] for mid in packed.memory_ids if mid in checks},
        )

    def pack(self, bank: Bank, query: str, **kwargs: Any) -> MemoryPack:
        """``recall(...).pack``."""
        return self.recall(bank, query, **kwargs).pack

    def feedback(
        self, memory_ids: list[str], signal: Signal, *, bank_id: str | None = None,
        repo: str | None = None, task_id: str | None = None, source: str = "agent",
    ) -> int:
        """Record that memories helped or hurt a task (needs a store)."""
        if self.store is None:
            raise RouterError("feedback needs a store: build the Router with store=open_store()")
        return record_feedback(self.store, memory_ids, signal, bank_id=bank_id, repo=repo,
                               task_id=task_id, source=source)

    # ------------------------------------------------------------------ steps

    def _rank(
        self, index: BankIndex, query: str, scope: ScopeQuery, notes: list[str]
    ) -> list[Scored]:
        config = self.config
        part = index.partitions.get(scope.repo)
        if part is None:
            return []
        local = part.allowed(scope, config.statuses)
        allowed = {part.positions[i] for i in local}
        rankings: list[list[int]] = []
        weights: list[float] = []
        if config.lexical and query.strip():
            hits = index.lexical(part).search(query, local, config.candidates)
            rankings.append([part.positions[h.index] for h in hits])
            weights.append(1.0)
        if config.embeddings and query.strip():
            rankings.append(self._vector_leg(index, part, query, allowed, notes))
            weights.append(1.0)
        if config.graph and config.graph_seeds and (graph := index.graph()) and not graph.empty:
            seeds = sorted(fuse(rankings, config.rrf_k).items(), key=lambda kv: (-kv[1], kv[0]))
            near = graph.neighbours([p for p, _ in seeds[:config.graph_seeds]], allowed,
                                    config.candidates)
            named = graph.mentioned(query, allowed, config.candidates)
            rankings.append(list(dict.fromkeys(named + near)))
            weights.append(config.graph_weight)
        fused = fuse(rankings, config.rrf_k, weights)
        if len(allowed) <= config.fill_below:
            for position in allowed:
                fused.setdefault(position, 0.0)
        # The partition already holds only this repository; this guard makes a leak impossible
        # even if an index were wrong, at the cost of one check per candidate.
        fused = {p: s for p, s in fused.items() if p in allowed and in_scope(
            index.memories[p], scope.repo, scope.branch, scope.module, scope.phase)}
        return rerank(fused, index.memories, index.ids, self._usage(index, fused), index.reference,
                      config)

    def _vector_leg(
        self, index: BankIndex, part: RepoPartition, query: str, allowed: set[int],
        notes: list[str],
    ) -> list[int]:
        try:
            vectors = index.vectors(part, self.config.chroma, self.config.chroma_url)
            # Fetch more than needed: hits outside the branch/module/phase scope are dropped.
            hits = vectors.search(query, part.repo, min(len(part.positions),
                                                        self.config.candidates * 2))
        except Exception as exc:  # a vector store failure must not take recall down with it
            log.warning("vector leg skipped: %s", exc)
            notes.append(f"vector leg skipped ({type(exc).__name__}: {exc}); BM25 and graph only")
            return []
        positions = (index.position.get(h.memory_id) for h in hits)
        return [p for p in positions if p is not None and p in allowed][: self.config.candidates]

    def _usage(self, index: BankIndex, fused: dict[int, float]) -> dict[str, Usage]:
        usage = {index.ids[p]: index.memories[p].usage for p in fused}
        if self.store is not None and usage:
            for mid, obs in usage_counts(self.store, list(usage)).items():
                own = usage[mid]
                usage[mid] = Usage(retrieved=own.retrieved + obs.retrieved,
                                   helped=own.helped + obs.helped, hurt=own.hurt + obs.hurt)
        return usage

    def _offers(
        self, index: BankIndex, ranked: list[Scored], root: Path | None, commit: str | None,
        budget: int | None,
    ) -> tuple[list[Offer], dict[str, MemoryCheck]]:
        """Verify in rank order and order for packing: every non-stale memory first, then the
        stale ones (demoted, marked). Verification stops once the non-stale memories already
        fill the budget: what ranks below could not be packed anyway."""
        fresh: list[Offer] = []
        stale: list[Offer] = []
        checks: dict[str, MemoryCheck] = {}
        names: dict[str, list[Path]] = {}  # the checkout's file names, walked at most once
        filled = 0
        # floors[i]: the least any memory ranked i or below can cost; once what is left of the
        # budget is below it, nothing further could be packed, verified or not.
        floors = [0] * (len(ranked) + 1)
        if budget is not None:
            floors[-1] = budget + 1
            for i in range(len(ranked) - 1, -1, -1):
                floors[i] = min(floors[i + 1], index.line_floor(ranked[i].position))
        with self._lock:  # the verifier's file cache is shared between threads
            for i, scored in enumerate(ranked):
                if budget is not None and budget - filled < floors[i] + (1 if filled else 0):
                    break
                memory: Memory = index.memories[scored.position]
                if root is None:
                    offer = Offer(memory, scored.memory_id, scored.score, "unchecked",
                                  memory.citations, rendered=self._line(memory, scored.memory_id,
                                                                        "unchecked"))
                else:
                    check = self._verifier.check(memory, scored.memory_id, root, names)
                    checks[scored.memory_id] = check
                    current = check.current_citations
                    own = current == memory.citations  # not relocated: the memory's own line
                    offer = Offer(
                        memory, scored.memory_id, scored.score, check.state, current,
                        verified=None if check.state == "unchecked" else Verification(
                            commit=commit, state=check.state),
                        rendered=self._line(memory, scored.memory_id, check.state) if own
                        else None)
                if offer.state == "stale":
                    stale.append(offer)
                    continue
                fresh.append(offer)
                cost = line_cost(offer, first=filled == 0)
                # Only what the packer can take counts: one oversized memory at the top must
                # not end verification before the smaller ones below it are offered.
                if budget is None or filled + cost <= budget:
                    filled += cost
        return fresh + (stale if self.config.include_stale else []), checks

    def _line(self, memory: Memory, memory_id: str, state: State) -> str:
        """``memory``'s line with its own citations in ``state``, rendered once per process
        (the id is a content hash: the same id renders the same line). Call under the lock."""
        key = (memory_id, state)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = render(memory, state, memory.citations)
            if len(self._lines) > 65_536:
                self._lines.pop(next(iter(self._lines)))
        return line
