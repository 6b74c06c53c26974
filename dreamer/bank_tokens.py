"""How many tokens a bank's active memories cost an agent's prompt, counted so that a stage's
new bank costs only its new lines, and so that the counts of a dream's shards add up."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from dreamer import settings
from dreamer.models import Bank, Memory


def active_tokens(bank: Bank) -> int:
    """Tokens of the bank's active memories as the router renders them for a prompt, one line
    each (the harness counts a bank the same way): the tokens of the joined lines, counted line
    by line so that a stage's new bank costs only its new lines.

    The sum is exact: the tokenizer's pre-tokens never run past a newline into a line that starts
    with a non-space character (every rendered line starts with ``- ``), so the joined text's
    tokens are those of each line with its newline, and of the last line alone
    (``tests/test_pipeline.py`` compares both counts).
    """
    active = bank.active
    return tokens_of(token_parts(active, len(active) - 1))


class TokenParts(NamedTuple):
    """Active tokens in parts that add up over banks of disjoint memories (the shards of one
    dream): every active line with its newline, and the line that ends the joined text, by
    ``key`` (the greatest key ends it), with its newline and without."""

    lines: int
    key: Any
    last_line: int
    last_alone: int


def token_parts(active: Sequence[Memory], key: Any) -> list[TokenParts]:
    """The parts of ``active`` (in the order they are joined; none if it is empty), whose last
    line has ``key``."""
    from dreamer.router import render
    from dreamer.tokens import count_tokens

    if not active:
        return []
    last = active[-1]
    return [TokenParts(sum(_line_tokens(m) for m in active), key, _line_tokens(last),
                       count_tokens(render(last)))]


def tokens_of(parts: Iterable[TokenParts]) -> int:
    """The tokens of the joined lines of every part."""
    present = list(parts)
    if not present:
        return 0
    end = max(present, key=lambda p: p.key)
    return sum(p.lines for p in present) - end.last_line + end.last_alone


_LINE_TOKENS: dict[str, int] = {}
"""Tokens of each memory's line and the newline after it, by memory id (the id hashes the type,
summary, conditions and citations: all that the line shows)."""


def _line_tokens(memory: Memory) -> int:
    found = _LINE_TOKENS.get(memory.id)
    if found is None:
        from dreamer.router import render
        from dreamer.tokens import count_tokens

        if len(_LINE_TOKENS) >= settings.TEXTS_CACHED:
            _LINE_TOKENS.clear()
        found = _LINE_TOKENS[memory.id] = count_tokens(render(memory) + "\n")
    return found
