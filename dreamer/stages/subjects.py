"""What a memory is about: the identifiers it names and the code and tests it cites.

``subject(memory)`` is the set of code-level names in its summary and conditions (identifiers,
dotted names, config keys, test ids, file paths, as the write gate reads them:
``dreamer.extract.gate.specifics``) and the files and tests its citations name. Two memories
about disjoint subjects state different facts however alike they read: dedupe never merges
them, and conflict resolution never pits one against the other.
"""

from __future__ import annotations

from dreamer.models import CitationKind, Memory
from dreamer.settings import TEXTS_CACHED, names_cache

_TOO_COMMON = frozenset({"tests", "test", "src", "lib", "main", "README.md", "setup.py"})
"""Names every memory of a repository may carry: they tie nothing to one fact."""


@names_cache
def _named(text: str) -> frozenset[str]:
    from dreamer.extract.gate import specifics

    return frozenset(s.strip("`'\".,;:()[]") for s in specifics(text))


_BY_ID: dict[str, tuple[str, ...]] = {}
"""Subjects by memory id (the id hashes everything a subject is read from), as tuples: see
``dreamer.settings.names_cache``."""


def subject(memory: Memory) -> frozenset[str]:
    """The names ``memory`` is about (see the module docstring)."""
    found = _BY_ID.get(memory.id)
    if found is None:
        if len(_BY_ID) >= TEXTS_CACHED:
            _BY_ID.clear()
        found = _BY_ID[memory.id] = tuple(_subject(memory))
    return frozenset(found)


def _subject(memory: Memory) -> frozenset[str]:
    names = set(_named(" ".join((memory.summary, *memory.conditions))))
    for cite in memory.citations:
        if cite.kind is CitationKind.FILE and cite.path:
            names.add(cite.path)
        elif cite.kind is CitationKind.TEST:
            names.add(cite.ref)
    return frozenset(n for n in names if n and n not in _TOO_COMMON)


def named(memory: Memory) -> frozenset[str]:
    """The code-level names ``memory``'s own words carry (not its citations)."""
    return frozenset(n for n in _named(" ".join((memory.summary, *memory.conditions)))
                     if n and n not in _TOO_COMMON)


def code_names(memory: Memory) -> frozenset[str]:
    """``named`` without paths and test ids (the citations carry those): identifiers, dotted
    names, config keys, commands."""
    return text_code_names(" ".join((memory.summary, *memory.conditions)))


@names_cache
def text_code_names(text: str) -> frozenset[str]:
    """The code names (see ``code_names``) that ``text`` states."""
    return frozenset(n for n in _named(text) if n and n not in _TOO_COMMON
                     and "/" not in n and "::" not in n
                     and not n.endswith((".py", ".md", ".txt", ".toml", ".yaml", ".yml", ".json"))
                     and not ("." in n and n.replace(".", "/") in text))  # a path, dotted


def same_subject(a: Memory, b: Memory) -> bool:
    """Whether the two memories name or cite at least one thing in common."""
    return bool(subject(a) & subject(b))
