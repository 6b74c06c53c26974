"""The embedding leg: the packaged MiniLM model through Chroma, offline, built once per bank."""

from __future__ import annotations

import pytest

from dreamer.router import Router, RouterConfig

TOPICS = [
    "Database connections leak when the pool is not closed after each request",
    "Dates are rendered in UTC in invoices; convert to the shop's timezone first",
    "The CSV export escapes commas but not newlines inside quoted fields",
    "Image thumbnails are generated lazily on the first page view",
    "Feature flags are cached for five minutes in the web workers",
    "The payment webhook must be idempotent because the provider retries it",
]


@pytest.mark.slow  # loads torch and the model: ~10 s on an idle machine
def test_a_paraphrase_with_no_shared_word_is_found_by_meaning_and_the_index_is_reused(
    mem, bank
) -> None:
    memories = [mem(t) for t in TOPICS] + [mem(TOPICS[0], repo="other/repo")]
    b = bank(*memories)
    query = "sockets to postgres stay open forever"
    config = RouterConfig(embeddings=True, fill_below=0)  # no filling: only what legs found

    lexical_only = Router(config.model_copy(update={"embeddings": False}))
    assert lexical_only.pack(b, query, repo="acme/shop").items == ()

    first = Router(config)
    result = first.recall(b, query, repo="acme/shop", budget=None)
    assert result.memory_ids[0] == memories[0].id
    assert memories[-1].id not in result.memory_ids  # same text, other repository
    # Only the queried repository's memories were embedded, each once.
    assert first.index(b).times.embedded == len(TOPICS)

    again = Router(config)  # a new process would see the same persistent collection
    assert again.recall(b, query, repo="acme/shop").memory_ids == result.memory_ids
    assert again.index(b).times.embedded == 0
