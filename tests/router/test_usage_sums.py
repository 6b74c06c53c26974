"""A recall reads each candidate's feedback counts from their sums (``router_usage``), kept in
step with the appended events by the transactions that append them, on SQLite and PostgreSQL,
from several writers at once; the migration sums the events a store already holds."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import create_engine, insert, text

from dreamer.models import Usage
from dreamer.router import usage_counts
from dreamer.router.feedback import observations, record_feedback, record_recall
from dreamer.router.records import FeedbackRecord
from dreamer.store import Store, open_store
from dreamer.store.migrate import upgrade

IDS = [f"mem_{n:024d}" for n in range(12)]


def _recall(store: Store, served: list[str]) -> None:
    record_recall(store, served=served, checks=[], bank_id="bank_x", repo="acme/shop",
                  checkout=None, commit=None)


def test_the_sums_match_the_events_whoever_wrote_them(store: Store) -> None:
    other = open_store(str(store.engine.url.render_as_string(hide_password=False)))
    try:
        def write(n: int) -> None:
            writer = store if n % 2 else other  # two stores: two connection pools
            _recall(writer, IDS[n % 5:n % 5 + 6])
            if n % 3 == 0:
                record_feedback(writer, [IDS[n % 12], IDS[(n + 1) % 12]], "helped",
                                repo="acme/shop", source="agent")
            if n % 7 == 0:
                record_feedback(writer, [IDS[n % 12]], "hurt", repo="acme/shop")

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(write, range(60)))
    finally:
        other.close()
    sums = usage_counts(store, IDS)
    events = observations(store, IDS)  # counted from the events themselves
    assert {mid: events[mid].usage for mid in events} == sums
    assert sum(u.retrieved for u in sums.values()) == 60 * 6
    assert sum(u.helped for u in sums.values()) == 20 * 2
    assert sum(u.hurt for u in sums.values()) == 9
    assert usage_counts(store) == sums  # all of them, unasked
    assert usage_counts(store, ["mem_never_served"]) == {}


def test_the_migration_sums_the_events_already_recorded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    upgrade(engine, "0005_merge_heads")  # a store from before the sums
    now = datetime.now(UTC)
    events = [(IDS[0], "retrieved")] * 3 + [(IDS[0], "helped"), (IDS[1], "hurt"),
                                            (IDS[1], "retrieved")]
    with engine.begin() as conn:
        conn.execute(insert(FeedbackRecord), [
            {"memory_id": mid, "signal": signal, "bank_id": None, "repo": "acme/shop",
             "task_id": None, "source": "router", "note": "", "at": now}
            for mid, signal in events])
    engine.dispose()
    store = open_store(url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("select version_num from alembic_version")).scalar() \
                == "0006_router_usage"
        assert usage_counts(store, IDS[:2]) == {
            IDS[0]: Usage(retrieved=3, helped=1, hurt=0),
            IDS[1]: Usage(retrieved=1, helped=0, hurt=1)}
        _recall(store, [IDS[1]])  # and go on from there
        assert usage_counts(store, [IDS[1]])[IDS[1]] == Usage(retrieved=2, helped=0, hurt=1)
    finally:
        store.close()


def test_on_a_database_without_upserts_the_sums_still_match(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Another database than SQLite and PostgreSQL: an update, else an insert, per memory."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        monkeypatch.setattr(store.engine.dialect, "name", "another")
        _recall(store, IDS[:3])
        _recall(store, IDS[1:4])
        record_feedback(store, [IDS[0]], "helped", repo="acme/shop")
        monkeypatch.undo()
        assert usage_counts(store, IDS[:4]) == {
            IDS[0]: Usage(retrieved=1, helped=1, hurt=0),
            IDS[1]: Usage(retrieved=2, helped=0, hurt=0),
            IDS[2]: Usage(retrieved=2, helped=0, hurt=0),
            IDS[3]: Usage(retrieved=1, helped=0, hurt=0)}
    finally:
        store.close()
