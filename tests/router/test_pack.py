"""The harness's entry point: ``dreamer.router.pack`` keeps its signature and guarantees."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import dreamer.router
from dreamer.models import Bank
from dreamer.router import Router, RouterConfig, pack, render
from dreamer.tokens import count_tokens


@pytest.fixture
def big_bank(mem) -> Bank:
    rng = random.Random(3)
    words = "parse order tax cache retry lock timezone cursor token json schema index".split()
    return Bank(memories=tuple(
        mem(f"memory {i}: " + " ".join(rng.choices(words, k=rng.randint(3, 40))),
            confidence=rng.random())
        for i in range(120)
    ))


def test_pack_never_exceeds_its_budget(bm25_router: Router, big_bank: Bank) -> None:
    for budget in [0, 1, 5, 17, 40, 90, 256, 1000]:
        result = bm25_router.pack(big_bank, "tax cache retry", repo="acme/shop", budget=budget)
        assert result.tokens <= budget
        assert result.tokens == count_tokens(result.text)
        assert sum(i.tokens for i in result.items) >= result.tokens - 1
    assert bm25_router.pack(big_bank, "tax", repo="acme/shop", budget=0).items == ()


def test_verification_stops_once_nothing_more_could_fit(mem, cite, checkout, orders_lines,
                                                         monkeypatch) -> None:
    """Verifying a memory that could not fit what is left of the budget is wasted: the router
    stops at the least any remaining memory could cost, and packs exactly what verifying every
    candidate would have packed."""
    from dreamer.router import verify
    from dreamer.router.index import BankIndex

    rng = random.Random(5)
    words = "parse order tax cache retry lock timezone cursor token json schema index".split()
    stale = cite("src/orders.py", orders_lines, 3, 4).model_copy(update={"lines_sha256": "0" * 64})
    many = Bank(memories=tuple(
        mem(f"memory {i}: " + " ".join(rng.choices(words, k=rng.randint(4, 30))),
            citations=[cite("src/orders.py", orders_lines, 1 + i % 6, 2 + i % 6)
                       if i % 5 else stale])
        for i in range(80)
    ))
    checked = [0]
    real = verify.Verifier.check

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        checked[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(verify.Verifier, "check", counting)

    def packs() -> list[tuple[str, ...]]:
        router = Router(RouterConfig(embeddings=False))
        return [router.recall(many, query, repo="acme/shop", budget=budget,
                              checkout=checkout).memory_ids
                for query in ("tax cache retry", "json schema index", "order lock")
                for budget in (30, 100, 250, 600)]

    early = packs()
    early_checks, checked[0] = checked[0], 0
    monkeypatch.setattr(BankIndex, "line_floor", lambda self, position: 0)  # verify to the end
    assert packs() == early
    assert early_checks < checked[0]


def test_unlimited_budget_packs_every_in_scope_memory_of_a_small_bank(
    bm25_router: Router, big_bank: Bank
) -> None:
    result = bm25_router.pack(big_bank, "unrelated words", repo="acme/shop", budget=None)
    assert len(result.items) == 120  # small scopes are filled in whole, ranked by their priors


def test_same_inputs_give_the_same_pack_across_routers(big_bank: Bank) -> None:
    packs = [Router(RouterConfig(embeddings=False)).pack(big_bank, "tax lock", repo="acme/shop",
                                                         budget=300) for _ in range(2)]
    assert packs[0] == packs[1] and packs[0].items


def test_only_active_memories_are_served_by_default(mem, bank) -> None:
    active, dormant = mem("tax is rounded half-up"), mem("tax was rounded down", status="dormant")
    both = bank(active, dormant)
    served = Router(RouterConfig(embeddings=False)).pack(both, "tax rounding", repo="acme/shop")
    assert served.memories == (active,)
    wider = Router(RouterConfig(embeddings=False, statuses=("active", "dormant")))
    assert set(wider.pack(both, "tax rounding", repo="acme/shop").memories) == {active, dormant}


def test_the_module_level_pack_runs_the_router_with_the_harness_signature(
    monkeypatch: pytest.MonkeyPatch, mem, bank, checkout, cite, orders_lines
) -> None:
    monkeypatch.setenv("DREAMER_ROUTER_EMBEDDINGS", "0")
    monkeypatch.setattr(dreamer.router, "_default", None)
    m = mem("parse_order raises KeyError without tax", citations=[cite("src/orders.py",
                                                                        orders_lines, 3, 4)])
    result = pack(bank(m, mem("unrelated memory about deploys")), "parse_order tax",
                  repo="acme/shop", budget=60, branch="main", module="src", phase="edit",
                  checkout=checkout)
    assert result.budget == 60 and result.tokens <= 60
    assert result.items[0].memory.id == m.id and result.items[0].verification == "verified"
    assert result.text.splitlines()[0] == render(m, "verified")


def test_render_is_compact_and_marks_stale_memories(mem, cite, orders_lines) -> None:
    m = mem("parse_order raises KeyError", citations=[cite("src/orders.py", orders_lines, 3, 4)],
            kind="failure")
    assert render(m) == "- [failure] parse_order raises KeyError [file:src/orders.py:3-4]"
    assert render(m, "stale").startswith("- UNVERIFIED (cited code changed) [failure]")


def test_importing_the_router_loads_no_heavy_library() -> None:
    code = ("import sys, dreamer.router, dreamer.cli; "
            "print(sorted(m for m in ('chromadb', 'torch', 'bm25s', 'litellm', 'mcp') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
