"""The names a change introduces and removes: what structural memories say instead of code.

A memory built from what happened in a session names identifiers, never copied code lines:
"changing ``shop/holds.py`` with ``name`` failed ``test_x``; the passing fix used
``LEGACY_STATUS_CODES``". ``change_names(hunks)`` reads them off diff hunks:

- a line's *names* are its identifiers (``[A-Za-z_][A-Za-z0-9_]*``, each part of a dotted name),
  the attribute it reads off an object (``patient.tz``, ``cache.invalidate``: the last two parts
  of a chain, ``self.`` dropped, standard-library modules left out) and the module paths it
  imports (``shop.legacy``), outside comments, minus Python keywords, builtins and the commonest
  English words, and its one-word string literals (keys, codes); a YAML or TOML key
  (``BILLING_TAX_RATE:``) is a name like any other;
- a change's *added* names are those of its added lines that none of its removed lines holds,
  its *removed* names the converse: what the change brought in, and what it took away.

Names are ranked by how specific they look (``rank``): constants and dotted names first, then
snake_case and CamelCase identifiers, longer before shorter; what the change binds itself (a
local variable, a loop variable, a parameter) and quoted words come last, since they name the
change's own scaffolding rather than the code it had to reach. A memory names the few that matter.
"""

from __future__ import annotations

import builtins
import keyword
import re
import sys
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
PYTHON_NAMES = frozenset({*keyword.kwlist, *keyword.softkwlist, *dir(builtins)})
"""Python's keywords and builtins: names no repository owns."""
_PYTHON = PYTHON_NAMES
_STDLIB = frozenset(sys.stdlib_module_names)
_FROM_IMPORT = re.compile(r"\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w\s,]+)")
# A keyword argument given a constant (``millis=True``, ``retries=3``): a setting of a call.
_KEYWORD = re.compile(r"[(,]\s*([A-Za-z_]\w*)=(True|False|None|-?\d[\w.]*|'[^'\n]{1,24}'|"
                      r"\"[^\"\n]{1,24}\")\s*(?=[,)])")
_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(")
# What a line binds for itself: an indented assignment, a loop or ``with`` target, parameters.
_BOUND = (
    re.compile(r"^\s+([A-Za-z_]\w*)\s*(?::[^=()]+)?=(?!=)(?!.*,\s*$)"),
    re.compile(r"\bfor\s+([\w\s,()]+?)\s+in\b"),
    re.compile(r"\bas\s+([A-Za-z_]\w*)"),
    re.compile(r"\b(?:def\s+\w+|lambda)\s*\(?([^):]*)"),
)


@dataclass(frozen=True)
class ChangeNames:
    """What a change brought in and took away, by name, and the files it touched."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    paths: tuple[str, ...]
    calls: tuple[str, ...] = ()
    """Functions called on the changed lines, new or not (a call whose arguments changed)."""
    bound: frozenset[str] = frozenset()
    """Names the change binds itself (locals, loop variables, parameters) and quoted words."""
    relied: tuple[str, ...] = ()
    """Names on both the added and the removed lines: what the rewritten lines still rely on
    (a rule rewritten around ``GRACE_DAYS`` and ``FINE_CAP_CENTS`` brings neither in)."""


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
        elif len(parts) > 1 and (chain := _attribute(parts)):
            found.add(chain)
        found.update(p for p in parts if _meaningful(p))
    if importing and (relative := _FROM_IMPORT.match(text)) and relative.group(1):
        # A relative import is read from the importing file's own package: ``from .codes
        # import X`` in clinic/billing/ names ``clinic.billing.codes``.
        if full := _absolute(relative.group(1), relative.group(2), path):
            found.add(full)
    found.update(f"{k}={v}" for k, v in _KEYWORD.findall(text) if _meaningful(k))
    # Quoted words of one token are keys and codes ("orders", 'H'): kept as they are.
    for literal in _STRING.findall(text):
        inner = literal[1:-1]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]{1,40}", inner) and _meaningful(inner):
            found.add(inner)
    return found


def _attribute(parts: list[str]) -> str | None:
    """The attribute a dotted chain reads, as ``owner.attribute`` (``patient.tz``), or None for
    a standard-library call (``os.path.join``) or a chain on ``self`` alone."""
    if parts[0] in ("self", "cls"):
        parts = parts[1:]
    if len(parts) < 2 or parts[0] in _STDLIB or parts[0] in _PYTHON:
        return None
    owner, attribute = parts[-2], parts[-1]
    if not (_meaningful(attribute) or attribute in _PYTHON) or len(owner) < 2:
        return None
    return f"{owner}.{attribute}"


def bound_names(line: str) -> set[str]:
    """The names one line binds for itself (see the module docstring)."""
    text = _STRING.sub("''", _strip_comment(line))
    found: set[str] = set()
    for pattern in _BOUND:
        for match in pattern.finditer(text):
            for piece in re.split(r"[,()\s]+", match.group(1)):
                name = piece.split(":")[0].split("=")[0].strip().lstrip("*")
                if name and name.isidentifier():
                    found.add(name)
    return found


def _absolute(dots: str, module: str, path: str) -> str:
    """The absolute module path of ``from <dots><module> import`` written in file ``path``."""
    if not dots:
        return module
    package = path.removesuffix(".py").split("/")[:-1]
    up = len(dots) - 1
    kept = package[: len(package) - up] if up <= len(package) else []
    return ".".join([*kept, *([module] if module else [])])


def imported_modules(line: str, path: str = "") -> dict[str, str]:
    """The names ``from package import name`` brings in, by their full path (``codes`` ->
    ``clinic.billing.codes``); relative imports are read from ``path``'s package."""
    match = _FROM_IMPORT.match(_strip_comment(line))
    if not match:
        return {}
    dots, module, imported = match.groups()
    module = _absolute(dots, module, path)
    return {n: f"{module}.{n}" for n in re.split(r"[\s,]+", imported)
            if module and n and n.islower() and _meaningful(n)}


def _quoted(line: str) -> set[str]:
    return {q[1:-1] for q in _STRING.findall(line)}


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
    hunks = [h for h in hunks if tests or not is_test_path(h.path)]
    added: set[str] = set()
    removed: set[str] = set()
    bound: set[str] = set()
    quoted: set[str] = set()
    unquoted: set[str] = set()
    calls: set[str] = set()
    modules: dict[str, str] = {}
    paths_imported: set[str] = set()
    paths: list[str] = []
    for hunk in hunks:
        paths.append(hunk.path)
        for line in (*hunk.added, *hunk.removed):
            bound |= bound_names(line)
            quoted |= _quoted(line)
            unquoted |= line_names(_STRING.sub("''", line), hunk.path)
        before = {r.strip() for r in hunk.removed}
        for line in hunk.added:
            added |= line_names(line, hunk.path)
            if _IMPORT.match(line):
                paths_imported.update(n for n in line_names(line, hunk.path) if "." in n)
            modules.update(imported_modules(line, hunk.path))
            if line.strip() not in before:
                calls.update(c.split(".")[-1] if c.split(".")[0] in ("self", "cls") else c
                             for c in _CALL.findall(_STRING.sub("''", _strip_comment(line))))
        for line in hunk.removed:
            removed |= line_names(line, hunk.path)
    # A name imported from a package and used as a module (``codes.X``) is named by its path.
    text = "\n".join(line for h in hunks for line in h.added)
    used_modules = {full for short, full in modules.items()
                    if re.search(rf"\b{re.escape(short)}\.", text)}
    added |= used_modules
    reach = paths_imported | used_modules
    # A quoted word is scaffolding unless the change also uses it as a name; module paths
    # (what an import names) are the change's reach, never its scaffolding.
    late = (bound | (quoted - unquoted)) - reach
    calls = {c for c in calls if _meaningful(c.split(".")[-1]) and c.split(".")[0] not in _STDLIB
             and c not in _PYTHON}
    return ChangeNames(rank(added - removed, late, reach), rank(removed - added, late, reach),
                       tuple(dict.fromkeys(paths)), rank(calls, late, reach), frozenset(late),
                       rank((added & removed) - late, (), reach))


def rank(names: Iterable[str], last: Iterable[str] = (),
         modules: Iterable[str] = ()) -> tuple[str, ...]:
    """``names`` from the most specific-looking to the least (ties by name), those in ``last``
    after all others; a part of a dotted name that is itself listed (``shop`` beside
    ``shop.legacy``, ``tz`` beside ``patient.tz``) is left out."""
    names = set(names)
    late = set(last)
    parts = {p for n in names if "." in n and "=" not in n for p in n.split(".")}
    parts |= {n.split("=")[0] for n in names if "=" in n}
    names = {n for n in names if n not in parts}
    known = frozenset(modules)
    return tuple(sorted(names, key=lambda name: (name in late, *_kind(name, late, known))))


def _kind(name: str, late: set[str] | frozenset[str] = frozenset(),
          modules: set[str] | frozenset[str] = frozenset()) -> tuple[float, int, str]:
    kind: float
    owner = name.split(".")[0]
    if "." in name and "=" not in name and name not in modules and (owner in late or (
            owner.islower() and name.count(".") == 1 and "_" not in owner)):
        kind = 2.5  # an attribute of a local or a parameter (``order.carrier``)
    elif "." in name:
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


def shown(names: Sequence[str], limit: int = 4) -> str:
    """Up to ``limit`` names as inline code, and how many more."""
    picked = [f"`{n}`" for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(picked) + more
