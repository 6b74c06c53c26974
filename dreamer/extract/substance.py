"""No content-free memories: a memory must name something concrete and say something about it.

``content_free(text, kind)`` returns why a memory's text carries nothing, or None when it does:

- it names no concrete identifier, path, test id, command or config key (``specifics`` of the
  write gate): "Not resolved in this session.", "be more careful with tests";
- what is left once its empty phrases are removed ("not resolved in this session", "see the
  cited run", "nothing to change", "no changes", ...) names nothing concrete either;
- a memory that is not an episode must also say what to do or avoid, or what happened: a verb
  of instruction or of outcome (``use``, ``must``, ``never``, ``failed``, ``needs``, ``is``, ...),
  a stated value (``KEY = 100``), or a relation between two or more things it names.

The write gate rejects such a candidate (reason ``content_free``), and every dream stage that
writes text (abstraction, compression, and any LM-written text) keeps its input instead of a
content-free rewrite.
"""

from __future__ import annotations

import re

from dreamer.extract.gate import specifics

_EMPTY = re.compile(
    r"\b(?:not resolved in this session|no passing fix in this session|see the cited run|"
    r"nothing (?:to change|changed|else)|no changes?|as above|see above|n/a|tbd|todo|"
    r"unknown (?:outcome|cause)|it (?:works|worked) now|done|fixed it)\b[.;,]?",
    re.IGNORECASE,
)
_SAYS = re.compile(
    r"\b(?:use[sd]?|using|must|should|never|always|avoid|don'?t|do not|only|needs?|requires?|"
    r"has to|have to|keep|store[sd]?|set|run|runs|ran|call|calls|change[sd]?|add(?:s|ed)?|"
    r"remove[sd]?|failed|fails|breaks?|broke|passes|passed|returns?|raises?|reads?|writes?|"
    r"is|are|was|were|instead|rather|prefer|expects?|goes|go|comes?|lives?|holds?|means?)\b",
    re.IGNORECASE,
)


_ASSIGNS = re.compile(r"\b[A-Za-z_][\w.]*\s*(?:==?|:)\s*[\w'\"-]")
"""A stated value (``PAGE_SIZE = 100``, ``api_version: 2024-06-01``) says what holds."""


def content_free(text: str, kind: str = "domain") -> str | None:
    """Why ``text`` (a memory of type ``kind``) says nothing, or None when it says something."""
    if not specifics(text):
        return "names no identifier, path, test, command or config key"
    rest = _EMPTY.sub(" ", text)
    if not specifics(rest):
        return "only an empty phrase beside what it names"
    says = _SAYS.search(rest) or _ASSIGNS.search(rest) or len(specifics(rest)) >= 2
    if kind != "episodic" and not says:
        return "says neither what to do or avoid nor what happened"
    return None
