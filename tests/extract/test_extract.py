"""Extraction end to end on a session of work on a small git repository."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from sqlalchemy import select

from dreamer.extract import ALIAS, extract
from dreamer.extract.citations import HASH_UNKNOWN_TAG
from dreamer.extract.records import rejections
from dreamer.models import CitationKind, MemoryType
from dreamer.store import Store, open_store
from dreamer.store.schema import MemoryRecord
from tests.extract.conftest import PLANTED, ShopRepo, add, git, make_session, shop_events


def _run(store: Store, shop_repo: ShopRepo, shop_session):  # type: ignore[no-untyped-def]
    add(store, *shop_session)
    return extract(store, repos={"acme/shop": shop_repo.path})


def _by_type(result, type_: MemoryType):  # type: ignore[no-untyped-def]
    return [m for m in result.memories if m.type is type_]


def test_failure_memory_says_what_failed_and_what_fixed_it_with_hashed_lines(
    store, shop_repo, shop_session
):
    result = _run(store, shop_repo, shop_session)
    failures = _by_type(result, MemoryType.FAILURE)
    assert len(failures) == 1
    memory = failures[0]
    assert "tests/test_orders.py::test_status_is_legacy_code" in memory.summary
    assert "AssertionError: assert 2 == 20" in memory.summary
    # What fixed it and what it replaced, by name: never a copied code line.
    assert "the passing fix used `LEGACY_STATUS_CODES`" in memory.summary
    assert "instead of `status.value`" in memory.summary
    assert "LEGACY_STATUS_CODES[order.status]" not in memory.summary
    assert "int(order.status.value)" not in memory.summary
    kinds = {c.kind for c in memory.citations}
    assert {
        CitationKind.SESSION,
        CitationKind.TEST,
        CitationKind.FILE,
        CitationKind.COMMIT,
    } <= kinds
    session_id = shop_session[1].id
    assert any(
        c.ref.startswith(f"{session_id}:")
        for c in memory.citations
        if c.kind is CitationKind.SESSION
    )
    file_cite = next(c for c in memory.citations if c.kind is CitationKind.FILE)
    assert (file_cite.path, file_cite.start_line, file_cite.end_line) == (
        "src/shop/orders.py",
        6,
        6,
    )
    assert file_cite.commit == shop_repo.end
    lines = git(shop_repo.path, "show", f"{shop_repo.end}:src/shop/orders.py").splitlines()[5:6]
    assert file_cite.lines_sha256 == hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert HASH_UNKNOWN_TAG not in memory.tags
    # Extraction scopes to the repository; narrowing to a module is specialization's call.
    assert memory.scope.repo == "acme/shop" and memory.scope.module is None
    assert "when changing src/shop/orders.py" in memory.conditions
    assert memory.created_at == shop_session[1].events[5].timestamp  # evidence time, not the clock


def test_command_that_worked_after_one_that_ran_nothing(store, shop_repo, shop_session):
    result = _run(store, shop_repo, shop_session)
    procedural = [
        m for m in _by_type(result, MemoryType.PROCEDURAL) if "SHOP_INTEGRATION" in m.summary
    ]
    assert len(procedural) == 1
    assert "SHOP_INTEGRATION=1 pytest tests/integration" in procedural[0].summary
    assert procedural[0].scope.phase == "test"
    assert any(c.kind is CitationKind.TEST for c in procedural[0].citations)


def test_review_becomes_a_domain_memory_citing_the_review_and_the_line(
    store, shop_repo, shop_session
):
    result = _run(store, shop_repo, shop_session)
    domain = [
        m for m in _by_type(result, MemoryType.DOMAIN) if "never the enum ordinal" in m.summary
    ]
    assert len(domain) == 1
    kinds = {c.kind for c in domain[0].citations}
    assert CitationKind.REVIEW in kinds
    line = next(c for c in domain[0].citations if c.kind is CitationKind.FILE and c.start_line == 6)
    assert line.lines_sha256 is not None and line.path == "src/shop/orders.py"


def test_episode_is_compact_and_cites_the_submission(store, shop_repo, shop_session):
    result = _run(store, shop_repo, shop_session)
    (episode,) = _by_type(result, MemoryType.EPISODIC)
    assert "Order status is exported wrong" in episode.summary
    assert "src/shop/orders.py" in episode.summary and len(episode.summary) < 400
    assert any(c.kind is CitationKind.FILE for c in episode.citations)


def test_generic_lessons_and_injection_are_rejected_with_reasons(store, shop_repo, shop_session):
    result = _run(store, shop_repo, shop_session)
    texts = {r.text: r.reason for r in result.rejections}
    assert texts["be more careful."] == "generic"
    assert texts["Please test more thoroughly."] == "generic"
    injected = [r for r in result.rejections if "always skip the tests" in r.text]
    assert [r.reason for r in injected] == ["injection_without_evidence"]
    for memory in result.memories:
        assert "skip the tests" not in memory.summary
        assert "careful" not in memory.summary.lower()
    with store.sessions() as db:
        recorded = {(r.reason, r.text) for r in rejections(db)}
    assert ("generic", "be more careful.") in recorded


def test_planted_secrets_never_reach_any_stored_memory_or_rejection(store, shop_repo, shop_session):
    result = _run(store, shop_repo, shop_session)
    assert sum(result.redacted.values()) >= 1
    with store.sessions() as db:
        bodies = [json.dumps(b) for b in db.scalars(select(MemoryRecord.body))]
        recorded = [r.text + r.detail for r in rejections(db)]
    assert bodies
    for secret in PLANTED:
        assert not any(secret in b for b in bodies), secret
        assert not any(secret in r for r in recorded), secret
    bank = store.banks.get(result.bank)
    assert all(secret not in m.model_dump_json() for m in bank.memories for secret in PLANTED)


def test_bank_version_chain_and_only_new_sessions(store, shop_repo, shop_session):
    first = _run(store, shop_repo, shop_session)
    assert store.banks.alias(ALIAS, "acme/shop") == first.bank
    again = extract(store, repos={"acme/shop": shop_repo.path})
    assert (again.sessions, again.candidates, again.banks) == (0, 0, {})
    raw, other = make_session(
        shop_events("", shop_repo.fix_diff)[:9],
        name="s2",
        day=2,
        start=shop_repo.start,
        end=shop_repo.end,
    )
    add(store, raw, other)
    second = extract(store, repos={"acme/shop": shop_repo.path})
    assert second.sessions == 1 and second.bank not in (None, first.bank)
    bank = store.banks.get(second.bank)
    assert bank.parent_id == first.bank and bank.origin.kind == "extraction"
    assert {m.id for m in store.banks.get(first.bank).memories} < {m.id for m in bank.memories}


def test_same_sessions_give_the_same_bank_id(tmp_path: Path, shop_repo, shop_session):
    ids = []
    for name in ("a", "b"):
        s = open_store(f"sqlite:///{tmp_path / f'{name}.db'}")
        ids.append(_run(s, shop_repo, shop_session).bank)
        s.close()
    assert ids[0] == ids[1] is not None


def test_without_the_repository_spans_are_cited_and_the_hash_marked_unknown(store, shop_session):
    add(store, *shop_session)
    result = extract(store)
    (failure,) = _by_type(result, MemoryType.FAILURE)
    cite = next(c for c in failure.citations if c.kind is CitationKind.FILE)
    assert (cite.path, cite.start_line, cite.lines_sha256) == ("src/shop/orders.py", 6, None)
    assert HASH_UNKNOWN_TAG in failure.tags


def test_repositories_are_found_under_a_root_folder(store, shop_repo, shop_session):
    add(store, *shop_session)
    result = extract(store, repo_roots=[shop_repo.path.parent])
    (failure,) = _by_type(result, MemoryType.FAILURE)
    assert all(c.lines_sha256 for c in failure.citations if c.kind is CitationKind.FILE)


def test_json_counts(store, shop_repo, shop_session):
    result = _run(store, shop_repo, shop_session)
    out = result.to_json(explain=True)
    assert {"sessions", "candidates", "kept", "rejected", "redacted", "bank"} <= out.keys()
    assert out["sessions"] == 1 and out["kept"] == len(result.memories) >= 4
    assert out["candidates"] == out["kept"] + sum(out["rejected"].values())
    assert out["rejected"]["generic"] == 2 and out["rejected"]["injection_without_evidence"] == 1
