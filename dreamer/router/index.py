"""A bank prepared for retrieval: ids computed once, split by repository, indexes built lazily.

Memory and bank ids are content hashes recomputed on every access of the pydantic models; at
100K memories that costs seconds, so a ``BankIndex`` computes them once and everything else works
on positions into the bank's memory tuple.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from dreamer.embeddings import text_of
from dreamer.models import Bank, Memory
from dreamer.router.graph import LinkGraph
from dreamer.router.lexical import LexicalIndex, memory_text
from dreamer.router.packing import line_floor
from dreamer.router.rerank import as_utc
from dreamer.router.scope import RepoPartition, partition

if TYPE_CHECKING:
    from dreamer.router.vectors import VectorIndex


@dataclass
class BuildTimes:
    """Seconds spent building each part of an index (reported by the benchmark)."""

    prepare: float = 0.0
    lexical: float = 0.0
    graph: float = 0.0
    vectors: float = 0.0
    embedded: int = 0
    """Memories embedded by this process (0 when the collection already existed)."""


@dataclass
class BankIndex:
    """Everything the router precomputes about one bank version."""

    bank: Bank
    bank_id: str
    memories: tuple[Memory, ...]
    ids: tuple[str, ...]
    texts: tuple[str, ...]
    partitions: dict[str, RepoPartition]
    position: dict[str, int]
    """Memory id -> position in ``memories`` (first occurrence)."""
    reference: datetime | None
    """The newest time in the bank: freshness is measured from here, not from the wall clock."""
    times: BuildTimes = field(default_factory=BuildTimes)
    _graph: LinkGraph | None = None
    _vectors: dict[tuple[str, str], VectorIndex] = field(default_factory=dict)
    _embedded: set[tuple[tuple[str, str], str]] = field(default_factory=set)
    _floors: dict[int, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def line_floor(self, position: int) -> int:
        """``packing.line_floor`` of the memory at ``position``, counted once per bank."""
        floor = self._floors.get(position)
        if floor is None:
            floor = self._floors[position] = line_floor(self.memories[position])
        return floor

    @classmethod
    def build(cls, bank: Bank) -> BankIndex:
        started = time.perf_counter()
        memories = bank.memories
        ids = tuple(m.id for m in memories)
        texts = tuple(
            memory_text(m.summary, m.conditions, [c.path for c in m.citations if c.path])
            for m in memories
        )
        stamps = [t for m in memories
                  for t in (m.created_at, m.last_verified.at if m.last_verified else None)
                  if t is not None]
        index = cls(
            bank=bank, bank_id=bank.id, memories=memories, ids=ids, texts=texts,
            position={mid: i for i, mid in reversed(list(enumerate(ids)))},
            partitions=partition(memories),
            reference=max((as_utc(t) for t in stamps), default=None),
        )
        index.times.prepare = time.perf_counter() - started
        return index

    def lexical(self, part: RepoPartition) -> LexicalIndex:
        """The BM25 index of one repository partition, built on first use."""
        with self._lock:
            if part.lexical is None:
                started = time.perf_counter()
                part.lexical = LexicalIndex([self.texts[p] for p in part.positions])
                self.times.lexical += time.perf_counter() - started
            return part.lexical

    def graph(self) -> LinkGraph:
        with self._lock:
            if self._graph is None:
                started = time.perf_counter()
                self._graph = LinkGraph.build(self.memories, self.ids)
                self.times.graph = time.perf_counter() - started
            return self._graph

    def vectors(self, part: RepoPartition, kind: str, url: str | None) -> VectorIndex:
        """The bank's Chroma collections on the given client, with ``part``'s repository
        embedded (on first use)."""
        from dreamer import settings
        from dreamer.router.vectors import VectorIndex, chroma_client

        key = (kind, str(settings.chroma_path()) if kind == "persistent" else url or "")
        with self._lock:
            vectors = self._vectors.get(key)
            if vectors is None:
                vectors = self._vectors[key] = VectorIndex(chroma_client(kind, url), self.bank_id)
            if (key, part.repo) not in self._embedded:
                started = time.perf_counter()
                # The vector leg embeds the dream's text of a memory: one vector per memory,
                # shared with the dream through the embedding cache (BM25 reads paths too).
                self.times.embedded += vectors.ensure(
                    part.repo, [self.ids[p] for p in part.positions],
                    [text_of(self.memories[p].summary, self.memories[p].conditions)
                     for p in part.positions],
                )
                self.times.vectors += time.perf_counter() - started
                self._embedded.add((key, part.repo))
            return vectors

    def warm(self, *, embeddings: bool, kind: str = "persistent", url: str | None = None) -> None:
        """Build every index now (the benchmark and long-running servers call this)."""
        for part in self.partitions.values():
            self.lexical(part)
        self.graph()
        if embeddings:
            for part in self.partitions.values():
                self.vectors(part, kind, url)
