"""The names a change introduces and removes: what structural memories say instead of code.

A memory built from what happened in a session names identifiers, never copied code lines:
"changing ``shop/holds.py`` with ``name`` failed ``test_x``; the passing fix used
``LEGACY_STATUS_CODES``". ``change_names(hunks)`` reads them off diff hunks:

- a line's *names* are its identifiers (``[A-Za-z_][A-Za-z0-9_]*``, each part of a dotted name)
  and the module paths it imports (``shop.legacy``), outside comments, minus Python keywords,
  builtins and the commonest English words, and its one-word string literals (keys, codes); a
  YAML or TOML key (``BILLING_TAX_RATE:``) is a name like any other;
- a change's *added* names are those of its added lines that none of its removed lines holds,
  its *removed* names the converse: what the change brought in, and what it took away.

Names are ranked by how specific they look (``rank``): constants and dotted names first, then
snake_case and CamelCase identifiers, longer before shorter, so that a memory can name the few
that matter.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dreamer.extract.citations import Hunk

_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\b")
_STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_IMPORT = re.compile(r"\s*(?:from\s+\S+\s+import|import)\s")
_COMMON = frozenset("""
a an and are as at be by for from if in is it of on or the to with this that not no yes true
false none self cls args kwargs x y i j k n s e f v return returns use uses used assert
""".split())
_PYTHON = frozenset({*keyword.kwlist, *keyword.softkwlist, *dir(builtins)})


@dataclass(frozen=True)
class ChangeNames:
    """What a change brought in and took away, by name, and the files it touched."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    paths: tuple[str, ...]


def line_names(line: str, path: str = "") -> set[str]:
    """The names of one line of code (see the module docstring)."""
    text = line
    if not path.endswith((".md", ".rst", ".txt")):
        text = _strip_comment(text)
    found: set[str] = set()
    importing = _IMPORT.match(text)
    for match in _NAME.finditer(text):
        name = match.group(0)
        parts = name.split(".")
        if len(parts) > 1 and importing:
            found.add(name)  # a module path (``shop.legacy``) names where a thing lives
        found.update(p for p in parts if _meaningful(p))
    # Quoted words of one token are keys and codes ("orders", 'H'): kept as they are.
    for literal in _STRING.findall(text):
        inner = literal[1:-1]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]{1,40}", inner) and _meaningful(inner):
            found.add(inner)
    return found


def _strip_comment(line: str) -> str:
    without_strings = _STRING.sub(lambda m: "x" * len(m.group(0)), line)
    cut = without_strings.find("#")
    return line if cut < 0 else line[:cut]


def _meaningful(name: str) -> bool:
    low = name.lower()
    return len(name) >= 2 and low not in _COMMON and name not in _PYTHON and not name.isdigit()


_TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*$|_test\.py$|(^|/)conftest\.py$")


def is_test_path(path: str) -> bool:
    """Whether ``path`` is a test file (``tests/...``, ``test_*.py``, ``*_test.py``,
    ``conftest.py``): a change to it is a test, not the fix."""
    return bool(_TEST_PATH.search(path))


def change_names(hunks: Iterable[Hunk], tests: bool = False) -> ChangeNames:
    """The names the hunks added and removed (see the module docstring); hunks of test files
    are left out unless ``tests``."""
    added: set[str] = set()
    removed: set[str] = set()
    paths: list[str] = []
    for hunk in hunks:
        if not tests and is_test_path(hunk.path):
            continue
        paths.append(hunk.path)
        for line in hunk.added:
            added |= line_names(line, hunk.path)
        for line in hunk.removed:
            removed |= line_names(line, hunk.path)
    return ChangeNames(rank(added - removed), rank(removed - added),
                       tuple(dict.fromkeys(paths)))


def rank(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` from the most specific-looking to the least (ties by name); a part of a module
    path that is itself listed (``shop`` beside ``shop.legacy``) is left out."""
    names = set(names)
    parts = {p for n in names if "." in n for p in n.split(".")}
    names = {n for n in names if n not in parts}
    def key(name: str) -> tuple[int, int, str]:
        if "." in name:
            kind = 1
        elif name.isupper() and "_" in name:
            kind = 0
        elif "_" in name.strip("_") or re.search(r"[a-z][A-Z]", name):
            kind = 2
        elif name[:1].isupper():
            kind = 3
        else:
            kind = 4
        return (kind, -len(name), name)

    return tuple(sorted(set(names), key=key))


def shown(names: Sequence[str], limit: int = 4) -> str:
    """Up to ``limit`` names as inline code, and how many more."""
    picked = [f"`{n}`" for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(picked) + more
