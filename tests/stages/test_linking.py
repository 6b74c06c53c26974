"""linking: memories gain links to each other, symbols, tests and failure modes; ids stay."""

from __future__ import annotations


def test_links_to_symbols_tests_failure_modes_and_neighbours(planted, context, run) -> None:
    result = run("linking", planted.bank, context)
    assert {m.id for m in result.bank.memories} == {m.id for m in planted.bank.memories}
    status = result.bank.get(planted.STATUS[2].id)
    links = {(link.relation, link.target) for link in status.links}
    assert ("symbol", "LEGACY_STATUS_CODES") in links
    assert ("test", "tests/test_orders.py::test_status_roundtrip") in links
    assert any(
        rel == "related" and result.bank.get(t) in planted.STATUS or rel == "related"
        for rel, t in links
    )
    episode = result.bank.get(planted.EPISODES[0].id)
    assert ("failure_mode", "ImportError") in {
        (link.relation, link.target) for link in episode.links
    }
    assert not any(
        link.relation == "failure_mode" and "timeout" in link.target
        for link in result.bank.get(planted.TIMEOUT_OLD.id).links
    )


def test_related_links_respect_the_lm(planted, canned, run) -> None:
    ctx, engine = canned(lambda prompt: {"related": False})
    result = run("linking", planted.bank, ctx)
    assert engine.prompts
    assert not any(link.relation == "related" for m in result.bank.memories for link in m.links)
