"""The BM25 leg: one bm25s index per repository partition of a bank.

Tokens are lower-cased words; identifiers are kept whole and also split into their parts
(``parse_order`` -> ``parse_order``, ``parse``, ``order``; ``OrderParser`` -> ``orderparser``,
``order``, ``parser``), so a query may name a symbol either way.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_STOP = frozenset(
    "a an and are as at be by can do does for from has have how i if in into is it its not of on "
    "or our so that the their then there these this to was we what when where which while why "
    "will with you".split()
)


@lru_cache(maxsize=4096)
def tokenize(text: str) -> tuple[str, ...]:
    """Search tokens of ``text``: words, identifiers and their parts, without stopwords."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        lower = word.lower()
        if len(lower) > 1 and lower not in _STOP:
            tokens.append(lower)
        parts = [p.lower() for p in _PARTS.findall(word)]
        if len(parts) > 1:
            tokens.extend(p for p in parts if len(p) > 1 and p not in _STOP)
    return tuple(tokens)


def memory_text(summary: str, conditions: Sequence[str], extra: Sequence[str] = ()) -> str:
    """The text a memory is searched by: its summary, conditions and cited paths/symbols."""
    return " \n".join([summary, *conditions, *extra])


@dataclass(frozen=True)
class Hit:
    """A search result: a local index into the indexed documents and its score."""

    index: int
    score: float


class LexicalIndex:
    """BM25 over a fixed list of documents (one repository's memories)."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        # bm25s sets its own logger to DEBUG at import, which floods every log handler.
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        self.size = len(texts)
        self._bm25: Any = bm25s.BM25()
        corpus = [list(tokenize(t)) or [""] for t in texts]
        self._bm25.index(corpus, show_progress=False)
        self._vocab: dict[str, int] = self._bm25.vocab_dict

    def search(self, query: str, allowed: Sequence[int], k: int) -> list[Hit]:
        """The ``k`` best documents among ``allowed`` with a positive score, best first;
        ties are broken by position so results are deterministic."""
        import numpy as np

        ids = sorted({self._vocab[t] for t in tokenize(query) if t in self._vocab})
        if not ids or not allowed or k <= 0:
            return []
        mask = np.zeros(self.size, dtype=np.float32)
        mask[np.asarray(allowed, dtype=np.int64)] = 1.0
        scores = self._bm25.get_scores_from_ids(ids, weight_mask=mask)
        positive = np.flatnonzero(scores > 0)
        if positive.size == 0:
            return []
        if positive.size > k:
            # argpartition finds the k best cheaply; the exact order is fixed below.
            part = positive[np.argpartition(-scores[positive], k - 1)[:k]]
            threshold = scores[part].min()
            positive = positive[scores[positive] >= threshold]  # keep every tie at the cut
        order = np.lexsort((positive, -scores[positive]))
        return [Hit(int(positive[i]), float(scores[positive[i]])) for i in order[:k]]
