"""Token counting with the tokenizer litellm bundles, read by tiktoken (offline, fast to load).

Token budgets are counted in ``cl100k_base`` tokens, the encoding of ``gpt-3.5-turbo`` that
``litellm.token_counter`` uses for plain text. litellm ships that encoding's vocabulary inside
its package; tiktoken reads it from there (``TIKTOKEN_CACHE_DIR``), so nothing is downloaded.
Importing litellm itself takes about 5 s (its provider types): a router answering its first
recall, or a server still loading its embedding model, should not pay that to count tokens.
The counts are those of ``litellm.token_counter(model="gpt-3.5-turbo", text=...)`` for texts up
to 1,024 characters; litellm encodes a longer text in 1,024-character pieces (a few tokens more
at the cuts), tiktoken encodes it whole (a test compares them).
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from dreamer.settings import TEXTS_CACHED

if TYPE_CHECKING:
    import tiktoken

DEFAULT_TOKENIZER_MODEL = "gpt-3.5-turbo"
"""The model whose tokenizer token budgets are counted with."""
ENCODING = "cl100k_base"
"""That model's tiktoken encoding."""


def bundled_vocabularies() -> Path:
    """litellm's folder of tiktoken vocabularies, found without importing litellm."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("litellm is not installed: its bundled tokenizer counts tokens")
    return Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The ``cl100k_base`` encoding, read from litellm's bundled vocabulary (loaded once)."""
    # A user's own cache directory wins, as in litellm (CUSTOM_TIKTOKEN_CACHE_DIR).
    folder = os.environ.get("CUSTOM_TIKTOKEN_CACHE_DIR") or str(bundled_vocabularies())
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", folder)
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


@lru_cache(maxsize=TEXTS_CACHED)
def count_tokens(text: str) -> int:
    """How many tokens ``text`` takes (0 for the empty string)."""
    if not text:
        return 0
    return len(encoding().encode(text, disallowed_special=()))
