"""Serving the stored banks: resolve ``--bank`` references and keep loaded banks in memory.

A reference is a bank id (or unique prefix) or an alias; an alias is looked up for the query's
repository first, then in the global namespace (banks that span repositories). Loading a bank
reads and re-hashes every memory, so a long-running server keeps loaded banks by id; an alias
lookup is one cheap query, so a promotion (an alias move) is seen by the very next recall.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from dreamer.models import Bank
from dreamer.router.errors import RouterError

if TYPE_CHECKING:
    from dreamer.store import Store

DEFAULT_ALIAS = "production"


class BankResolver:
    """Bank references -> banks, with the last ``cache_size`` loaded banks cached by id (a
    server serving more repositories keeps one per repository: ``served_repositories``)."""

    def __init__(self, store: Store, cache_size: int = 4) -> None:
        self.store = store
        self._banks: OrderedDict[str, Bank] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Event] = {}
        """References being loaded, set when their load ends."""

    def resolve(self, ref: str | None, repo: str) -> Bank:
        """The bank ``ref`` names for ``repo`` (default: its ``production`` alias)."""
        from dreamer.errors import StoreError

        ref = ref or DEFAULT_ALIAS
        target = None
        if not ref.startswith("bank_"):
            target = self.store.banks.alias(ref, repo) or self.store.banks.alias(ref, None)
            if target is None:
                raise RouterError(
                    f"no bank alias {ref!r} for repository {repo!r} (nor a global one): promote a "
                    f"bank to it, or pass --bank with a bank id (`dreamer banks` lists them)"
                )
        key = target or ref
        with self._lock:
            known = [bid for bid in self._banks if bid == target or (
                target is None and bid.startswith(ref))]
            if len(known) == 1:
                self._banks.move_to_end(known[0])
                return self._banks[known[0]]
            loading = self._loading.get(key)
            if loading is None:
                self._loading[key] = threading.Event()
        if loading is not None:  # another thread loads it: wait for that load, not load twice
            loading.wait()
            return self.resolve(ref, repo)
        # Loaded outside the lock: a recall of a cached bank does not wait for another bank's
        # load (seconds for 100K memories; a server's warm-up loads every served bank).
        try:
            bank = self.store.banks.get(key)
        except BaseException as exc:
            with self._lock:
                self._loading.pop(key).set()  # a waiting thread tries the load itself
            if isinstance(exc, StoreError):
                raise RouterError(str(exc)) from exc
            raise
        with self._lock:
            bank = self._banks.setdefault(bank.id, bank)
            self._banks.move_to_end(bank.id)
            while len(self._banks) > self._size:
                self._banks.popitem(last=False)
            self._loading.pop(key).set()  # cached first: a waiting thread finds it
            return bank


def served_repositories(store: Store, ref: str | None) -> list[str]:
    """The repositories a server for ``ref`` (an alias; default production) serves: those with
    that alias (none for a bank id: known only from the queries)."""
    ref = ref or DEFAULT_ALIAS
    if ref.startswith("bank_"):
        return []
    return sorted({r for r, name, _, _ in store.banks.aliases() if name == ref})
