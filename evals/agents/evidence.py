"""Evidence terms: the identifiers, paths, test ids and command words a text names.

``terms(text)`` returns lower-cased terms of these kinds, each at least 3 characters:

- test ids (``tests/t.py::test_a``), and their file and test name;
- file paths (anything with a ``/`` or a file suffix such as ``.py``), and their base name;
- dotted names (``pricing.money.round_cents``), and each of their parts;
- environment assignments (``FOO_BAR=1``) kept whole, and their variable;
- ``make TARGET`` kept whole;
- every other identifier (``[A-Za-z_][A-Za-z0-9_]*``);

minus English stopwords, Python keywords and Python builtins (``round``, ``str``, ...), which
name no fact specific to a repository.
"""

from __future__ import annotations

import builtins
import keyword
import re

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing done down during each else ever every few
for from further had has have having he her here hers him his how however i if in into is it its
itself just let like made make many may me might more most much must my never no nor not now of
off on once one only or other our out over own same she should since so some such than that the
their them then there these they this those through thus to too under until up upon us very was
we were what when where which while who whom why will with within without would yet you your
use used uses using instead rather always avoid don dont does doesn isn aren wasn weren won
""".split())
_PYTHON = frozenset(w.lower() for w in (*keyword.kwlist, *keyword.softkwlist, *dir(builtins)))
EXCLUDED = STOPWORDS | _PYTHON

_TEST_ID = re.compile(r"[\w./-]+\.py::[\w\[\]\-.:]+")
_PATH = re.compile(
    r"(?:[\w.-]+/)+[\w.-]+|[\w-]+\.(?:py|pyi|txt|toml|cfg|ini|yaml|yml|json|md|sh|js|ts)\b"
)
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b")
_ENV = re.compile(r"\b([A-Z][A-Z0-9_]{2,})=(\S+)")
_MAKE = re.compile(r"\bmake\s+([\w.-]+)")
_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def terms(text: str) -> set[str]:
    """The evidence terms of ``text`` (see the module docstring)."""
    found: set[str] = set()
    for test_id in (t.rstrip(".:-") for t in _TEST_ID.findall(text)):
        path, _, name = test_id.partition("::")
        found.update({test_id, path, path.rsplit("/", 1)[-1], name.split("[")[0]})
    for path in (p.rstrip(".-") for p in _PATH.findall(text)):
        found.update({path, path.rsplit("/", 1)[-1]})
    for dotted in _DOTTED.findall(text):
        found.add(dotted)
        found.update(dotted.split("."))
    for var, value in _ENV.findall(text):
        found.update({f"{var}={value}", var})
    for target in _MAKE.findall(text):
        found.add(f"make {target}")
    found.update(_IDENT.findall(text))
    return {t.lower() for t in found if len(t) >= 3 and t.lower() not in EXCLUDED}
