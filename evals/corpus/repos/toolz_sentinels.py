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


def _variant(injection: Injection) -> Variant:
    hidden_path = f"toolz/tests/test_regression_{injection.key}.py"

    def render(files: Mapping[str, str]) -> Rendered:
        clean = files[SOURCE]
        buggy = _swap(clean, injection.original, injection.injected, injection.key)
        return Rendered(
            site={SOURCE: buggy},
            gold={SOURCE: clean},
            gold_description=injection.decoy_description,
            decoys=(Decoy(injection.decoy_description,
                          {SOURCE: _swap(buggy, injection.injected, injection.decoy,
                                         injection.key)}),),
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
    memory="toolz treats None as a real value for default=, pad= and initial= arguments "
           "(get(i, seq, None) returns None, partition(n, seq, pad=None) pads with None). "
           "Whether the caller passed the argument is checked against the no_default sentinel "
           "(toolz.utils; reduceby caches the test as is_no_default) or no_pad in "
           "toolz/itertoolz.py, never with `is None`.",
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
