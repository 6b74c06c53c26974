"""Bank versions (immutable) and the per-repository aliases that point at them.

A bank's id is the hash of its memories, so storing the same bank twice is a no-op. Moving an
alias is the only mutation, and every move is recorded with its time, reason and actor, so a
rollback is a move back to the previous target.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Text, bindparam, cast, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from dreamer.collector import paused
from dreamer.errors import AmbiguousIdError, BankIntegrityError, NotFoundError
from dreamer.models import AliasMove, Bank, BankOrigin, Memory
from dreamer.store.evidence import _utc
from dreamer.store.schema import AliasMoveRow, AliasRow, BankMember, BankRow, MemoryRecord

GLOBAL_REPO = "*"
"""The alias namespace of banks that serve no single repository."""


class BankStore:
    """Immutable bank versions and their aliases."""

    def __init__(self, sessions: sessionmaker[DbSession]) -> None:
        self._sessions = sessions

    def put(self, bank: Bank) -> str:
        """Store ``bank`` and return its id. Every memory must cite its evidence."""
        _check(bank)
        for attempt in range(_RACE_RETRIES):
            try:
                with self._sessions.begin() as db, paused():
                    _put(db, bank)
                return bank.id
            except IntegrityError:
                if attempt == _RACE_RETRIES - 1:
                    raise
        return bank.id

    def put_and_move(
        self, bank: Bank, alias: str, repo: str | None = None, reason: str = "",
        actor: str = "", also: Callable[[DbSession], None] | None = None,
    ) -> AliasMove:
        """Store ``bank``, point ``alias`` at it and run ``also`` (more rows to record), all in
        one transaction: a run killed at any moment leaves either none of it or all of it."""
        _check(bank)
        for attempt in range(_RACE_RETRIES):
            try:
                with self._sessions.begin() as db, paused():
                    _put(db, bank)
                    db.flush()
                    move = _move(db, alias, bank.id, repo, reason, actor)
                    if also is not None:
                        also(db)
                return move
            except IntegrityError:
                # Another process stored the same bank (ids are content hashes) or the same
                # memory records between our look and our insert: the transaction rolled back
                # whole; done again, it finds them stored.
                if attempt == _RACE_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def get(self, bank_id: str) -> Bank:
        """A stored bank by full id or unique prefix; its content is checked against its id."""
        with self._sessions() as db, paused():
            row = self._row(db, bank_id)
            # The JSON text, parsed by pydantic as it validates (no dicts made in between).
            bodies = db.execute(
                select(cast(MemoryRecord.body, Text))
                .join(BankMember, BankMember.record_hash == MemoryRecord.record_hash)
                .where(BankMember.bank_id == row.id)
                .order_by(BankMember.position)
            ).scalars()
            memories = tuple(Memory.model_validate_json(body) for body in bodies)
            bank = Bank(
                repo=row.repo,
                parent_id=row.parent_id,
                origin=BankOrigin.model_validate(row.origin),
                created_at=_utc(row.created_at),
                memories=memories,
            )
            if bank.id != row.id:
                raise BankIntegrityError(
                    f"bank {row.id} reads back with content hash {bank.id}: the store was altered"
                )
        return bank

    def resolve(self, ref: str, repo: str | None = None) -> Bank:
        """A bank by alias (for ``repo``, or the global namespace) or by id or id prefix."""
        target = self.alias(ref, repo) if not ref.startswith("bank_") else None
        return self.get(target or ref)

    def versions(self, repo: str | None = None) -> list[BankRow]:
        stmt = select(BankRow).order_by(BankRow.created_at, BankRow.id)
        if repo:
            stmt = stmt.where(BankRow.repo == repo)
        with self._sessions() as db:
            rows = list(db.scalars(stmt))
            db.expunge_all()
            return rows

    # ------------------------------------------------------------------ aliases

    def alias(self, name: str, repo: str | None = None) -> str | None:
        """The bank id that alias ``name`` of ``repo`` points at, or None."""
        with self._sessions() as db:
            row = db.get(AliasRow, (repo or GLOBAL_REPO, name))
            return row.bank_id if row else None

    def move_alias(
        self, name: str, bank_id: str, repo: str | None = None, reason: str = "", actor: str = ""
    ) -> AliasMove:
        """Point alias ``name`` of ``repo`` at ``bank_id``, recording the move."""
        with self._sessions.begin() as db:
            return _move(db, name, bank_id, repo, reason, actor)

    def aliases(self, repo: str | None = None) -> list[tuple[str, str, str, datetime]]:
        """(repo, name, bank id, moved at) of every alias, optionally of one repository."""
        stmt = select(AliasRow).order_by(AliasRow.repo, AliasRow.name)
        if repo:
            stmt = stmt.where(AliasRow.repo == repo)
        with self._sessions() as db:
            return [(r.repo, r.name, r.bank_id, _utc(r.moved_at)) for r in db.scalars(stmt)]  # type: ignore[misc]

    def history(self, name: str, repo: str | None = None) -> list[AliasMove]:
        """Every move of an alias, oldest first."""
        key = repo or GLOBAL_REPO
        stmt = (
            select(AliasMoveRow)
            .where(AliasMoveRow.repo == key, AliasMoveRow.name == name)
            .order_by(AliasMoveRow.id)
        )
        with self._sessions() as db:
            return [
                AliasMove(
                    repo=r.repo, name=r.name, from_bank=r.from_bank, to_bank=r.to_bank,
                    at=_utc(r.at), reason=r.reason, actor=r.actor,  # type: ignore[arg-type]
                )
                for r in db.scalars(stmt)
            ]

    def rollback(self, name: str, repo: str | None = None, reason: str = "rollback") -> AliasMove:
        """Move alias ``name`` back to where it pointed before its latest move."""
        moves = self.history(name, repo)
        if not moves or moves[-1].from_bank is None:
            raise NotFoundError(
                f"alias {name!r} of {repo or 'the global namespace'} "
                "has no earlier target to roll back to"
            )
        return self.move_alias(name, moves[-1].from_bank, repo, reason=reason, actor="rollback")

    @staticmethod
    def _row(db: DbSession, bank_id: str) -> BankRow:
        row = db.get(BankRow, bank_id)
        if row is not None:
            return row
        matches: Sequence[BankRow] = list(
            db.scalars(select(BankRow).where(BankRow.id.startswith(bank_id)).limit(2))
        )
        if not matches:
            raise NotFoundError(f"no bank {bank_id!r}; `dreamer banks` lists the stored ones")
        if len(matches) > 1:
            raise AmbiguousIdError(f"bank id prefix {bank_id!r} matches several banks")
        return matches[0]


def _check(bank: Bank) -> None:
    for memory in bank.memories:
        if not memory.citations:
            raise BankIntegrityError(
                f"memory {memory.id} has no citation; it cannot enter a bank"
            )
    ids = [m.id for m in bank.memories]
    if len(set(ids)) != len(ids):
        raise BankIntegrityError(f"bank {bank.id} holds the same memory twice")


_RACE_RETRIES = 3
"""Transactions retried when a concurrent writer stored the same rows first."""

_CHUNK = 10_000
"""Rows per statement: PostgreSQL takes at most 65,535 parameters in one (a bank of 100K
memories failed to store in one ``IN``), SQLite 32,766 unless built with more."""


def _put(db: DbSession, bank: Bank) -> None:
    if db.get(BankRow, bank.id) is not None:
        return
    if bank.parent_id is not None and db.get(BankRow, bank.parent_id) is None:
        raise NotFoundError(f"parent bank {bank.parent_id} of {bank.id} is not in the store")
    db.add(
        BankRow(
            id=bank.id,
            repo=bank.repo,
            parent_id=bank.parent_id,
            origin=bank.origin.model_dump(mode="json"),
            created_at=bank.created_at or datetime.now(UTC),
            memory_count=len(bank.memories),
            active_count=len(bank.active),
        )
    )
    hashes = [_record_hash(m) for m in bank.memories]
    known: set[str] = set()
    for start in range(0, len(hashes), _CHUNK):
        known.update(db.scalars(select(MemoryRecord.record_hash).where(
            MemoryRecord.record_hash.in_(hashes[start:start + _CHUNK]))))
    records: list[dict[str, Any]] = []
    for memory, record_hash in zip(bank.memories, hashes, strict=True):
        if record_hash not in known:
            records.append({"record_hash": record_hash, "memory_id": memory.id,
                            "body": memory.model_dump_json(exclude={"id"})})
            known.add(record_hash)
    # Core inserts of plain rows (ORM objects cost ~100 us apiece, and a bank is written whole),
    # each body as the JSON text pydantic writes (what reading it back parses).
    db.flush()
    text = bindparam("body", type_=Text)
    body = cast(text, JSON) if db.get_bind().dialect.name == "postgresql" else text
    statements = (insert(MemoryRecord).values(body=body), insert(BankMember))
    members: list[dict[str, Any]] = [{"bank_id": bank.id, "record_hash": h, "position": i}
                                     for i, h in enumerate(hashes)]
    for rows, statement in zip((records, members), statements, strict=True):
        for start in range(0, len(rows), _CHUNK):
            db.connection().execute(statement, rows[start:start + _CHUNK])


def _move(db: DbSession, name: str, bank_id: str, repo: str | None, reason: str,
          actor: str) -> AliasMove:
    key = repo or GLOBAL_REPO
    now = datetime.now(UTC)
    target = BankStore._row(db, bank_id).id
    row = db.get(AliasRow, (key, name), with_for_update=True)
    previous = row.bank_id if row else None
    if row is None:
        db.add(AliasRow(repo=key, name=name, bank_id=target, moved_at=now))
    else:
        row.bank_id, row.moved_at = target, now
    db.add(
        AliasMoveRow(
            repo=key, name=name, from_bank=previous, to_bank=target, at=now,
            reason=reason, actor=actor,
        )
    )
    return AliasMove(
        repo=key, name=name, from_bank=previous, to_bank=target, at=now, reason=reason,
        actor=actor,
    )


def _record_hash(memory: Memory) -> str:
    return f"{memory.id}:{memory.state_hash()}"
