"""Review comments and QA defects in a session: who, on which file and line, saying what.

Adapters type them as ``review``/``qa_defect`` events when the trajectory says so; otherwise they
arrive as user turns (often inside the task statement: "Address the review on #5 ... Review
comment from @x on path:line"), and are recognised here by their header. Only the world's text
is read (``template.world_text``), so a remark's body never runs on into the framework's
instance template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from dreamer.extract.template import world_text
from dreamer.models import Event, EventKind

_REVIEW_HEADER = re.compile(
    r"Review comment(?: from @?(?P<author>[\w.-]+))?(?: on (?P<path>[\w./-]+\.\w+)"
    r"(?::(?P<start>\d+)(?:-(?P<end>\d+))?)?)?"
    # ... or on a pull request by number, with its title in brackets ("on PR #23 (export)").
    r"(?: on (?:PR|MR|pull request|merge request)?\s*(?P<ref>#\d+))?(?:[ \t]*\([^)\n]*\))?"
    r"[ \t]*(?::\s*|\n)",
    re.IGNORECASE,
)
# A comment's author at the head of its body ("@mkovacs: the new column ...").
_AUTHOR = re.compile(r"\s*@(?P<author>[\w.-]+):\s*")
_DEFECT_HEADER = re.compile(
    r"(?:QA defect|Defect|Bug report)(?:\s+(?P<ref>[#\w-]*\d[\w-]*))?(?: on (?P<path>[\w./-]+\.\w+)"
    r"(?::(?P<start>\d+)(?:-(?P<end>\d+))?)?)?[ \t]*(?:\([^)]*\))?[ \t]*(?::\s*|\n)",
    re.IGNORECASE,
)
# A QA or bug ticket opening the text by its id ("QA-212 from finance: ...", "BUG-7: ...").
_TICKET_HEADER = re.compile(
    r"(?P<ref>(?:QA|BUG|DEFECT)-\d+)(?: from (?P<author>[^:\n\"]{1,40}))?[ \t]*:\s*")
_PATH_LINE = re.compile(r"(?P<path>[\w./-]+\.\w+):(?P<start>\d+)")


@dataclass(frozen=True)
class Remark:
    """A review comment or QA defect: who, on which file and line, saying what."""

    seq: int
    kind: Literal["review", "defect"]
    author: str | None
    ref: str | None
    path: str | None
    start: int | None
    end: int | None
    body: str


def remark(event: Event, task: bool = False) -> Remark | None:
    """The review or defect ``event`` carries (``task``: it is the task statement), if any."""
    text = world_text(event.text, task=task)
    if event.kind in (EventKind.REVIEW, EventKind.QA_DEFECT):
        kind: Literal["review", "defect"] = "review" if event.kind is EventKind.REVIEW else "defect"
        header = (_REVIEW_HEADER if kind == "review" else _DEFECT_HEADER).match(text)
        body = text[header.end() :] if header else text
        paths = [str(p) for p in event.data.get("paths") or ()]
        path = (header.group("path") if header else None) or (paths[0] if paths else None)
        start = header.group("start") if header else None
        end = header.group("end") if header else None
        if path and not start and (m := _PATH_LINE.search(text)) and m.group("path") == path:
            start = m.group("start")
        author = event.data.get("author") or (header.groupdict().get("author") if header else None)
        ref = event.data.get("ref") or (header.groupdict().get("ref") if header else None)
        return Remark(
            event.seq, kind, author, ref, path, _int(start), _int(end or start), body.strip()
        )
    if event.kind is not EventKind.MESSAGE or event.role not in ("user", None):
        return None
    for kind, pattern in (("review", _REVIEW_HEADER), ("defect", _DEFECT_HEADER),
                          ("defect", _TICKET_HEADER)):
        match = pattern.search(text)
        if match and (match.start() < 200 if pattern is not _TICKET_HEADER
                      else match.start() == 0):
            groups = match.groupdict()
            start = groups.get("start")
            body = text[match.end() :]
            author = groups.get("author")
            if author is None and (said := _AUTHOR.match(body)):
                author, body = said.group("author"), body[said.end() :]
            return Remark(
                event.seq,
                kind,
                author,
                groups.get("ref"),  # type: ignore[arg-type]
                groups.get("path"),
                _int(start),
                _int(groups.get("end") or start),
                body.strip(),
            )
    return None


def _int(value: str | None) -> int | None:
    return int(value) if value else None
