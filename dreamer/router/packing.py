"""Packing: the ranked, verified memories that fit a token budget, as prompt text and data.

Tokens are counted with litellm's bundled tokenizer (``dreamer.tokens``). Each line is counted
once (and cached), plus one token per separating newline; the joined text is then counted
exactly, and if a tokenizer merge ever made it exceed the budget, the last line is dropped until
it fits. So ``pack.tokens <= budget`` always holds, and counting stays linear in the pack size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from dreamer.models import Citation, Memory, MemoryPack, PackedMemory, Verification
from dreamer.router.verify import State
from dreamer.tokens import count_tokens

STALE_MARKER = "UNVERIFIED (cited code changed)"
"""Prefix of a stale memory's line: it is shown as a lead to check, never as fact."""


def cite(citation: Citation) -> str:
    """A citation in compact form: ``file:path:10-14``, ``test:tests/x.py::test_y``, ..."""
    if citation.path and citation.start_line:
        end = citation.end_line or citation.start_line
        return f"{citation.kind.value}:{citation.path}:{citation.start_line}-{end}"
    return f"{citation.kind.value}:{citation.path or citation.ref}"


def render(
    memory: Memory, state: State = "unchecked", citations: Sequence[Citation] | None = None
) -> str:
    """One memory as prompt text: type, summary, conditions and compact citations.

    ``citations`` replaces the memory's own (verification passes relocated ones); a ``stale``
    memory is prefixed with ``STALE_MARKER``.
    """
    shown = shown_citations(citations if citations is not None else memory.citations)
    cites = "; ".join(cite(c) for c in shown)
    hidden = len(citations if citations is not None else memory.citations) - len(shown)
    if hidden:
        cites += f"; +{hidden} more"
    marker = f"{STALE_MARKER} " if state == "stale" else ""
    return f"- {marker}{_head(memory)} [{cites}]"


def _head(memory: Memory) -> str:
    when = f" (when: {'; '.join(memory.conditions)})" if memory.conditions else ""
    return f"[{memory.type.value}] {memory.summary}{when}"


def line_floor(memory: Memory) -> int:
    """A lower bound of the tokens ``memory``'s line costs, whatever its verification finds:
    the line without its citations (a marker or citations only add to it)."""
    return count_tokens(f"- {_head(memory)}")


PROMPT_CITATIONS = 3
"""Citations a memory shows in prompt text. A merged memory keeps every citation of its inputs,
but a prompt needs only the most telling ones: code, tests, reviews and defects before session
events. The structured pack still carries them all."""
_CITATION_ORDER = ("file", "test", "review", "defect", "commit", "session")


def shown_citations(citations: Sequence[Citation]) -> list[Citation]:
    """The citations a prompt shows, most telling first, at most ``PROMPT_CITATIONS``."""
    ranked = sorted(enumerate(citations),
                    key=lambda item: (_CITATION_ORDER.index(item[1].kind.value)
                                      if item[1].kind.value in _CITATION_ORDER else 99, item[0]))
    return [c for _, c in ranked[:PROMPT_CITATIONS]]


@dataclass(frozen=True)
class Offer:
    """A memory offered to the packer, in rank order."""

    memory: Memory
    memory_id: str
    score: float
    state: State
    citations: tuple[Citation, ...]
    verified: Verification | None = None
    """What verification found, set as the memory's ``last_verified`` if it is packed (most
    offers are not: copying every one would cost more than the check)."""
    rendered: str | None = None
    """Its line, when the caller already has it (the router keeps lines it rendered)."""

    @cached_property
    def line(self) -> str:
        """Its line of prompt text (rendered once: verification and packing both need it)."""
        return self.rendered or render(self.memory, self.state, self.citations)

    @cached_property
    def tokens(self) -> int:
        return count_tokens(self.line)


def line_cost(offer: Offer, first: bool = False) -> int:
    """Tokens an offer adds to a pack: its line, plus the newline before it unless first."""
    return offer.tokens + (0 if first else 1)


@dataclass(frozen=True)
class Packed:
    """The pack, and the ids of its memories in order (computing a memory id hashes it)."""

    pack: MemoryPack
    memory_ids: tuple[str, ...]


def pack_offers(query: str, offers: Sequence[Offer], budget: int | None) -> Packed:
    """Greedy packing, most valuable first; a memory too large for what is left is skipped
    so that smaller ones after it may still fit."""
    lines: list[str] = []
    items: list[PackedMemory] = []
    ids: list[str] = []
    used = 0
    for offer in offers:
        if budget is not None and used >= budget:
            break
        line = offer.line
        cost = line_cost(offer, first=not lines)
        if budget is not None and used + cost > budget:
            continue
        lines.append(line)
        used += cost
        memory = offer.memory if offer.verified is None else offer.memory.model_copy(
            update={"last_verified": offer.verified})  # an observation: not in id or hash
        items.append(PackedMemory(
            memory=memory, score=offer.score, tokens=cost, verification=offer.state,
        ))
        ids.append(offer.memory_id)
    text = "\n".join(lines)
    tokens = count_tokens(text)
    while budget is not None and tokens > budget and lines:
        lines.pop()
        items.pop()
        ids.pop()
        text = "\n".join(lines)
        tokens = count_tokens(text)
    pack = MemoryPack(query=query, budget=budget, items=tuple(items), text=text, tokens=tokens)
    return Packed(pack, tuple(ids))
