"""Content-hash ids: stable across runs and machines, sensitive to content, blind to order."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from dreamer.models import (
    Bank,
    BankDiff,
    Citation,
    CitationKind,
    Memory,
    MemoryStatus,
    MemoryType,
    Scope,
    Session,
    Usage,
)


def fact(summary: str = "Order status is stored through LEGACY_STATUS_CODES") -> Memory:
    return Memory(
        type=MemoryType.DOMAIN,
        scope=Scope(repo="acme/shop", module="src/shop/orders"),
        summary=summary,
        citations=(
            Citation(kind=CitationKind.FILE, ref="src/shop/orders.py", path="src/shop/orders.py",
                     start_line=40, end_line=44, lines_sha256="ab" * 32, commit="c0ffee"),
            Citation(kind=CitationKind.TEST, ref="tests/test_orders.py::test_status_persisted"),
        ),
        created_at=datetime(2026, 3, 1, tzinfo=UTC),
    )


def test_memory_id_is_pinned() -> None:
    # A change of this value breaks every stored bank's id: it must never change by accident.
    assert fact().id == "mem_3a74a7e34baa1d7fe36d7245"


def test_ids_are_the_same_in_a_fresh_interpreter() -> None:
    code = (
        "import sys; from dreamer.models import Bank, Memory;"
        "m = Memory.model_validate_json(sys.argv[1]); print(m.id, Bank(memories=(m,)).id)"
    )
    out = subprocess.run([sys.executable, "-c", code, fact().model_dump_json()],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "123"})
    assert out.stdout.split() == [fact().id, Bank(memories=(fact(),)).id]


def test_memory_id_ignores_state_but_the_bank_id_does_not() -> None:
    a = fact()
    b = a.model_copy(update={"status": MemoryStatus.DORMANT, "usage": Usage(helped=3)})
    assert a.id == b.id
    assert Bank(memories=(a,)).id != Bank(memories=(b,)).id
    # Usage is observed while serving, not part of a bank's content.
    c = a.model_copy(update={"usage": Usage(retrieved=9)})
    assert Bank(memories=(a,)).id == Bank(memories=(c,)).id


def test_a_copy_keeps_only_the_hashes_its_changes_leave_valid() -> None:
    a = fact()
    before = (a.id, a.state_hash())
    moved = a.model_copy(update={"status": MemoryStatus.DORMANT})
    assert "id" in moved.__dict__ and "_state_hash" not in moved.__dict__
    fresh = Memory.model_validate(moved.model_dump(exclude={"id"}))  # nothing cached
    assert moved.id == fresh.id == before[0]
    assert moved.state_hash() == fresh.state_hash() != before[1]
    reworded = a.model_copy(update={"summary": "Payments reserve stock first"})
    assert reworded.id == fact("Payments reserve stock first").id != a.id
    bank = Bank(memories=(a,))
    assert bank.model_copy(update={"repo": "acme/shop"}).id == bank.id
    assert bank.model_copy(update={"memories": (moved,)}).id == Bank(memories=(moved,)).id \
        != bank.id


def test_bank_id_is_order_blind_and_content_sensitive() -> None:
    one, two = fact(), fact("Payments reserve stock and create the fulfilment together")
    assert Bank(memories=(one, two)).id == Bank(memories=(two, one)).id
    assert Bank(memories=(one,)).id != Bank(memories=(one, two)).id


def test_a_memory_without_citation_is_invalid() -> None:
    with pytest.raises(ValidationError):
        Memory(type="domain", scope=Scope(repo="r"), summary="x", citations=())


def test_models_are_frozen() -> None:
    with pytest.raises(ValidationError):
        fact().summary = "changed"  # type: ignore[misc]


def test_session_ids_depend_on_file_and_ordinal() -> None:
    assert Session.make_id("a" * 64, 0) == Session.make_id("a" * 64, 0)
    assert Session.make_id("a" * 64, 0) != Session.make_id("a" * 64, 1)


def test_diff_between_versions() -> None:
    one, two = fact(), fact("another")
    dormant = one.model_copy(update={"status": MemoryStatus.DORMANT})
    diff = BankDiff.between(Bank(memories=(one,)), Bank(memories=(dormant, two)))
    assert diff.added == (two.id,)
    assert diff.removed == ()
    assert diff.status_changed == ((one.id, "active", "dormant"),)


def test_json_round_trip_checks_the_id() -> None:
    bank = Bank(repo="acme/shop", memories=(fact(),))
    assert Bank.model_validate_json(bank.model_dump_json()) == bank
    body = fact().model_dump(mode="json")
    body["summary"] = "tampered"
    with pytest.raises(ValidationError, match="does not match the content"):
        Memory.model_validate(body)
    assert body["id"] == fact().id  # the caller's dict is left as it was


def test_memories_read_back_share_equal_values_and_keep_their_ids() -> None:
    """A bank read from the store holds one object per distinct scope, usage, underived
    lineage and link, not one per memory; content and ids are those written."""
    from dreamer.models import Lineage, Link

    made = [fact(f"Order status {n} is stored through LEGACY_STATUS_CODES").model_copy(
        update={"links": (Link(relation="symbol", target="LEGACY_STATUS_CODES"),)})
        for n in range(3)]
    derived = fact("Refunds use REFUND_CODES").model_copy(
        update={"lineage": Lineage(parents=(made[0].id,), stage="dedupe")})
    bank = Bank(repo="acme/shop", memories=(*made, derived))
    read = Bank.model_validate_json(bank.model_dump_json())
    assert read.id == bank.id and read.model_dump() == bank.model_dump()
    memories = read.memories
    for name in ("scope", "usage"):
        assert len({id(getattr(m, name)) for m in memories}) == 1, name
    linked = [m for m in memories if m.links]
    assert len(linked) == 3 and len({id(m.links[0]) for m in linked}) == 1
    underived = [m for m in memories if not m.lineage.parents]
    assert len({id(m.lineage) for m in underived}) == 1
    assert next(m for m in memories if m.lineage.parents).lineage.parents == (made[0].id,)
