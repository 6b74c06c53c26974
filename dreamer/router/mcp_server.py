"""``dreamer mcp``: the production bank over the Model Context Protocol (stdio).

Claude Code, Copilot, Cursor or any MCP client launches ``dreamer mcp`` (or
``python -m dreamer.router.mcp_server``) and calls two tools:

- ``recall(query, repo, branch?, module?, phase?, budget?, checkout?)``: the router's pack for
  the query, as prompt text plus structured memories with their verification state;
- ``feedback(memory_ids, signal, repo, task_id?)``: report memories that helped or hurt.

The bank is the ``production`` alias of the query's repository unless ``--bank`` names another
alias or a bank id. Recalls and verifications are recorded in the store. Nothing but protocol
messages is written to stdout.
"""

from __future__ import annotations

import argparse
import logging
import os
import threading
from typing import TYPE_CHECKING, Any, Literal

from dreamer.router.config import RouterConfig
from dreamer.router.core import Router
from dreamer.router.errors import RouterError
from dreamer.router.serving import BankResolver, served_repositories
from dreamer.tokens import encoding

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from dreamer.models import Bank
    from dreamer.store import Store

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Memories learned from earlier coding-agent sessions on this repository. Call `recall` with "
    "what you are about to do and the repository (owner/name); pass `checkout` (the working "
    "copy's path) so cited code is verified. Treat memories marked UNVERIFIED as leads to check, "
    "not facts. Afterwards, call `feedback` with the ids of memories that helped or hurt."
)


WARMING_NOTE = "warming up: vector leg off until the model and indexes are loaded"


def served_banks(resolver: BankResolver, bank: str | None) -> list[Bank]:
    """The banks a server for ``bank`` (an alias; default production) serves: one per
    repository with that alias (none for a bank id, known only from the queries)."""
    chosen = []
    for repo in served_repositories(resolver.store, bank):
        try:
            chosen.append(resolver.resolve(bank, repo))
        except RouterError:
            continue
    return chosen


def warm_up(router: Router, resolver: BankResolver, bank: str | None) -> None:
    """Load the query engine and build every index of the served banks (one per repository
    with the served alias), so that the first recall does not pay for them."""
    config = router.config
    if config.embeddings:
        from dreamer.onnx_model import encode_query

        encode_query("warm up")  # loads the query engine (exports the model on first use)
    for chosen in served_banks(resolver, bank):
        router.index(chosen).warm(embeddings=config.embeddings, kind=config.chroma,
                                  url=config.chroma_url)


def serving_config(config: RouterConfig | None, store: Store, bank: str | None
                   ) -> RouterConfig:
    """``config`` (default: from the environment) keeping at least one index per served
    repository built: the warm-up builds them all, and an index evicted is built again at the
    next recall of its repository."""
    config = config or RouterConfig.from_env()
    served = len(served_repositories(store, bank))
    if served > config.index_cache:
        return config.model_copy(update={"index_cache": served})
    return config


def build_server(
    store: Store, bank: str | None = None, config: RouterConfig | None = None,
    default_checkout: str | None = None, warm: bool = False, router: Router | None = None,
    settle: bool = False,
) -> MCPServer:
    """An MCP server answering recalls from ``store``'s bank ``bank`` (default: production).

    With ``warm``, a background thread loads the model and builds the indexes at once; until it
    is done, recalls are answered without the vector leg (BM25 and graph, said in the notes)
    rather than kept waiting for the model. ``router`` (default: a new one over ``store`` and
    ``config``) answers the recalls. With ``settle`` (the server's own process), what the
    process holds once the warm-up is done, and again after the first recall of each bank
    served after it, is exempt from the cyclic garbage collector (``dreamer.collector.settle``).
    """
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    router = router or Router(serving_config(config, store, bank), store=store)
    # As many banks kept loaded as indexes kept built (one per served repository): with fewer,
    # recalls across repositories reloaded and re-hashed banks from the store (20 repositories
    # of 2,000 memories: p50 229 ms, p95 617 ms without the vector leg).
    resolver = BankResolver(store, cache_size=router.config.index_cache)
    server: MCPServer = MCPServer(name="dreamer", instructions=INSTRUCTIONS)
    warmed = threading.Event()
    settled: set[str] = set()  # banks whose indexes were built when the process last settled

    def settle_with(banks: list[Bank]) -> None:
        from dreamer.collector import settle as freeze

        settled.update(b.id for b in banks)
        freeze()

    cold = router
    if warm and router.config.embeddings:
        cold = router.variant(embeddings=False)

        def warming() -> None:
            try:
                # First what recalls use meanwhile (the token counter, BM25 and graph, in
                # seconds): loading the model holds the interpreter for long stretches.
                encoding()
                for chosen in served_banks(resolver, bank):
                    cold.index(chosen).warm(embeddings=False)
                if settle:  # the collections while the model loads walk only what it adds
                    settle_with([])
                warm_up(router, resolver, bank)
                if settle:
                    settle_with(served_banks(resolver, bank))
            except Exception as exc:  # the first recall will build what is missing
                log.warning("warm-up stopped: %s", exc)
            finally:
                warmed.set()

        threading.Thread(target=warming, name="dreamer-mcp-warm-up", daemon=True).start()
    else:
        warmed.set()

    @server.tool(name="recall")
    def recall(
        query: str, repo: str, branch: str | None = None, module: str | None = None,
        phase: str | None = None, budget: int | None = 1000, checkout: str | None = None,
    ) -> dict[str, Any]:
        """Memories for a task in a repository, packed into `budget` tokens, best first.

        `checkout` is the local working copy of the repository: each memory's cited lines are
        checked there; moved lines are followed, changed ones mark the memory UNVERIFIED.
        """
        ready = warmed.is_set()
        try:
            chosen = resolver.resolve(bank, repo)
            result = (router if ready else cold).recall(
                chosen, query, repo=repo, branch=branch, module=module, phase=phase,
                budget=budget, checkout=checkout or default_checkout,
            )
        except RouterError as exc:
            raise ToolError(str(exc)) from exc
        if settle and ready and chosen.id not in settled:
            settle_with([chosen])  # its index was built by this recall (or the warm-up)
        payload = result.to_json()
        if not ready and cold is not router:
            payload["notes"] = [*payload.get("notes", []), WARMING_NOTE]
        return payload

    @server.tool(name="feedback")
    def feedback(
        memory_ids: list[str], signal: Literal["helped", "hurt"], repo: str,
        task_id: str | None = None,
    ) -> dict[str, Any]:
        """Report that the memories with these ids helped or hurt the task."""
        try:
            bank_id = resolver.resolve(bank, repo).id
            count = router.feedback(memory_ids, signal, bank_id=bank_id, repo=repo,
                                    task_id=task_id, source="mcp")
        except RouterError as exc:
            raise ToolError(str(exc)) from exc
        return {"recorded": count, "signal": signal}

    return server


def serve(
    bank: str | None = None, config: RouterConfig | None = None, checkout: str | None = None,
    warm: bool = True,
) -> None:
    """Open the store and serve over stdio until the client disconnects; with ``warm``, the
    model and the served banks' indexes load in the background from the start."""
    from dreamer.store import open_store

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    store = open_store()
    # A recall answers first; what it served and verified is written right after it.
    router = Router(serving_config(config, store, bank), store=store, background_records=True)
    try:
        build_server(store, bank, config, checkout, warm=warm, router=router,
                     settle=True).run("stdio")
    finally:
        try:
            router.flush()
        finally:
            store.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m dreamer.router.mcp_server [--bank REF] [--no-embeddings] [--checkout PATH]
    [--no-warm]``."""
    parser = argparse.ArgumentParser(prog="dreamer-mcp", description=__doc__.split("\n")[0])
    parser.add_argument("--bank", default=None, help="bank alias or id (default: production)")
    parser.add_argument("--no-embeddings", action="store_true", help="BM25 and graph only")
    parser.add_argument("--checkout", default=None, help="default working copy to verify against")
    parser.add_argument("--no-warm", action="store_true",
                        help="load the model and indexes at the first recall, not at start-up")
    args = parser.parse_args(argv)
    from dreamer.cli import quiet_libraries

    quiet_libraries()  # as ``dreamer mcp`` does: no model-loading logs or bars on stderr
    config = RouterConfig.from_env()
    if args.no_embeddings:
        config = config.model_copy(update={"embeddings": False})
    serve(args.bank, config, args.checkout, warm=not args.no_warm)


if __name__ == "__main__":
    main()
