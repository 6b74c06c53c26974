"""Rerank by evidence, freshness and usefulness; feedback is recorded and changes the ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import inspect, text

from dreamer.models import Citation, Link, Usage
from dreamer.router import Router, RouterConfig, usage_counts
from dreamer.router.records import VerificationRecord
from dreamer.router.rerank import evidence_strength, freshness, usefulness
from dreamer.store import open_store
from dreamer.store.schema import Base

WHEN = datetime(2026, 3, 1, tzinfo=UTC)


def test_tests_and_reviews_count_more_than_sessions(mem) -> None:
    session = mem("x", citations=[Citation(kind="session", ref="ses_1:2")])
    tested = mem("x", citations=[Citation(kind="test", ref="tests/t.py::test_x"),
                                 Citation(kind="review", ref="PR-7#3")])
    assert evidence_strength(tested) > 2 * evidence_strength(session)


def test_freshness_halves_every_half_life_and_usefulness_is_smoothed(mem) -> None:
    old = mem("x", created_at=WHEN - timedelta(days=90))
    assert abs(freshness(old, WHEN, 90.0) - 0.5) < 1e-9
    assert usefulness(Usage(helped=1)) == 1 / 3 and usefulness(Usage(helped=3, hurt=3)) == 0.0


def test_feedback_reorders_equally_relevant_memories(mem, bank) -> None:
    store = open_store()
    router = Router(RouterConfig(embeddings=False), store=store)
    a, b = mem("retry the flaky payment test once"), mem("retry the flaky payment test twice")
    both = bank(a, b)
    first = router.recall(both, "flaky payment test", repo="acme/shop").memory_ids
    loser, winner = first
    router.feedback([loser], "hurt", repo="acme/shop", task_id="t1", source="harness")
    router.feedback([winner, winner], "hurt", repo="acme/shop", task_id="t1")
    router.feedback([loser], "helped", repo="acme/shop", task_id="t2")
    router.feedback([loser], "helped", repo="acme/shop", task_id="t3")
    assert router.recall(both, "flaky payment test", repo="acme/shop").memory_ids == (loser, winner)
    counts = usage_counts(store, [a.id, b.id])
    # Each recall recorded a "retrieved" event; repeated ids in one report count once.
    assert counts[loser] == Usage(retrieved=2, helped=2, hurt=1)
    assert counts[winner] == Usage(retrieved=2, helped=0, hurt=1)
    store.close()


def test_records_written_in_the_background_are_all_there_after_flush(mem, bank) -> None:
    """A server's router writes what each recall served after answering it; ``flush`` waits
    for every write, so nothing a recall did is lost when the server closes the store."""
    store = open_store()
    router = Router(RouterConfig(embeddings=False), store=store, background_records=True)
    cold = router.variant(graph=False)  # e.g. the MCP server's router while it warms up
    a, b = mem("retry the flaky payment test once"), mem("rebuild the wheel cache nightly")
    both = bank(a, b)
    for _ in range(5):
        router.recall(both, "flaky payment test", repo="acme/shop")
        cold.recall(both, "flaky payment test", repo="acme/shop")
    router.flush()
    assert usage_counts(store, [a.id])[a.id].retrieved == 10
    store.close()


def test_a_burst_of_recalls_is_recorded_in_one_transaction(mem, bank) -> None:
    """What the background writer finds pending goes in one commit, not one per recall."""
    from sqlalchemy import event

    store = open_store()
    router = Router(RouterConfig(embeddings=False), store=store, background_records=True)
    a, b = mem("retry the flaky payment test once"), mem("rebuild the wheel cache nightly")
    both = bank(a, b)
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda _: commits.append(1))
    assert router._writer is not None
    with router._writer.busy():  # a burst: nothing is written while it lasts
        for _ in range(10):
            router.recall(both, "flaky payment test", repo="acme/shop")
    router.flush()
    assert len(commits) == 1
    assert usage_counts(store, [a.id])[a.id].retrieved == 10
    store.close()


def test_the_migration_creates_the_router_tables_next_to_the_lead_schema() -> None:
    store = open_store()
    tables = set(inspect(store.engine).get_table_names())
    assert {"router_verifications", "router_feedback", "banks", "memory_records"} <= tables
    with store.engine.connect() as conn:
        heads = {row[0] for row in conn.execute(text("select version_num from alembic_version"))}
    # The database is at the one head, and the router's migration is on its way there.
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from dreamer.store import migrate

    config = Config()
    config.set_main_option("script_location", str(Path(migrate.__file__).parent / "migrations"))
    script = ScriptDirectory.from_config(config)
    assert heads == {script.get_current_head()}
    assert "0002_router" in {rev.revision for rev in script.walk_revisions()}
    # One metadata for the lead's schema and the router's records: autogenerate sees both.
    assert VerificationRecord.__table__.metadata is Base.metadata
    store.close()


def test_graph_neighbours_of_a_hit_become_candidates(mem, bank) -> None:
    cause = mem("the orders cache is never invalidated after a price change")
    symptom = mem("stale prices shown at checkout",
                  links=[Link(relation="related", target=cause.id)])
    noise = [mem(f"unrelated deployment note {i}") for i in range(5)]
    config = RouterConfig(embeddings=False, fill_below=0)  # no filling: only real candidates
    with_graph = Router(config).pack(bank(cause, symptom, *noise), "checkout stale prices",
                                     repo="acme/shop")
    without = Router(config.model_copy(update={"graph": False})).pack(
        bank(cause, symptom, *noise), "checkout stale prices", repo="acme/shop")
    assert without.memories == (symptom,)
    assert with_graph.memories == (symptom, cause)


def test_a_query_naming_a_linked_symbol_reaches_its_memories(mem, bank) -> None:
    linked = mem("evict entries in insertion order",
                 links=[Link(relation="symbol", target="LRUCache.evict")])
    config = RouterConfig(embeddings=False, fill_below=0)
    pack = Router(config).pack(bank(linked, mem("other")), "why does LRUCache.evict drop keys?",
                               repo="acme/shop")
    assert linked in pack.memories
