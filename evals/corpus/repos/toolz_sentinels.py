"""Family ``toolz-sentinels``: in toolz, ``None`` is a value; "not given" is a sentinel.

Real toolz behaviour, stated only by its tests and doctests: ``get(i, seq, None)`` returns None,
``partition(n, seq, pad=None)`` pads with None, ``diff(..., default=None)`` fills with None.
Whether an optional argument was passed is tested against the module sentinels ``no_default``
(``toolz.utils``) and ``no_pad`` (``toolz.itertoolz``). Each task is a SWE-smith-style injected
bug (a removed condition) in one such function; the intuitive repair tests ``is None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evals.corpus.errors import CorpusError
from evals.corpus.spec import Decoy, Family, Rendered, Variant

SOURCE = "toolz/itertoolz.py"


@dataclass(frozen=True)
class Injection:
    key: str
    title: str
    problem: str
    original: str
    injected: str
    decoy: str
    decoy_description: str
    hidden: str
    signature: tuple[str, str]
    """The line that declares the sentinel default, and the same line with ``None`` instead:
    the second decoy makes ``None`` the default and tests for it (the idiom toolz avoids)."""
    tests: tuple[str, str] = ("", "")
    """The sentinel test as ``original`` writes it, and the ``None`` test as ``decoy`` does:
    swapped, each fix is also written in the other's shape (``_shapes``)."""
    short: str = ""
    """The gold in the decoy's shape, when swapping the test alone would not make it right."""


INJECTIONS: tuple[Injection, ...] = (
    Injection(
        "get_missing", "get() returns a strange string for a missing index",
        "`toolz.get(5, [1, 2])` no longer raises; it returns the string '__no__default__'. "
        "Passing an explicit default still works as far as I can tell.",
        "    except (KeyError, IndexError):  # we know `ind` is not a list\n"
        "        if default == no_default:\n            raise\n        else:\n"
        "            return default\n",
        "    except (KeyError, IndexError):  # we know `ind` is not a list\n"
        "        return default\n",
        "    except (KeyError, IndexError):  # we know `ind` is not a list\n"
        "        if default is None:\n            raise\n        return default\n",
        "raise when no default was given",
        "def test_get_missing_index_with_none_default():\n"
        "    assert get(5, [1, 2], None) is None\n    assert get('x', {}, None) is None\n\n\n"
        "def test_get_missing_index_raises():\n"
        "    assert raises(IndexError, lambda: get(5, [1, 2]))\n",
        ('def get(ind, seq, default=no_default):\n',
         'def get(ind, seq, default=None):\n'),
        tests=('default == no_default', 'default is None'),
    ),
    Injection(
        "get_unindexable", "get() on an unindexable value hides the TypeError",
        "Calling `get(0, 42)` used to raise TypeError. Now it returns a sentinel string and the "
        "bug shows up much later in our pipeline.",
        "                return tuple(_get(i, seq, default) for i in ind)\n"
        "        elif default != no_default:\n            return default\n        else:\n"
        "            raise\n",
        "                return tuple(_get(i, seq, default) for i in ind)\n"
        "        return default\n",
        "                return tuple(_get(i, seq, default) for i in ind)\n"
        "        if default is not None:\n            return default\n        raise\n",
        "only fall back to the default when one was passed",
        "def test_get_unindexable_with_none_default():\n    assert get(0, 42, None) is None\n\n\n"
        "def test_get_unindexable_raises():\n    assert raises(TypeError, lambda: get(0, 42))\n",
        ('def get(ind, seq, default=no_default):\n',
         'def get(ind, seq, default=None):\n'),
        tests=('default != no_default', 'default is not None'),
    ),
    Injection(
        "accumulate_initial", "accumulate() yields a bogus first element",
        "`list(accumulate(add, [1, 2, 3]))` blows up with a TypeError about str and int. "
        "It works when I pass an initial value.",
        "    seq = iter(seq)\n    if initial == no_default:\n        try:\n"
        "            result = next(seq)\n"
        "        except StopIteration:\n            return\n    else:\n        result = initial\n",
        "    seq = iter(seq)\n    result = initial\n",
        "    seq = iter(seq)\n    result = initial\n    if result is None:\n"
        "        result = next(seq)\n",
        "start from the first element when there is no initial value",
        "def test_accumulate_initial_none_is_a_value():\n"
        "    assert list(accumulate(lambda a, b: [a, b], [1], None)) == [None, [None, 1]]\n\n\n"
        "def test_accumulate_empty_without_initial():\n"
        "    assert list(accumulate(add, [])) == []\n",
        ('def accumulate(binop, seq, initial=no_default):\n',
         'def accumulate(binop, seq, initial=None):\n'),
        tests=('initial == no_default', 'result is None'),
        short=("    seq = iter(seq)\n    result = initial\n    if initial == no_default:\n"
               "        try:\n            result = next(seq)\n        except StopIteration:\n"
               "            return\n"),
    ),
    Injection(
        "reduceby_init", "reduceby() without init crashes",
        "reduceby(key, binop, seq) without an init raises \"'str' object is not callable\". "
        "With an init it is fine.",
        "        if k not in d:\n            if is_no_default:\n                d[k] = item\n"
        "                continue\n"
        "            else:\n                d[k] = init()\n",
        "        if k not in d:\n            d[k] = init()\n",
        "        if k not in d:\n            if init is None:\n                d[k] = item\n"
        "                continue\n"
        "            d[k] = init()\n",
        "seed each group with its first item when there is no init",
        "def test_reduceby_without_init_seeds_with_first_item():\n"
        "    assert reduceby(len, add, ['a', 'bb', 'c']) == {1: 'ac', 2: 'bb'}\n\n\n"
        "def test_reduceby_init_none_is_a_value():\n"
        "    assert reduceby(len, lambda acc, x: [acc, x], ['a'], None) == {1: [None, 'a']}\n",
        ('def reduceby(key, binop, seq, init=no_default):\n',
         'def reduceby(key, binop, seq, init=None):\n'),
        tests=('is_no_default', 'init is None'),
    ),
    Injection(
        "partition_pad", "partition() pads when it should drop the tail",
        "`list(partition(2, [1, 2, 3]))` gives `[(1, 2), (3, '__no__pad__')]`; the docs say the "
        "incomplete tail is dropped unless you ask for padding.",
        "    args = [iter(seq)] * n\n    if pad is no_pad:\n        return zip(*args)\n"
        "    else:\n        return zip_longest(*args, fillvalue=pad)\n",
        "    args = [iter(seq)] * n\n    return zip_longest(*args, fillvalue=pad)\n",
        "    args = [iter(seq)] * n\n    if pad is None:\n        return zip(*args)\n"
        "    return zip_longest(*args, fillvalue=pad)\n",
        "drop the incomplete tail when no padding was requested",
        "def test_partition_pad_none_pads_with_none():\n"
        "    assert list(partition(2, [1, 2, 3], pad=None)) == [(1, 2), (3, None)]\n\n\n"
        "def test_partition_drops_tail_without_pad():\n"
        "    assert list(partition(2, [1, 2, 3])) == [(1, 2)]\n",
        ('def partition(n, seq, pad=no_pad):\n',
         'def partition(n, seq, pad=None):\n'),
        tests=('pad is no_pad', 'pad is None'),
    ),
    Injection(
        "diff_default", "diff() pads sequences of unequal length",
        "`list(diff([1, 2, 3], [1, 2]))` reports `(3, '__no__default__')`; it should stop at "
        "the shorter sequence unless a default is given.",
        "    default = kwargs.get('default', no_default)\n    if default == no_default:\n"
        "        iters = zip(*seqs)\n    else:\n"
        "        iters = zip_longest(*seqs, fillvalue=default)\n",
        "    default = kwargs.get('default', no_default)\n"
        "    iters = zip_longest(*seqs, fillvalue=default)\n",
        "    default = kwargs.get('default', no_default)\n"
        "    iters = zip_longest(*seqs, fillvalue=default)\n    if default is None:\n"
        "        iters = zip(*seqs)\n",
        "only pad when a default is passed",
        "def test_diff_default_none_pads_with_none():\n"
        "    assert list(diff([1, 2, 3], [1, 2], default=None)) == [(3, None)]\n\n\n"
        "def test_diff_stops_at_shorter_without_default():\n"
        "    assert list(diff([1, 2, 3], [1, 2])) == []\n",
        ("    default = kwargs.get('default', no_default)\n",
         "    default = kwargs.get('default')\n"),
        tests=('default == no_default', 'default is None'),
    ),
)

HIDDEN_HEADER = ("from operator import add\n\n"
                 "from toolz import accumulate, diff, get, partition, reduceby\n"
                 "from toolz.utils import raises\n\n\n")


def _swap(text: str, old: str, new: str, key: str) -> str:
    if text.count(old) != 1:
        raise CorpusError(f"toolz injection {key!r}: its snippet occurs {text.count(old)} times "
                          f"in {SOURCE}; the pinned toolz version must match the injections")
    return text.replace(old, new)


def _shapes(injection: Injection) -> tuple[str, str]:
    """The gold in the decoy's shape and the decoy in toolz's own shape: the two fixes differ by
    their test (the sentinel or ``None``), and either may be written either way, so that which
    of them is longer tells nothing (``evals.corpus.sizes``)."""
    sentinel, none = injection.tests
    if not sentinel or none not in injection.decoy or sentinel not in injection.original:
        raise CorpusError(f"toolz injection {injection.key!r}: its tests {injection.tests} are "
                          "not in its original and decoy snippets")
    short = injection.short or injection.decoy.replace(none, sentinel)
    return short, injection.original.replace(sentinel, none)


def _variant(injection: Injection) -> Variant:
    hidden_path = f"toolz/tests/test_regression_{injection.key}.py"

    def render(files: Mapping[str, str]) -> Rendered:
        clean = files[SOURCE]
        buggy = _swap(clean, injection.original, injection.injected, injection.key)
        short, long = _shapes(injection)
        decoys = (_swap(buggy, injection.injected, injection.decoy, injection.key),
                  _swap(buggy, injection.injected, long, injection.key))

        def signed(text: str) -> dict[str, str]:
            return {SOURCE: _swap(text, *injection.signature, injection.key)}

        return Rendered(
            site={SOURCE: buggy},
            gold={SOURCE: clean},
            gold_forms=({SOURCE: _swap(buggy, injection.injected, short, injection.key)},),
            gold_description=injection.decoy_description,
            decoys=(Decoy(injection.decoy_description, {SOURCE: decoys[0]},
                          ({SOURCE: decoys[1]},)),
                    Decoy(f"{injection.decoy_description}, defaulting to None",
                          signed(decoys[0]), (signed(decoys[1]),))),
            hidden_tests={hidden_path: HIDDEN_HEADER + injection.hidden},
            test_files=("toolz/tests/test_itertoolz.py", hidden_path),
            edit_path=SOURCE,
        )

    return Variant(key=injection.key, title=injection.title, problem=injection.problem,
                   site_message=f"refactor: simplify {injection.key.split('_')[0]}() branches",
                   render=render)


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @eriknw on {rendered.edit_path}\n\n"
            "`None` is a perfectly good default here -- people pass it on purpose "
            "(`get(i, seq, None)` is documented). Compare against the sentinel like the rest of "
            "itertoolz does; see the doctests and test_itertoolz.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return ("Issue report from a downstream user (dask-contrib)\n"
            f"Title: {variant.title}\n"
            "After upgrading, our code that passes None explicitly as the default changed "
            "behaviour: None is now treated as 'no default given'. Minimal reproduction in "
            "the failing test below.")


FAMILY = Family(
    id="toolz-sentinels",
    repo="pytoolz/toolz",
    fact="In toolz, None is a legitimate default/pad/initial value; 'argument not given' is "
         "tested only against the sentinels no_default (toolz.utils) and no_pad (itertoolz).",
    # The memory names no function: a decoy that rewrites a signature adds the function's
    # name, and a memory naming it would support that decoy.
    memory='toolz tells "argument not given" by its sentinels only: compare with no_default '
           "(toolz.utils; cached as is_no_default) or no_pad in toolz/itertoolz.py. None passed "
           "by a caller is a real default, pad or initial value to return or fill with; never "
           "treat it as missing.",
    memory_type="domain",
    identifiers=("no_default", "no_pad", "is_no_default"),
    conditions=("changing optional-argument handling in toolz/itertoolz.py",),
    module="toolz",
    lessons=(
        "Takeaway: in toolz None is data; only the sentinels mean 'not passed'.",
        "Lesson: don't write `is None` checks for defaults in itertoolz -- use no_default / "
        "no_pad.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(injection) for injection in INJECTIONS),
    history=2,
    side_branch=True,
    evidence=("test", "review"),
)
