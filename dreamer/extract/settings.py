"""The offline rule backend, part three: settings the agent stated and the session showed.

- ``setting``: an agent's statement that names a setting with its value and the file that holds
  it ("PAGE_SIZE = 50 in shop/config.py", "API version 2023-10-01 (API_VERSION in
  billing/gateway.py)"). It becomes a ``domain`` candidate only when an earlier observation of
  the session showed that file's numbered lines and one of them assigns that value to that
  setting: the statement is then confirmed by observation, and cites the statement, the
  observation and the file's line at the session's commit. A statement whose value the shown
  lines contradict, or whose file was never shown, proposes nothing.

- ``relied``: a constant the session's passing change used (``TELEHEALTH_MODIFIER``) and that the
  repository sets to a literal at the session's commit (``TELEHEALTH_MODIFIER = "GT"`` in
  ``clinic/billing/codes.py``): the change relied on that value, so it is a setting of the
  session whatever was said. It cites the defining line at that commit; the repository's later
  history (``dreamer.extract.history``) then says when the value changed.

Each candidate carries the tag ``setting:<path>:<KEY>=<value>`` so that conflict resolution can
tell, without reading prose, that two memories give one setting of one file different values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamer.extract.candidate import Candidate, clip
from dreamer.extract.citations import CodeCiter
from dreamer.extract.evidence import SessionView
from dreamer.extract.gate import PATH
from dreamer.extract.injection import find_injections
from dreamer.extract.rules import base, session_citation
from dreamer.models import EventKind, MemoryType

SETTING_TAG = "setting"
"""Prefix of the tag ``setting:<path>:<KEY>=<value>`` on a memory stating a setting's value."""
OBSERVED = "observation"
"""The confirmation a candidate gets when the session's own observation showed the fact."""

# What a viewer prints before a file's numbered lines: SWE-agent's ``open`` and the
# str_replace_editor's ``view``.
_SHOWN_FILE = re.compile(
    r"^\[File:\s*(?P<a>\S+)\s*\(\d+ lines total\)\]|result of running `cat -n` on (?P<b>\S+?):?$",
    re.MULTILINE,
)
_NUMBERED = re.compile(r"^\s*(\d+)(?::|\t)(.*)$")
# A setting is an identifier in CONSTANT_CASE (``PAGE_SIZE``), the way configuration reads.
_KEY = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{3,}[0-9]*\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`\"'])")


@dataclass(frozen=True)
class Shown:
    """One file line an observation displayed: where, and what it said."""

    seq: int
    path: str
    line: int
    text: str


def assigned(line: str, key: str) -> str | None:
    """The value ``line`` gives ``key`` (``KEY = 50``, ``KEY: "x"``), unquoted; else None."""
    match = re.match(rf"\s*{re.escape(key)}\s*(?::\s*[\w\[\], .]+?\s*)?(?:=|:)\s*(.+?)\s*$", line)
    if match is None:
        return None
    value = re.split(r"\s+#", match.group(1))[0].strip().rstrip(",")
    return value.strip("\"'") or None


def shown_lines(view: SessionView, before: int) -> list[Shown]:
    """File lines that observations before event ``before`` displayed with line numbers."""
    shown: list[Shown] = []
    for event in view.session.events:
        if event.seq >= before or event.kind is not EventKind.OBSERVATION:
            continue
        header = _SHOWN_FILE.search(event.text)
        if header is None:
            continue
        path = header.group("a") or header.group("b")
        for raw in event.text[header.end():].splitlines():
            if (row := _NUMBERED.match(raw)) is not None:
                shown.append(Shown(event.seq, path, int(row.group(1)), row.group(2)))
    return shown


def _same_file(shown: str, named: str) -> bool:
    """A viewer prints absolute paths (``/repo/shop/config.py``); statements name relative ones."""
    return shown == named or shown.endswith("/" + named.lstrip("./"))


def _confirms(sentence: str, key: str, value: str) -> bool:
    """Whether ``sentence`` states ``value`` for ``key``: an explicit ``KEY = x`` must say that
    value; otherwise the value must appear in the sentence as a whole token."""
    explicit = re.search(rf"\b{re.escape(key)}\s*(?:=|:)\s*[\"'`]?([\w.:/-]+)", sentence)
    if explicit is not None:
        return explicit.group(1).rstrip(".").strip("\"'`") == value
    return re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", sentence) is not None


def settings(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """``domain`` candidates for the settings the agent stated and the session showed."""
    out: list[Candidate] = []
    for event in view.session.events:
        if event.kind is not EventKind.MESSAGE or event.role != "assistant":
            continue
        said = str(event.data.get("thought") or event.text)
        shown: list[Shown] | None = None
        for sentence in _SENTENCE.split(" ".join(said.split())):
            paths = [m.group(0) for m in PATH.finditer(sentence)]
            keys = list(dict.fromkeys(m.group(0) for m in _KEY.finditer(sentence)))
            if not paths or not keys:
                continue
            shown = shown if shown is not None else shown_lines(view, event.seq)
            found = _confirmed(sentence, paths, keys, shown)
            if found is None:
                continue
            row, key, value = found
            out.append(_candidate(view, citer, event.seq, sentence, row, key, value))
    return out


def _confirmed(
    sentence: str, paths: list[str], keys: list[str], shown: list[Shown]
) -> tuple[tuple[str, Shown], str, str] | None:
    """The first (path, shown line), key and value of ``sentence`` that a shown line assigns;
    the latest showing wins, since the file may have been edited in between."""
    for path in paths:
        for key in keys:
            for row in reversed(shown):
                if not _same_file(row.path, path):
                    continue
                value = assigned(row.text, key)
                if value is None:
                    continue
                if _confirms(sentence, key, value):
                    return (path, row), key, value
                break  # the latest showing contradicts the statement: not confirmed
    return None


def _candidate(
    view: SessionView,
    citer: CodeCiter,
    seq: int,
    sentence: str,
    found: tuple[str, Shown],
    key: str,
    value: str,
) -> Candidate:
    path, row = found
    cand = base(view, "setting", MemoryType.DOMAIN, clip(sentence, 320), seq)
    cand.cite(session_citation(view, row.seq))
    # The line as shown is what must be at the cited commit, so the hash is of that text.
    citation, known = citer.cite(path, row.line, row.line, expect=(row.text,))
    cand.cite(citation)
    cand.hash_unknown |= not known
    cand.confirmed_by.add(OBSERVED)
    cand.reason = f"confirmed by observation: {path}:{row.line} shows {row.text.strip()!r}"
    cand.tags.append(f"{SETTING_TAG}:{path}:{key}={value}")
    cand.injections = find_injections(sentence)
    cand.confidence = 0.7
    return cand


_LITERAL = re.compile(r"""^(?:"[^"\n]{0,80}"|'[^'\n]{0,80}'|-?\d[\d_.]*|True|False)$""")
MAX_RELIED = 3
"""At most this many relied-on settings per session."""


def relied(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """``domain`` candidates for the constants the session's passing change relied on."""
    from dreamer.extract.git_reader import git_lines
    from dreamer.extract.names import change_names

    tests = [r for r in view.runs if r.is_test and r.status in ("ok", "failed")]
    if not tests or tests[-1].status != "ok" or citer.git_dir is None or not citer.commits:
        return []  # only a change that passed says what it relied on
    hunks = view.submission_hunks or tuple(h for e in view.edits for h in e.hunks)
    keys = [n for n in change_names(hunks).added if _KEY.fullmatch(n) and "_" in n]
    commit = citer.commits[-1]  # the code as the session found it
    out: list[Candidate] = []
    for key in keys:
        found = git_lines(str(citer.git_dir), "grep", "-n", "-E",
                     rf"^{re.escape(key)}\s*(:[^=]*)?=[^=]", commit, "--", "*.py")
        if not found or len(found) != 1:
            continue  # not defined here, or defined twice: no one value to follow
        _, path, row, text = found[0].split(":", 3)
        raw = re.split(r"\s+#", text.split("=", 1)[1])[0].strip()
        value = assigned(text, key)
        if value is None or not _LITERAL.match(raw):
            continue
        seq = view.submission_seq if view.submission_seq is not None else tests[-1].result_seq
        summary = (f"`{key}` is {raw} (set in `{path}`); the passing change of this session "
                   f"used `{key}` and relied on that value.")
        cand = base(view, "relied", MemoryType.DOMAIN, summary, seq)
        cand.cite(session_citation(view, tests[-1].result_seq))
        citation, known = citer.cite(path, int(row), int(row), expect=(text,), commits=(commit,))
        cand.cite(citation)
        cand.hash_unknown |= not known
        cand.confirmed_by.add("test")
        cand.affects_correctness = True
        cand.reason = f"the passing change used {key}; {path}:{row} sets it to {raw}"
        cand.tags.append(f"{SETTING_TAG}:{path}:{key}={value}")
        cand.confidence = 0.6
        out.append(cand)
        if len(out) >= MAX_RELIED:
            break
    return out


__all__ = ["OBSERVED", "SETTING_TAG", "assigned", "relied", "settings", "shown_lines"]
