"""Bank versions are immutable and content-addressed; aliases move, and every move is recorded."""

from __future__ import annotations

import pytest

from dreamer.errors import BankIntegrityError, NotFoundError
from dreamer.models import Bank, BankOrigin, Citation, CitationKind, Memory, MemoryStatus, Scope
from dreamer.store import Store
from dreamer.store.schema import MemoryRecord


def memory(text: str, repo: str = "acme/shop", **kw: object) -> Memory:
    return Memory(
        type="domain", scope=Scope(repo=repo), summary=text,
        citations=(Citation(kind=CitationKind.SESSION, ref=f"ses_x:{len(text)}"),), **kw,
    )


def test_bank_round_trips_and_keeps_its_id(store: Store) -> None:
    bank = Bank(repo="acme/shop", origin=BankOrigin(kind="extraction", config={"k": 1}),
                memories=(memory("a"), memory("b", status=MemoryStatus.DORMANT)))
    assert store.banks.put(bank) == bank.id
    back = store.banks.get(bank.id)
    assert back.id == bank.id
    assert back.memories == bank.memories
    assert back.origin.config == {"k": 1}
    assert len(back.active) == 1


def test_storing_the_same_bank_twice_is_a_no_op(store: Store) -> None:
    bank = Bank(repo="acme/shop", memories=(memory("a"),))
    store.banks.put(bank)
    store.banks.put(bank)
    assert [r.id for r in store.banks.versions()] == [bank.id]


def test_versions_share_memory_rows(store: Store) -> None:
    first = Bank(repo="r", memories=(memory("a", repo="r"), memory("b", repo="r")))
    second = Bank(repo="r", parent_id=first.id,
                  memories=(*first.memories, memory("c", repo="r")))
    store.banks.put(first)
    store.banks.put(second)
    with store.sessions() as db:
        assert db.query(MemoryRecord).count() == 3
    assert store.banks.get(second.id).parent_id == first.id


def test_unknown_parent_is_refused(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.banks.put(Bank(repo="r", parent_id="bank_missing", memories=(memory("a"),)))


def test_the_same_memory_twice_is_refused(store: Store) -> None:
    m = memory("a")
    with pytest.raises(BankIntegrityError):
        store.banks.put(Bank(repo="r", memories=(m, m)))


def test_alias_moves_are_recorded_and_roll_back(store: Store) -> None:
    v1 = Bank(repo="acme/shop", memories=(memory("one"),))
    v2 = Bank(repo="acme/shop", parent_id=v1.id, memories=(memory("one"), memory("two")))
    store.banks.put(v1)
    store.banks.put(v2)
    store.banks.move_alias("production", v1.id, "acme/shop", reason="first", actor="test")
    store.banks.move_alias("production", v2.id, "acme/shop", reason="gate passed")
    assert store.banks.resolve("production", "acme/shop").id == v2.id
    back = store.banks.rollback("production", "acme/shop")
    assert (back.from_bank, back.to_bank) == (v2.id, v1.id)
    assert store.banks.alias("production", "acme/shop") == v1.id
    assert [m.reason for m in store.banks.history("production", "acme/shop")] == [
        "first", "gate passed", "rollback",
    ]


def test_aliases_are_per_repository(store: Store) -> None:
    a = Bank(repo="a", memories=(memory("x", repo="a"),))
    b = Bank(repo="b", memories=(memory("y", repo="b"),))
    store.banks.put(a)
    store.banks.put(b)
    store.banks.move_alias("production", a.id, "a")
    store.banks.move_alias("production", b.id, "b")
    assert store.banks.alias("production", "a") == a.id
    assert store.banks.alias("production", "b") == b.id
    assert store.banks.alias("production") is None
    with pytest.raises(NotFoundError):
        store.banks.rollback("production", "a")


def test_a_tampered_bank_is_detected(store: Store) -> None:
    bank = Bank(repo="r", memories=(memory("true fact", repo="r"),))
    store.banks.put(bank)
    with store.sessions.begin() as db:
        record = db.query(MemoryRecord).one()
        record.body = {**record.body, "summary": "a lie"}
    with pytest.raises(BankIntegrityError):
        store.banks.get(bank.id)


def test_a_bank_larger_than_one_statement_stores_and_reads_back(store: Store,
                                                                monkeypatch) -> None:
    import dreamer.store.banks as banks

    monkeypatch.setattr(banks, "_CHUNK", 3)  # rows per statement
    first = Bank(repo="r", memories=tuple(memory(f"fact {i}", repo="r") for i in range(4)))
    second = Bank(repo="r", parent_id=first.id, memories=(
        *first.memories[1:], *(memory(f"new fact {i}", repo="r") for i in range(6))))
    store.banks.put(first)
    store.banks.put(second)
    back = store.banks.get(second.id)
    assert back.id == second.id and back.memories == second.memories
    with store.sessions() as db:
        assert db.query(MemoryRecord).count() == 10  # the three shared memories stored once


@pytest.mark.slow
@pytest.mark.postgres
def test_a_bank_of_more_memories_than_postgresql_takes_parameters(postgres_database) -> None:  # type: ignore[no-untyped-def]
    from dreamer.store import open_store

    citation = (Citation(kind=CitationKind.SESSION, ref="ses_x:1"),)
    scope = Scope(repo="r")
    bank = Bank(repo="r", memories=tuple(
        Memory(type="domain", scope=scope, summary=f"fact {i}", citations=citation)
        for i in range(65_600)))  # more than the 65,535 parameters of one statement
    store = open_store(postgres_database())
    try:
        store.banks.put(bank)
        assert store.banks.get(bank.id).memories == bank.memories
    finally:
        store.close()


def test_a_bank_stored_by_an_earlier_version_reads_back_the_same(store: Store) -> None:
    from sqlalchemy import Text, cast, select, update

    # Earlier versions wrote each body through SQLAlchemy's JSON (Python's json: non-ASCII
    # characters escaped, other spacing); bodies are now pydantic's text.
    bank = Bank(repo="r", memories=(memory("Zürich's naïve café ✓", repo="r"),))
    store.banks.put(bank)
    with store.sessions.begin() as db:
        db.execute(update(MemoryRecord).values(
            body=bank.memories[0].model_dump(mode="json", exclude={"id"})))
    with store.sessions() as db:
        assert "\\u00fc" in db.scalar(select(cast(MemoryRecord.body, Text)))
    assert store.banks.get(bank.id).memories == bank.memories
