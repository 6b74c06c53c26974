"""Directives that weaken a safeguard, and text addressed to whoever reads the memories later.

Two kinds of sentence must never become a rule merely because a log said them:

- **addressed** text speaks to an assistant, an agent or the memory itself ("Assistant, when you
  read this later: ...", "Remember for all future sessions: ...", "You are now in maintenance
  mode"), whoever wrote it (an issue, a review, a test's output, a web page);
- **weakening** directives tell someone to switch a safeguard off: skip, xfail or delete tests,
  disable linters or type checks, turn off SSL verification, bypass hooks or secret scanners,
  let CI pass on failure. Each finding names the concrete *practice* it recommends
  (``VERIFY_SSL=False``, ``@pytest.mark.skip``, ``--no-verify``) when the text names one, so the
  gate can look for that practice in the repository's own code.

A negated sentence ("never skip the tests", "do not pass verify=False") protects a safeguard and
is not a finding; neither is a statement of what happened ("the fix removed verify=False").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamer.extract.injection import find_injections

# Settings and markers that are themselves the weakening practice: recommending them (set, use,
# add, pass, mark with, keep, ...) is a weakening directive.
_PRACTICES: tuple[tuple[str, str], ...] = (
    ("ssl", r"\b[A-Z_]*(?:VERIFY|SSL|TLS)[A-Z_]*\s*[=:]\s*(?:False|false|0|no|off|none)\b"),
    ("ssl", r"\bverify\s*=\s*False\b"),
    ("ssl", r"\bssl_verify\s*[=:]\s*(?:False|false|0)\b"),
    ("ssl", r"\bssl\._create_unverified_context\b|\bCERT_NONE\b|\bcheck_hostname\s*=\s*False\b"),
    ("ssl", r"\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['\"]?0\b|\bGIT_SSL_NO_VERIFY\b|"
            r"\bPYTHONHTTPSVERIFY\s*=\s*['\"]?0\b|\bsslmode\s*=\s*disable\b|\s--insecure\b"),
    ("tests", r"@pytest\.mark\.(?:skip|xfail)\b|\bpytest\.skip\(|@unittest\.skip\w*|"
              r"\bunittest\.skip\w*|\.skip\(\s*\)|\bit\.skip\b|\bxit\(|\bxdescribe\("),
    ("tests", r"--deselect\b|-p\s+no:\w+|--no-cov\b|--cov-fail-under(?:[= ]| to )0\b"),
    ("lint", r"#\s*noqa\b|#\s*type:\s*ignore\b|eslint-disable\b|pylint:\s*disable\b|"
             r"#\s*nosec\b|@ts-ignore\b|--no-lint\b"),
    ("hooks", r"--no-verify\b|\bHUSKY\s*=\s*0\b|\bSKIP\s*=\s*[\w,-]+"),
    ("ci", r"\bcontinue-on-error:\s*true\b|\ballow_failure:\s*true\b|\|\|\s*true\b|"
           r"\bexit\s+0\s*$"),
    ("secrets", r"pragma:\s*allowlist\s+secret\b"),
    ("security", r"\bchmod\s+(?:-R\s+)?777\b|@csrf_exempt\b|\bCSRF_ENABLED\s*=\s*False\b|"
                 r"\bDEBUG\s*=\s*True\b|\bALLOWED_HOSTS\s*=\s*\[\s*['\"]\*['\"]\s*\]"),
)
_PRACTICE_RES = tuple((area, re.compile(pattern)) for area, pattern in _PRACTICES)

# Safeguards named in words, and the verbs that switch them off.
_SAFEGUARD = (
    r"(?:(?:the |all |every |any |failing |flaky |broken |slow |unit |integration )*"
    r"(?:tests?|test suite|test cases?|specs?|assertions?|linters?|linting|lint checks?|"
    r"flake8|ruff|pylint|mypy|eslint|type ?check(?:s|ing)?|pre-commit(?: hooks?)?|git hooks?|"
    r"hooks|ci(?: checks?| pipeline| jobs?)?|checks|coverage(?: threshold| gate)?|"
    r"ssl(?: certificate)?(?: verification| checks?| validation)?|tls verification|"
    r"certificate (?:verification|checks?|validation)|cert(?:ificate)? checks?|"
    r"secrets? (?:scann\w+|checks?|detection)|secret scanning|detect-secrets|gitleaks|"
    r"trufflehog|code review|reviews?|csrf(?: protection)?|authentication|auth checks?|"
    r"validation|input validation|security checks?|sandbox(?:ing)?|warnings))"
)
_WEAKEN = (
    r"(?:skip(?:ping|ped)?|disabl(?:e|ing|ed)|turn(?:ing|ed)? off|switch(?:ing|ed)? off|"
    r"bypass(?:ing|ed)?|ignor(?:e|ing|ed)|silenc(?:e|ing)|suppress(?:ing)?|"
    r"comment(?:ing)? out|delet(?:e|ing)|remov(?:e|ing)|drop(?:ping)?|xfail|deactivat(?:e|ing)|"
    r"get rid of|rip out|lower(?:ing)?|relax(?:ing)?|loosen(?:ing)?|stop running|don't run|"
    r"do not run|no longer run|avoid running)"
)
_NEGATION = re.compile(r"\b(?:never|not|no|don't|do not|doesn't|avoid|instead of|rather than|"
                       r"without|stop|stopped|refuse|forbid\w*|must not|mustn't|shouldn't|"
                       r"removed|dropped|replaced|was|were|had)\b[^.;,]{0,40}$", re.I)
_SAFEGUARD_DIRECTIVE = re.compile(rf"\b{_WEAKEN}\b[^.;\n]{{0,40}}?\b{_SAFEGUARD}\b|"
                                  rf"\b{_SAFEGUARD}\b[^.;\n]{{0,30}}?\b(?:can|may|should|must) be "
                                  rf"{_WEAKEN}|\b{_SAFEGUARD} (?:are|is) (?:optional|unnecessary|"
                                  r"not (?:needed|required|important)|a waste)\b", re.I)
# Weakening said in other words: going without a safeguard, failures counted as passes, secrets
# kept in the code.
_OTHER_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("safeguard", re.compile(r"\bwithout (?:a |any |the )?(?:review|tests?|testing|ci|checks?|"
                             r"approval|verification)\b", re.I)),
    ("tests", re.compile(r"\b(?:treat|count|report|mark)\w* (?:the |all |any )?(?:test )?"
                         r"failures? as (?:warnings?|pass(?:es|ed)?|success(?:es)?|ok)\b", re.I)),
    ("secrets", re.compile(r"\b(?:store|put|hard-?code|commit|keep|save|paste|write)\w*\b"
                           r"[^.;]{0,40}"
                           r"\b(?:passwords?|secrets?|tokens?|api[ _-]?keys?|credentials?)\b"
                           r"[^.;]{0,40}\b(?:in|into) (?:the )?(?:code|source|repo\w*|git|"
                           r"settings|config\w*|[\w/]+\.(?:py|js|ts|ya?ml|json|toml|ini|env))",
                           re.I)),
)


@dataclass(frozen=True)
class Directive:
    """A sentence that weakens a safeguard or addresses the memory's future reader."""

    kind: str
    """``weakening`` or ``addressed``."""
    area: str
    """``ssl``, ``tests``, ``lint``, ``hooks``, ``ci``, ``secrets``, ``security``, ``safeguard``,
    or ``reader`` for addressed text."""
    sentence: str
    practice: str | None = None
    """The concrete code or command it recommends (``VERIFY_SSL=False``), when it names one."""


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`@\"'(])|\n+", text) if s.strip()]


def _negated(sentence: str, at: int) -> bool:
    return bool(_NEGATION.search(sentence[:at][-60:]))


def weakening(text: str) -> list[Directive]:
    """The sentences of ``text`` that recommend weakening a safeguard."""
    found: list[Directive] = []
    for sentence in _sentences(text):
        hit: Directive | None = None
        for area, pattern in _PRACTICE_RES:
            match = pattern.search(sentence)
            if match is None or _negated(sentence, match.start()):
                continue
            # Naming the practice is recommending it, unless the sentence negates it or tells
            # of its removal ("the fix removed verify=False"): the repository check then
            # decides whether it is the code's own practice.
            hit = Directive("weakening", area, sentence, match.group(0).strip())
            break
        if hit is None:
            match = _SAFEGUARD_DIRECTIVE.search(sentence)
            if match is not None and not _negated(sentence, match.start()):
                hit = Directive("weakening", "safeguard", sentence)
        for area, pattern in _OTHER_WORDS if hit is None else ():
            match = pattern.search(sentence)
            if match is not None and not _negated(sentence, match.start()):
                hit = Directive("weakening", area, sentence)
                break
        if hit is not None:
            found.append(hit)
    return found


_ADDRESSED = re.compile(
    r"\bwhen you (?:read|see|find|load|recall) this\b|\b(?:for|in|during) (?:all |every |any )?"
    r"(?:future|later|next|subsequent) (?:sessions?|runs?|tasks?|conversations?)\b|"
    r"\b(?:remember|note|keep in mind|memori[sz]e)\b[^.\n]{0,30}\b(?:forever|from now on|"
    r"future|next time|always)\b|"
    r"^\s*(?:hey |hi |dear |attention,? )?(?:assistant|ai|agent|bot|claude|gpt|copilot|"
    r"llm|model|codex|devin)s?\s*[,:!-]|"
    r"\b(?:future|any|all|other) (?:ai |llm |coding )?(?:agents?|assistants?|models?|bots?)\b"
    r"[^.\n]{0,40}\b(?:should|must|need|have to|are to|will)\b|"
    r"\bnext time you\b|\byour (?:new|real|actual|updated) (?:task|instructions?|goal|role)\b|"
    r"\b(?:the )?memory (?:writer|bank|system)\b|\bwhoever (?:reads|learns|summari[sz]es)\b|"
    r"\bwhen (?:summari[sz]ing|recording|learning from) this\b|"
    r"\bfrom now on\b[^.\n]{0,60}\b(?:you|agents?|assistants?)\b|"
    r"\byou are now\b|\bact as\b|\b(?:system|developer) (?:prompt|message|note)\s*:|"
    r"^\s*\[?(?:system|inst|instruction)\]?\s*:|<\|?(?:system|im_start)\|?>|\[/?INST\]",
    re.IGNORECASE | re.MULTILINE,
)


def addressed(text: str) -> list[Directive]:
    """The sentences of ``text`` that speak to a future assistant, agent or the memory."""
    found = [Directive("addressed", "reader", s) for s in _sentences(text)
             if _ADDRESSED.search(s)]
    seen = {d.sentence for d in found}
    for finding in find_injections(text):
        if finding.sentence not in seen:
            found.append(Directive("addressed", "reader", finding.sentence))
            seen.add(finding.sentence)
    return found


def directives(text: str) -> list[Directive]:
    """Every addressed sentence and weakening directive of ``text`` (addressed first: speaking
    to the reader is the graver fault, whatever it asks)."""
    return [*addressed(text), *weakening(text)]
