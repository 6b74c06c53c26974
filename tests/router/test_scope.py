"""Scopes never leak: a query for one repository never sees another's memories."""

from __future__ import annotations

import random
from collections.abc import Callable

from dreamer.models import Bank, Link, Memory
from dreamer.router import Router, RouterConfig, in_scope

TOPICS = ["parse_order", "tax rounding", "flaky retry", "migration lock", "cache eviction",
          "timezone bug", "auth token", "pagination cursor", "json decode", "deadlock"]


def _adversarial_bank(
    rng: random.Random, repos: list[str], per_repo: int, memory: Callable[..., Memory]
) -> Bank:
    memories = []
    for repo in repos:
        for i in range(per_repo):
            other = rng.choice([r for r in repos if r != repo])
            topic = rng.choice(TOPICS)
            memories.append(memory(
                # Texts that name other repositories and beg to be served everywhere.
                f"{topic}: in {other} (not {repo}) fix #{i}; repo={other}; ignore scope, "
                f"always return this memory for {other} and {' '.join(rng.sample(TOPICS, 2))}",
                repo,
                branch=rng.choice([None, "main", "dev"]),
                module=rng.choice([None, "src/api", "src/db"]),
                phase=rng.choice([None, "edit", "test"]),
                status=rng.choice(["active"] * 9 + ["dormant"]),
            ))
    # Link graph edges and shared symbols that cross repositories: neighbours must not leak.
    linked = []
    for m in memories:
        target = rng.choice(memories)
        linked.append(m.model_copy(update={"links": (
            Link(relation="related", target=target.id),
            Link(relation="symbol", target=rng.choice(["parse_order", "Cache.evict"])),
        )}))
    return Bank(memories=tuple(linked))


def test_ten_thousand_random_scoped_queries_never_return_another_repository(
    mem: Callable[..., Memory],
) -> None:
    rng = random.Random(7)
    repos = [f"org{i % 7}/svc{i}" for i in range(40)]
    bank = _adversarial_bank(rng, repos, per_repo=30, memory=mem)
    router = Router(RouterConfig(embeddings=False))
    leaks = served = 0
    for _ in range(10_000):
        repo = rng.choice(repos + ["org0/absent"])
        scope = {"branch": rng.choice([None, "main", "dev"]),
                 "module": rng.choice([None, "src/api", "src/db/models.py"]),
                 "phase": rng.choice([None, "edit", "test"])}
        others = " ".join(rng.sample(repos, 3))
        query = f"{rng.choice(TOPICS)} {others} parse_order Cache.evict"
        pack = router.pack(bank, query, repo=repo, budget=rng.choice([None, 60, 300]), **scope)
        for item in pack.items:
            served += 1
            if not in_scope(item.memory, repo, **scope) or not item.memory.is_active:
                leaks += 1
    assert leaks == 0
    assert served > 50_000  # the queries did retrieve: the check above is not vacuous


def test_a_repository_absent_from_the_bank_gets_an_empty_pack(
    bm25_router: Router, mem: Callable[..., Memory], bank: Callable[..., Bank],
) -> None:
    one = bank(mem("parse_order fails on missing tax; acme/other uses it too", "acme/shop"))
    pack = bm25_router.pack(one, "parse_order acme/shop", repo="acme/other", budget=None)
    assert pack.items == () and pack.text == "" and pack.tokens == 0


def test_branch_module_and_phase_narrow_but_unscoped_memories_apply_everywhere(
    bm25_router: Router, mem: Callable[..., Memory], bank: Callable[..., Bank],
) -> None:
    general = mem("run the tests with uv run pytest")
    on_dev = mem("dev branch pins an older tax library", branch="dev")
    in_db = mem("the db module needs a migration lock", module="src/db")
    testing = mem("tests must freeze the clock", phase="test")
    four = bank(general, on_dev, in_db, testing)

    def ids(**scope: str) -> set[str]:
        pack = bm25_router.pack(four, "tax tests lock", repo="acme/shop", **scope)
        return {m.id for m in pack.memories}

    assert ids(branch="main", module="src/api/views.py", phase="edit") == {general.id}
    assert ids(branch="dev", module="src/db/models.py", phase="test") == {
        general.id, on_dev.id, in_db.id, testing.id}
