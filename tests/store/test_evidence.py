"""The evidence store keeps files verbatim, content-addressed, append-only, atomically."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from dreamer.errors import AmbiguousIdError, EvidenceImmutableError, NotFoundError
from dreamer.models import Event, EventKind, Session, sha256_bytes
from dreamer.store import EvidenceStore, Store


def make_session(
    data: bytes, ordinal: int = 0, repo: str = "acme/shop", events: int = 3
) -> Session:
    sha = sha256_bytes(data)
    sid = Session.make_id(sha, ordinal)
    return Session(
        id=sid, source_format="dreamer", raw_sha256=sha, ordinal=ordinal, repo=repo,
        started_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        events=tuple(
            Event(session_id=sid, seq=i, kind=EventKind.COMMAND, text=f"cmd {i}",
                  data={"command": f"cmd {i}", "exit_code": i % 2})
            for i in range(events)
        ),
    )


def test_ingested_file_reads_back_verbatim_with_its_sessions(store: Store) -> None:
    data = b'{"some": "trajectory"}\n'
    s0, s1 = make_session(data, 0), make_session(data, 1, repo="acme/other")
    result = store.evidence.add_ingested(data, "a.json", "dreamer", [s0, s1])
    assert result.status == "ingested"
    assert result.sessions == (s0.id, s1.id)
    assert store.evidence.raw(result.sha256) == data
    back = store.evidence.session(s0.id)
    assert back.events == s0.events
    assert back.started_at == s0.started_at
    assert [s.id for s in store.evidence.sessions(repo="acme/other")] == [s1.id]
    assert store.evidence.count_sessions() == 2


def test_same_bytes_again_is_a_duplicate_and_writes_nothing(store: Store) -> None:
    data = b'{"x": 1}'
    store.evidence.add_ingested(data, "first.json", "dreamer", [make_session(data)])
    again = store.evidence.add_ingested(data, "renamed.json", "dreamer", [make_session(data)])
    assert again.status == "duplicate"
    assert again.previous is not None and again.previous.source_path == "first.json"
    assert len(store.evidence.ingestions()) == 1
    assert store.evidence.count_sessions() == 1


def test_quarantine_keeps_the_file_and_the_reason(store: Store) -> None:
    data = b'{"trajectory": [1, 2'
    result = store.evidence.add_quarantined(
        data, "bad.traj", "invalid JSON: Expecting value", "line 1, column 20"
    )
    assert result.status == "quarantined"
    (record,) = store.evidence.quarantined()
    assert (record.source_path, record.reason, record.location) == (
        "bad.traj", "invalid JSON: Expecting value", "line 1, column 20",
    )
    assert store.evidence.raw(result.sha256) == data
    assert store.evidence.count_sessions() == 0


def test_a_failed_write_leaves_nothing_behind(store: Store) -> None:
    data = b'{"y": 2}'
    good = make_session(data)
    clash = good.model_copy(update={"ordinal": 1})  # same session id twice: the insert fails
    with pytest.raises(IntegrityError):
        store.evidence.add_ingested(data, "c.json", "dreamer", [good, clash])
    assert store.evidence.ingestion(sha256_bytes(data)) is None
    assert store.evidence.count_sessions() == 0
    with pytest.raises(NotFoundError):
        store.evidence.raw(sha256_bytes(data))


def test_sessions_must_belong_to_the_file_being_stored(store: Store) -> None:
    with pytest.raises(EvidenceImmutableError):
        store.evidence.add_ingested(b"one", "x", "dreamer", [make_session(b"another")])


def test_session_lookup_by_prefix(store: Store) -> None:
    for i in range(3):
        data = f'{{"n": {i}}}'.encode()
        store.evidence.add_ingested(data, f"{i}.json", "dreamer", [make_session(data)])
    some = store.evidence.sessions()[0]
    assert store.evidence.session(some.id[:14]).id == some.id
    with pytest.raises(AmbiguousIdError):
        store.evidence.session("ses_")
    with pytest.raises(NotFoundError):
        store.evidence.session("ses_nope")


def test_the_api_offers_no_way_to_change_evidence() -> None:
    public = {name for name in dir(EvidenceStore) if not name.startswith("_")}
    writers = {
        name for name in public
        if any(w in name for w in ("update", "delete", "remove", "set", "edit"))
    }
    assert writers == set()
    assert {"add_ingested", "add_quarantined"} <= public
