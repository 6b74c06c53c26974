"""Redaction of secrets before anything reaches a memory, a rejection record or a language model.

The detection is detect-secrets' (Yelp's maintained scanner): every regex detector it ships (AWS,
GitHub, GitLab, Slack, Stripe, OpenAI, JWT, private keys, basic-auth URLs, ...), its keyword
detector, and its Shannon-entropy measure for unquoted high-entropy tokens. Three additions
cover what it misses in shell transcripts, where values are rarely quoted: ``NAME_TOKEN=value``
assignments, ``--password value`` flags and ``Bearer`` headers. Each secret becomes a typed
placeholder such as ``<REDACTED:AWS_KEY>``, so a memory still says *that* a key was involved.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

PLACEHOLDER = "<REDACTED:{}>"
_PLACEHOLDER_RE = re.compile(r"<REDACTED:[A-Z0-9_]+>")

# detect-secrets' type names -> short placeholder types.
_TYPE_NAMES = {
    "AWS Access Key": "AWS_KEY",
    "Basic Auth Credentials": "CONNECTION_STRING",
    "Secret Keyword": "PASSWORD",
    "Base64 High Entropy String": "HIGH_ENTROPY",
    "Hex High Entropy String": "HIGH_ENTROPY",
    "JSON Web Token": "JWT",
    "Private Key": "PRIVATE_KEY",
    "OpenAI Token": "OPENAI_KEY",
}
# Reported by detect-secrets but not secrets in a transcript: IPs of test servers and the like.
_IGNORED_TYPES = {"Public IP (ipv4)"}

# Characters a token may be made of, to widen a detector's match (some report only a prefix,
# e.g. ``ghp``) to the whole secret.
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_\-+/]")
_PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.DOTALL
)
_ASSIGNMENT = re.compile(
    r"(?i)\b[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|credentials?|auth)[\w.-]*\s*[:=]\s*(['\"]?)(?P<value>[^\s'\",;]{4,})\1"
)
_FLAG = re.compile(
    r"(?i)--(?:password|passwd|token|api-key|secret|auth-token)[ =](?P<value>\S{4,})"
)
_BEARER = re.compile(r"(?i)\bbearer\s+(?P<value>[A-Za-z0-9_\-.+/=]{8,})")
_ASSIGNMENT_VALUE_IGNORED = re.compile(
    r"^(?:\$|\{|<|%|os\.|getenv|env\[|none$|null$|true$|false$|required$|redacted|bearer$|basic$"
    r"|\*+$)",
    re.I,
)
_GIT_OBJECT_ID = re.compile(r"^[0-9a-f]{7,64}$")
# What every detector above needs on a line: a keyword, a URL with credentials, a known prefix,
# or a run of 20 token characters. A line with none of them holds no secret any detector finds,
# so it is not given to them (most lines of a transcript; the detectors are the slow part).
_MAYBE_SECRET = re.compile(
    r"(?i)key|pass|pwd|\bpw|secret|token|auth|bearer|credential|contrase|xox|://\S*@|"
    r"(?-i:\bA[KP])|[A-Za-z0-9+/_\-.=:]{20,}"
)


@dataclass
class Redaction:
    """The redacted text and what was replaced, by placeholder type."""

    text: str
    found: Counter[str] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(self.found.values())


@lru_cache(maxsize=1)
def _plugins() -> tuple[Any, ...]:
    """detect-secrets' detectors, instantiated once (without touching its global settings)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    plugins: list[Any] = []
    mapping: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    for name, cls in mapping.items():
        if name in _IGNORED_TYPES or "High Entropy" in name:
            continue
        plugins.append(cls())
    return tuple(plugins)


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _looks_random(token: str) -> bool:
    """An unquoted token that is most likely a credential: long, mixed, high entropy.

    detect-secrets only measures entropy inside quotes in its normal mode; transcripts seldom
    quote. Identifiers (``LEGACY_STATUS_CODES``), paths and git object ids stay, since they lack
    the mix of cases and digits or are named as ids.
    """
    if len(token) < 20 or _GIT_OBJECT_ID.match(token):
        return False
    if not (re.search(r"[a-z]", token) and re.search(r"[A-Z]", token) and re.search(r"\d", token)):
        return False
    return _entropy(token) >= 3.7


def _widen(line: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and _TOKEN_CHARS.match(line[start - 1]):
        start -= 1
    while end < len(line) and _TOKEN_CHARS.match(line[end]):
        end += 1
    while end < len(line) and line[end] == "=":  # base64 padding
        end += 1
    return start, end


def _line_spans(line: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    if not _MAYBE_SECRET.search(line):
        return spans
    for plugin in _plugins():
        filenames = (
            ("transcript.yaml", "transcript.py")
            if plugin.secret_type == "Secret Keyword"
            else ("transcript.txt",)
        )
        values: set[str] = set()
        for filename in filenames:
            for secret in plugin.analyze_line(
                filename=filename, line=line, line_number=0, context=None
            ):
                if secret.secret_value:
                    values.add(secret.secret_value.split()[0])
        kind = (
            _TYPE_NAMES.get(plugin.secret_type) or re.sub(r"\W+", "_", plugin.secret_type).upper()
        )
        for value in values:
            if plugin.secret_type == "Secret Keyword" and _ASSIGNMENT_VALUE_IGNORED.match(value):
                continue
            for match in re.finditer(re.escape(value), line):
                spans.append((*_widen(line, match.start(), match.end()), kind))
    for pattern, kind in ((_ASSIGNMENT, "SECRET"), (_FLAG, "PASSWORD"), (_BEARER, "TOKEN")):
        for match in pattern.finditer(line):
            value = match.group("value")
            if _ASSIGNMENT_VALUE_IGNORED.match(value) or _PLACEHOLDER_RE.fullmatch(value):
                continue
            spans.append((match.start("value"), match.end("value"), kind))
    for match in re.finditer(r"[A-Za-z0-9_\-+/]{20,}=*", line):
        if _looks_random(match.group()):
            spans.append((match.start(), match.end(), "HIGH_ENTROPY"))
    return spans


_GENERIC_KINDS = ("HIGH_ENTROPY", "SECRET", "TOKEN")


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping findings become one span, named by the most specific detector among them."""
    merged: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][1]:
            prev = merged[-1]
            name = kind if prev[2] in _GENERIC_KINDS and kind not in _GENERIC_KINDS else prev[2]
            merged[-1] = (prev[0], max(prev[1], end), name)
        else:
            merged.append((start, end, kind))
    return merged


def redact(text: str) -> Redaction:
    """``text`` with every secret found replaced by a typed placeholder."""
    result = Redaction(text)
    if not text:
        return result

    def _key_block(match: re.Match[str]) -> str:
        result.found["PRIVATE_KEY"] += 1
        return PLACEHOLDER.format("PRIVATE_KEY")

    text = _PRIVATE_KEY_BLOCK.sub(_key_block, text)
    lines = []
    for line in text.split("\n"):
        spans = [
            s for s in _merge(_line_spans(line)) if not _PLACEHOLDER_RE.fullmatch(line[s[0] : s[1]])
        ]
        for start, end, kind in reversed(spans):
            inner = line[start:end]
            # A span may swallow a placeholder put there earlier; keep that one, not twice.
            if _PLACEHOLDER_RE.search(inner):
                continue
            line = line[:start] + PLACEHOLDER.format(kind) + line[end:]
            result.found[kind] += 1
        lines.append(line)
    result.text = "\n".join(lines)
    return result
