"""Token counting with litellm's bundled tokenizer (offline), imported on first use."""

from __future__ import annotations

import os
from functools import lru_cache

DEFAULT_TOKENIZER_MODEL = "gpt-3.5-turbo"
"""The model whose tokenizer litellm bundles; token budgets are counted with it."""


@lru_cache(maxsize=1)
def _counter():  # type: ignore[no-untyped-def]
    # litellm fetches a cost map over the network at import unless told not to.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm import token_counter

    return token_counter


@lru_cache(maxsize=65536)
def count_tokens(text: str, model: str = DEFAULT_TOKENIZER_MODEL) -> int:
    """How many tokens ``text`` takes for ``model`` (0 for the empty string)."""
    if not text:
        return 0
    return int(_counter()(model=model, text=text))
