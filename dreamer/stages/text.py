"""Deterministic reading of memory texts: anchors, polarity, settings, sentences, genericness.

An *anchor* is something specific a reader could check: an identifier (``LEGACY_STATUS_CODES``,
``OrderStatus.value``), a path (``config/settings.toml``), a command flag or an assignment
(``INTEGRATION=1``). Offline judgement works on anchors because paraphrases share them while
wording differs, and a changed rule flips the polarity of an anchor or the value of a setting.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dreamer.settings import TEXTS_CACHED, names_cache

_BACKTICK = re.compile(r"`([^`]+)`|(?<!\w)['\"]([^'\"\n]{3,60})['\"](?!\w)")
_ANCHOR = re.compile(
    r"(?:(?<![\w-])--?[a-z][\w-]+)"                 # command flags
    r"|(?:[\w.-]+/[\w./-]*)"                        # paths, directories
    r"|(?:\b[A-Za-z_]\w*(?:\.\w+)+(?:\(\))?)"       # dotted names, file names
    r"|(?:\b\w*_\w*\b)"                             # snake_case, CONSTANT_CASE
    r"|(?:\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b)"  # camelCase, CamelCase
    r"|(?:\b[A-Z][A-Z0-9]{2,}\b)"                   # ACRONYMS, ENV_VARS
    r"|(?:\b\d+(?:[.-]\d+)+\b)"                     # versions and dates: 2.1.0, 2024-06-01
)
_ANCHOR_OR_TICK = re.compile(f"`[^`]+`|{_ANCHOR.pattern}")
# ``::`` is a test id's separator (``tests/x.py::test_y``), never a setting's.
_ASSIGNMENT = re.compile(r"\b([A-Za-z_][\w.-]*)\s*(?:=|:(?!:))\s*[\"']?([\w./:-]+)")
# A negation before an anchor ("never X", "do not use X") or after it ("X is deprecated").
_NEGATION_BEFORE = re.compile(
    r"\b(?:never|not|no longer|don't|do not|does not|doesn't|must not|mustn't|avoid|"
    r"instead of|rather than|no more|stop using|stopped using)\b", re.IGNORECASE)
_NEGATION_AFTER = re.compile(
    r"\b(?:is|are|was|were|got|has been|have been)\s+(?:deprecated|removed|gone|wrong|obsolete|"
    r"unused|ignored|dead|rejected|invalid|outdated)\b"
    r"|\bno longer (?:works|exists|used|read|applies)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[;,.!?]\s+|\s+(?:but|however|instead of|rather than)\s+|\s+-\s+",
                     re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])|;\s+|\n+")
_SENTENCE_ONLY = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])|\n+")
_WORD = re.compile(r"[A-Za-z']+")

_PROSE_ANCHORS = frozenset({"readme", "todo", "note", "fixme", "important", "lesson"})
"""Capitalised words that name nothing specific to one repository."""

# Words of advice that any engineer already knows: a lesson made only of these carries nothing
# specific to the repository (the write gate's "generic advice").
_GENERIC = frozenset("""
always be careful carefully double check checks checking make sure ensure verify test tests
testing tested code changes change read reading understand understanding before after edit
editing run running submit submitting work working bug bugs fix fixes fixing error errors
documentation docs good better best practice practices clean function functions file files
important attention pay review reviewing thoroughly correct correctly properly mistakes mistake
the a an to of and or in on for with your you it its is are was be when that this all any
should must do does don't not more less carefully step steps think first then again code's
writing write written approach solution solutions problem problems issue issues task tasks
edge cases case thing things everything something time spend take care look looking
lesson lessons learned takeaway note self remember reminder keep small focused well documented
document changing next good readme first last clean simple
""".split())


@names_cache
def anchors(text: str, keep_case: bool = False) -> frozenset[str]:
    """The checkable, specific tokens of ``text``, lower-cased unless ``keep_case`` (read once
    per text and process: linking, compression and forgetting read the same memories' texts)."""
    found = {(tick or quoted).strip() for tick, quoted in _BACKTICK.findall(text)}
    found |= {m.group(0).strip(".-") for m in _ANCHOR.finditer(text)}
    return frozenset(a if keep_case else a.lower() for a in found
                     if len(a) > 2 and not a.isdigit())


def assignments(text: str) -> dict[str, str]:
    """Settings given a value in ``text`` (``key = value``, ``KEY=value``, ``key: value``)."""
    values: dict[str, str] = {}
    for key, value in _ASSIGNMENT.findall(text):
        # ``Note: ...`` is prose, not a setting: a key must look like an identifier.
        if ":" in text and not re.search(r"[_.A-Z]", key[1:]) and f"{key}=" not in text:
            continue
        values.setdefault(key.lower(), value.lower().rstrip("."))
    return values


def polarity(text: str) -> dict[str, int]:
    """Each anchor's polarity: +1 only affirmed, -1 only negated, 0 both."""
    signs: dict[str, set[int]] = {}
    pieces = _CLAUSE.split(text)
    # "X instead of Y": the text after the splitter is the negated part.
    negated_next = [bool(re.search(r"instead of|rather than", sep, re.I))
                    for sep in _CLAUSE.findall(text)]
    for index, clause in enumerate(pieces):
        whole = index > 0 and negated_next[index - 1]
        before = [m.end() for m in _NEGATION_BEFORE.finditer(clause)]
        after = [m.start() for m in _NEGATION_AFTER.finditer(clause)]
        for match in _ANCHOR_OR_TICK.finditer(clause):
            anchor = match.group(0).strip("`.-").lower()
            if anchor not in anchors(match.group(0)):
                continue
            negative = whole or any(b <= match.start() for b in before) or any(
                a >= match.end() for a in after)
            signs.setdefault(anchor, set()).add(-1 if negative else 1)
    return {a: (next(iter(s)) if len(s) == 1 else 0) for a, s in signs.items()}


@lru_cache(maxsize=TEXTS_CACHED)
def _polarity(text: str) -> tuple[tuple[str, int], ...]:
    return tuple(polarity(text).items())


@lru_cache(maxsize=TEXTS_CACHED)
def _assignments(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(assignments(text).items())


def contradiction(a: str, b: str) -> str | None:
    """Why two texts contradict each other, or None when they do not appear to."""
    # Each text is read once per process: a memory meets up to k neighbours per stage.
    pa, pb = dict(_polarity(a)), dict(_polarity(b))
    flipped = sorted(x for x in pa.keys() & pb.keys() if pa[x] * pb[x] == -1)
    if flipped:
        return f"opposite advice about {', '.join(flipped[:3])}"
    va, vb = dict(_assignments(a)), dict(_assignments(b))
    changed = sorted(k for k in va.keys() & vb.keys() if va[k] != vb[k])
    if changed:
        k = changed[0]
        return f"{k} is {va[k]} in one and {vb[k]} in the other"
    return None


def sentences(text: str, clauses: bool = True) -> list[str]:
    """``text`` split into sentences (and semicolon clauses if ``clauses``), none empty."""
    pattern = _SENTENCE if clauses else _SENTENCE_ONLY
    return [s.strip() for s in pattern.split(text) if s and s.strip()]


def is_generic(text: str) -> bool:
    """True for advice with nothing specific in it ("test your changes carefully")."""
    if anchors(text) - _PROSE_ANCHORS or re.search(r"\d", text):
        return False
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return True
    return sum(w in _GENERIC for w in words) / len(words) >= 0.75


_RULE = re.compile(
    r"\b(?:must|never|always|use|run|set|should|instead|requires?|only|do not|don't|avoid|"
    r"fails?|because|so that|caused?|fix(?:ed)?|breaks?)\b", re.IGNORECASE)
_NARRATIVE = re.compile(
    r"^(?:I |We |The agent|First|Then|After that|Next|Initially|So |Finally|Eventually)"
    r"|\b(?:tried|attempted|looked at|opened|I was|we were|spent)\b", re.IGNORECASE)


def conclusion_score(sentence: str, keep: frozenset[str] = frozenset()) -> float:
    """How much ``sentence`` reads as an evidenced conclusion rather than narrative: it names
    anchors (more for those in ``keep``), states a rule or cause, and does not tell a story."""
    found = anchors(sentence)
    return (2.0 * len(found & keep) + len(found) + 1.5 * bool(_RULE.search(sentence))
            - 2.0 * bool(_NARRATIVE.search(sentence)))
