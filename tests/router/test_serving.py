"""Serving many repositories: each recall finds its bank loaded and its index built.

A team's server holds one production bank per repository. With fewer banks kept loaded (4) and
fewer indexes kept built (8) than repositories served, recalls across 20 repositories of 2,000
memories reloaded, re-hashed and re-indexed banks: p50 229 ms, p95 617 ms without the vector leg
(11 and 17 ms once every served bank stays loaded and indexed).
"""

from __future__ import annotations

import threading

import anyio

from dreamer.models import Bank
from dreamer.router import Router, RouterConfig
from dreamer.router.index import BankIndex
from dreamer.router.serving import BankResolver, served_repositories
from dreamer.store import open_store

REPOS = [f"acme/service-{n}" for n in range(10)]  # more than either cache held by default


def _store_one_bank_per_repository(mem):  # type: ignore[no-untyped-def]
    store = open_store()
    for repo in REPOS:
        bank = Bank(memories=tuple(mem(f"{repo}: run make migrate before test {n}", repo=repo)
                                   for n in range(3)))
        store.banks.put(bank)
        store.banks.move_alias("production", bank.id, repo=repo, reason="test")
    return store


def test_a_server_keeps_every_served_bank_loaded_and_indexed(mem, monkeypatch) -> None:
    from dreamer.router import mcp_server

    store = _store_one_bank_per_repository(mem)
    loads, builds = [], []
    real_get, real_build = store.banks.get, BankIndex.build
    monkeypatch.setattr(store.banks, "get", lambda ref: loads.append(ref) or real_get(ref))
    monkeypatch.setattr(BankIndex, "build",
                        classmethod(lambda cls, bank: builds.append(bank.id) or real_build(bank)))
    assert served_repositories(store, None) == sorted(REPOS)
    server = mcp_server.build_server(store, config=RouterConfig(embeddings=False))

    def recall(repo: str) -> None:
        async def call() -> object:
            return await server.call_tool("recall", {"query": "migrate", "repo": repo})
        anyio.run(call)

    for repo in REPOS:
        recall(repo)
    assert len(loads) == len(builds) == len(REPOS)  # each bank loaded and indexed once
    for repo in [*REPOS, *reversed(REPOS)]:
        recall(repo)
    assert len(loads) == len(builds) == len(REPOS)  # and kept: nothing loaded or built again
    store.close()


def test_a_bank_loaded_again_finds_its_index(mem, monkeypatch) -> None:
    """The same content as another object (a bank reloaded from the store) is not indexed
    again."""
    store = _store_one_bank_per_repository(mem)
    router = Router(RouterConfig(embeddings=False))
    first = store.banks.get(store.banks.alias("production", REPOS[0]))
    index = router.index(first)
    builds: list[str] = []
    real_build = BankIndex.build
    monkeypatch.setattr(BankIndex, "build",
                        classmethod(lambda cls, bank: builds.append(bank.id) or real_build(bank)))
    again = store.banks.get(first.id)
    assert again is not first
    assert router.index(again) is index and builds == []
    store.close()


def test_a_loaded_bank_is_served_while_another_is_being_loaded(mem, monkeypatch) -> None:
    store = _store_one_bank_per_repository(mem)
    resolver = BankResolver(store)
    cached = resolver.resolve(None, REPOS[0])
    slow_started, release = threading.Event(), threading.Event()
    real_get = store.banks.get

    def slow_get(ref: str):  # type: ignore[no-untyped-def]
        if ref != cached.id:
            slow_started.set()
            assert release.wait(30)
        return real_get(ref)

    monkeypatch.setattr(store.banks, "get", slow_get)
    loading = threading.Thread(target=resolver.resolve, args=(None, REPOS[1]))
    loading.start()
    try:
        assert slow_started.wait(30)
        served: list[object] = []
        meanwhile = threading.Thread(
            target=lambda: served.append(resolver.resolve(None, REPOS[0])))
        meanwhile.start()
        meanwhile.join(5)
        assert served == [cached]  # answered while the other bank is still loading
    finally:
        release.set()
        loading.join(30)
    assert resolver.resolve(None, REPOS[1]).id == store.banks.alias("production", REPOS[1])
    store.close()


def test_a_bank_asked_for_twice_while_it_loads_is_loaded_once(mem, monkeypatch) -> None:
    """The warm-up and a first recall asking for the same bank (seconds to load at 100K
    memories) share one load."""
    store = _store_one_bank_per_repository(mem)
    resolver = BankResolver(store)
    loads: list[str] = []
    started, release = threading.Event(), threading.Event()
    real_get = store.banks.get

    def slow_get(ref: str):  # type: ignore[no-untyped-def]
        loads.append(ref)
        started.set()
        assert release.wait(30)
        return real_get(ref)

    monkeypatch.setattr(store.banks, "get", slow_get)
    got: list[Bank] = []
    first = threading.Thread(target=lambda: got.append(resolver.resolve(None, REPOS[0])))
    first.start()
    assert started.wait(30)
    second = threading.Thread(target=lambda: got.append(resolver.resolve(None, REPOS[0])))
    second.start()
    second.join(0.5)
    assert second.is_alive()  # waiting for the first load, not loading
    release.set()
    for thread in (first, second):
        thread.join(30)
    assert len(loads) == 1 and len(got) == 2 and got[0] is got[1]
    store.close()
