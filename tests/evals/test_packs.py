"""The bank as of a task's opening: only memories strictly older, each counted when left out, and
a memory that only a later one replaced still standing (nothing had replaced it yet)."""

from __future__ import annotations

from datetime import UTC, datetime

from dreamer.models import (
    Bank,
    BankOrigin,
    Citation,
    CitationKind,
    Link,
    Memory,
    MemoryStatus,
    MemoryType,
    Scope,
)
from evals.packs import as_of


def _memory(summary: str, day: int | None, **extra: object) -> Memory:
    return Memory(type=MemoryType.DOMAIN, scope=Scope(repo="acme/depot"), summary=summary,
                  citations=(Citation(kind=CitationKind.SESSION, ref=f"ses_{summary[:4]}:1"),),
                  created_at=datetime(2026, 3, day, tzinfo=UTC) if day else None, **extra)


def test_as_of_keeps_older_memories_counts_the_rest_and_restores_what_only_later_replaced(
) -> None:
    new = _memory("Same-day cut-off is exclusive: `SAME_DAY_CUTOFF` with `<`.", 10)
    old = _memory("Same-day cut-off is inclusive: `SAME_DAY_CUTOFF` with `<=`.", 2,
                  status=MemoryStatus.SUPERSEDED,
                  links=(Link(relation="superseded_by", target=new.id),
                         Link(relation="changed_in", target="commit:8f45c20")))
    merged = _memory("Run `build_routes` after editing `routes.csv`.", 4)
    part = _memory("Regenerate the index with `build_routes`.", 3, status=MemoryStatus.SUPERSEDED,
                   links=(Link(relation="superseded_by", target=merged.id),))
    untimed = _memory("Untimed `THING`.", None)
    bank = Bank(origin=BankOrigin(kind="extraction"), memories=(new, old, merged, part, untimed))

    cut = as_of(bank, datetime(2026, 3, 5, tzinfo=UTC))
    assert (cut.later, cut.untimed) == (1, 1)
    kept = {m.id: m for m in cut.bank.memories}
    assert set(kept) == {old.id, merged.id, part.id}
    # On 5 March the exclusive rule did not exist yet: the inclusive one held.
    assert kept[old.id].is_active
    assert {link.relation for link in kept[old.id].links} == {"changed_in"}
    # A merge made before the cut still stands for its parts.
    assert not kept[part.id].is_active
    # After the change the newer rule alone is current.
    assert not {m.id for m in as_of(bank, datetime(2026, 3, 11, tzinfo=UTC)).bank.active} & {
        old.id}
