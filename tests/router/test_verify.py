"""Verify before use: changed lines make a memory stale; moved lines are followed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dreamer.models import Bank, Citation, Memory
from dreamer.router import STALE_MARKER, Router, RouterConfig, observations
from dreamer.store import open_store

QUERY = "parse_order fails when the tax field is missing"


def _tax_memory(mem: Callable[..., Memory], cite: Callable[..., Citation], lines: list[str]):
    return mem("parse_order raises KeyError when the tax field is missing",
               citations=[cite("src/orders.py", lines, 3, 4)], confidence=0.9)


def test_unchanged_lines_are_verified(
    bm25_router: Router, checkout: Path, orders_lines: list[str], mem, cite, bank
) -> None:
    m = _tax_memory(mem, cite, orders_lines)
    result = bm25_router.recall(bank(m), QUERY, repo="acme/shop", checkout=checkout)
    [item] = result.pack.items
    assert item.verification == "verified"
    assert item.memory.last_verified is not None and item.memory.last_verified.state == "verified"
    assert STALE_MARKER not in result.pack.text
    assert result.checks[m.id].citations[0].state == "verified"


def test_changing_the_cited_lines_makes_the_memory_stale_in_the_next_recall(
    bm25_router: Router, checkout: Path, orders_lines: list[str], mem, cite, bank
) -> None:
    m = _tax_memory(mem, cite, orders_lines)
    other = mem("orders totals are net plus tax", confidence=0.1)
    both = bank(m, other)
    first = bm25_router.recall(both, QUERY, repo="acme/shop", checkout=checkout)
    assert first.memory_ids[0] == m.id and first.pack.items[0].verification == "verified"

    changed = list(orders_lines)
    changed[3] = "        return None  # tax is optional now"
    (checkout / "src" / "orders.py").write_text("\n".join(changed) + "\n")

    second = bm25_router.recall(both, QUERY, repo="acme/shop", checkout=checkout)
    # Demoted below a weaker but unchallenged memory, and never shown as fact.
    assert second.memory_ids == (other.id, m.id)
    assert second.pack.items[1].verification == "stale"
    assert second.pack.text.splitlines()[1].startswith(f"- {STALE_MARKER} [failure] parse_order")
    assert second.checks[m.id].citations[0].reason == "cited lines changed"


def test_lines_moved_within_the_file_keep_the_memory_verified_with_the_citation_updated(
    bm25_router: Router, checkout: Path, orders_lines: list[str], mem, cite, bank
) -> None:
    m = _tax_memory(mem, cite, orders_lines)
    moved = ["import json", "from shop.models import Order", "", *orders_lines]
    (checkout / "src" / "orders.py").write_text("\n".join(moved) + "\n")

    result = bm25_router.recall(bank(m), QUERY, repo="acme/shop", checkout=checkout)
    [item] = result.pack.items
    assert item.verification == "relocated"
    now = result.checks[m.id].citations[0].updated
    assert now is not None and (now.path, now.start_line, now.end_line) == ("src/orders.py", 6, 7)
    assert "file:src/orders.py:6-7" in result.pack.text and STALE_MARKER not in result.pack.text
    assert result.to_json()["memories"][0]["citations"][0]["start_line"] == 6


def test_lines_moved_to_a_file_of_the_same_name_elsewhere_are_followed(
    bm25_router: Router, checkout: Path, orders_lines: list[str], mem, cite, bank
) -> None:
    m = _tax_memory(mem, cite, orders_lines)
    (checkout / "src" / "orders.py").unlink()
    (checkout / "src" / "shop").mkdir()
    (checkout / "src" / "shop" / "orders.py").write_text("\n".join(["# moved", *orders_lines]))

    result = bm25_router.recall(bank(m), QUERY, repo="acme/shop", checkout=checkout)
    assert result.pack.items[0].verification == "relocated"
    assert "file:src/shop/orders.py:4-5" in result.pack.text


def test_a_deleted_file_or_a_path_outside_the_checkout_is_stale(
    bm25_router: Router, checkout: Path, orders_lines: list[str], mem, cite, bank, tmp_path: Path
) -> None:
    outside = tmp_path / "secret.py"
    outside.write_text("\n".join(orders_lines))
    escaping = mem("parse_order reads ../secret.py",
                   citations=[cite("../secret.py", orders_lines, 3, 4)])
    gone = mem("parse_order lives in legacy.py", citations=[cite("legacy.py", orders_lines, 1, 2)])
    result = bm25_router.recall(bank(escaping, gone), "parse_order", repo="acme/shop",
                                checkout=checkout)
    assert {i.verification for i in result.pack.items} == {"stale"}


def test_memories_without_file_citations_are_unchecked_not_stale(
    bm25_router: Router, checkout: Path, mem, bank
) -> None:
    result = bm25_router.recall(bank(mem("use uv run pytest for the tests")), "tests",
                                repo="acme/shop", checkout=checkout)
    assert result.pack.items[0].verification == "unchecked"


def test_verifications_are_recorded_append_only_and_staleness_accumulates(
    checkout: Path, orders_lines: list[str], mem, cite, bank
) -> None:
    store = open_store()
    router = Router(RouterConfig(embeddings=False), store=store)
    m = _tax_memory(mem, cite, orders_lines)
    b: Bank = bank(m)
    router.recall(b, QUERY, repo="acme/shop", checkout=checkout)
    (checkout / "src" / "orders.py").write_text("changed\n" * 10)
    router.recall(b, QUERY, repo="acme/shop", checkout=checkout)
    router.recall(b, QUERY, repo="acme/shop", checkout=checkout)

    seen = observations(store, [m.id])[m.id]
    assert (seen.verified, seen.stale, seen.last_state, seen.retrieved) == (1, 2, "stale", 3)
    store.close()


def test_a_memory_checked_against_an_unchanged_checkout_is_not_checked_again(
    checkout: Path, orders_lines: list[str], mem, cite, monkeypatch
) -> None:
    import os

    from dreamer.router import verify

    m = _tax_memory(mem, cite, orders_lines)
    verifier = verify.Verifier()
    first = verifier.check(m, m.id, checkout)
    assert first.state == "verified"
    hashed: list[int] = []
    real = verify.lines_sha256
    monkeypatch.setattr(verify, "lines_sha256", lambda lines: hashed.append(1) or real(lines))
    assert verifier.check(m, m.id, checkout) is first and hashed == []  # one stat, no hashing

    # The same size, other lines, a later mtime (as any write gives): checked again, stale.
    source = checkout / "src" / "orders.py"
    text = source.read_text().replace("tax", "TAX")
    stat = os.stat(source)
    source.write_text(text)
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    again = verifier.check(m, m.id, checkout)
    assert again.state == "stale" and hashed
