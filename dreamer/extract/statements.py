"""The offline rule backend, part two: what people said, and what the trajectory told the learner.

- ``review`` / ``defect``: an invariant or reason stated in a review comment or a QA defect,
  with the file and line it names and the edits that answered it;
- ``lesson``: a lesson stated in a message ("Lesson learned: ..."); kept only when another event
  (a test, a review, a defect, a fix) corroborates it, since a lesson alone is an opinion;
- ``instruction``: text addressed to the memory writer, anywhere in the trajectory. It is
  proposed like any candidate, flagged, and the gate lets it through only with evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dreamer.extract.candidate import Candidate, clip
from dreamer.extract.citations import CodeCiter, Hunk
from dreamer.extract.evidence import Remark, SessionView
from dreamer.extract.gate import PATH as _PATH
from dreamer.extract.gate import specifics, words
from dreamer.extract.injection import find_injections, strip_injections
from dreamer.extract.names import change_names, is_test_path, shown
from dreamer.extract.rules import base, cite_hunks, session_citation
from dreamer.models import Citation, CitationKind, EventKind, MemoryType

MAX_INSTRUCTIONS = 10
_LESSON = re.compile(
    r"^\s*(?:[-*]\s*)?(?:(?:lessons?|takeaways?|notes?|reminders?|tips?|rules?|remember|learned"
    r"|(?:good|best) practices?)\b[^:\n]{0,25}?(?::|--|—|–)\s*(?P<text>.{8,})"
    # A reminder to self is a lesson too ("Remember to double-check edge cases.").
    r"|(?P<reminder>remember to .{8,}))$",
    re.IGNORECASE | re.MULTILINE,
)
_EMPTY_POSTSCRIPT = re.compile(r"\bP\.\s?S\.:?[ \t]*(?=\n|$)")
"""A postscript left with nothing in it (its sentence addressed the learner and was removed)."""
_AGENT_KINDS = frozenset({EventKind.COMMAND, EventKind.EDIT, EventKind.SUBMISSION})
_PROCEDURAL_HINT = re.compile(r"\b(run|runs|command|pytest|make|install|export|env|flag)\b", re.I)


def vocabulary(view: SessionView) -> set[str]:
    """Words of the code the session touched: paths, diffs, failing tests, remarks' files."""
    texts = [p for e in view.edits for p in e.paths]
    texts += [line for e in view.edits for h in e.hunks for line in (*h.added, *h.removed)]
    texts += [h.path for h in view.submission_hunks]
    texts += [line for h in view.submission_hunks for line in (*h.added, *h.removed)]
    texts += [t for r in view.runs for t in (*r.failed_tests, *r.passed_tests)]
    texts += [r.path for r in view.remarks if r.path]
    return words(" ".join(texts))


def remarks(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """``domain`` candidates from review comments and QA defects."""
    out = []
    # A remark is answered by the edits before the next remark.
    following = [r.seq for r in view.remarks[1:]] + [max(view.events, default=0) + 1]
    for remark, stop in zip(view.remarks, following[: len(view.remarks)], strict=True):
        # A reviewer's or tester's claim stands on its own; a sentence in it that addresses the
        # learner is left out (and flagged by ``instructions``), not taken as the claim.
        body, _ = strip_injections(remark.body, placeholder="")
        body = _EMPTY_POSTSCRIPT.sub("", body)
        statement = _statement(body)
        if not statement:
            continue
        cand = base(view, remark.kind, MemoryType.DOMAIN, statement, remark.seq)
        kind = CitationKind.REVIEW if remark.kind == "review" else CitationKind.DEFECT
        cand.cite(
            Citation(
                kind=kind,
                ref=remark.ref or f"{view.session.id}:{remark.seq}",
                path=remark.path,
                start_line=remark.start,
                end_line=remark.end,
            )
        )
        if remark.path and remark.start:
            # The remark is about the code as it was under review: the session's start first.
            citation, known = citer.cite(
                remark.path,
                remark.start,
                remark.end or remark.start,
                commits=tuple(reversed(citer.commits)),
            )
            cand.cite(citation)
            cand.hash_unknown |= not known
        # The edits that answered it: of its file and of the files it names ("both have to
        # move: settings.py and deploy/values.yaml"), or all when it names none.
        named = ({remark.path} | _named_paths(body)) if remark.path else set()
        answers = [
            e for e in view.edits_between(remark.seq, stop) if not named or named & set(e.paths)
        ]
        hunks = [h for e in answers for h in e.hunks if not named or h.path in named]
        if not hunks and remark.seq == view.task_seq and not view.edits:
            # The remark is the session's task and no edit shows the change (shell edits,
            # `sed`, heredocs): the patch the session submitted answers it.
            hunks = [h for h in view.submission_hunks if not named or h.path in named]
        within = cite_hunks(cand, citer, hunks)
        if answer := _answer(hunks, within):
            cand.summary += f" {answer}"
        passing = [
            r
            for r in view.runs
            if r.seq > remark.seq and r.seq < stop and r.status == "ok" and r.is_test
        ]
        if answers and passing:
            cand.cite(session_citation(view, passing[0].result_seq))
            cand.confirmed_by.add("test")
        cand.confirmed_by.add(remark.kind)
        cand.affects_correctness = True
        cand.phase = "edit"
        if where := remark.path or _first_path(answers):
            cand.conditions.append(f"when changing {where}")
        cand.injections = find_injections(statement)
        cand.corroborated = corroborate(view, cand, exclude={remark.seq}, citer=citer)
        cand.confidence = 0.8 if answers else 0.7
        out.append(cand)
    return out


def _builtin_calls(hunks: list[Hunk]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Builtins a change started and stopped calling (``min()``, ``sum()``), as calls."""
    import builtins

    def calls(lines: Iterable[str]) -> set[str]:
        return {m for line in lines for m in re.findall(r"(?<![\w.])([a-z_]+)\(", line)
                if callable(getattr(builtins, m, None))}

    code = [h for h in hunks if not is_test_path(h.path)]
    came = calls(line for h in code for line in h.added)
    went = calls(line for h in code for line in h.removed)
    return (tuple(f"{n}()" for n in sorted(came - went)),
            tuple(f"{n}()" for n in sorted(went - came)))


def _answer(hunks: list[Hunk], within: list[str] | None = None) -> str:
    """What the change that answered a remark did, by name (never its code lines), and in
    which definitions; a change that only swapped builtins (``sum`` for ``min``) says which."""
    names = change_names(hunks)
    if not names.paths:
        return ""
    did = []
    added, removed = names.added, names.removed
    if not (added or removed):
        added, removed = _builtin_calls(hunks)
    if added:
        did.append(f"used {shown(added)}")
    if removed:
        did.append(f"dropped {shown(removed)}")
    where = ", ".join(f"`{p}`" for p in names.paths[:3])
    if within:
        where += f" (in {', '.join(f'`{d}`' for d in within[:3])})"
    if not did:
        together = " together" if len(names.paths) > 1 else ""
        return f"The change that answered it changed {where}{together}."
    return f"The change that answered it, in {where}, " + " and ".join(did) + "."


_FIELD = re.compile(r"^(title|summary|expected|actual|impact)\s*:\s*(.+)$", re.I | re.M)


def _statement(body: str) -> str:
    """The claim of a remark on one line: a defect's title, expected and actual; else the
    first sentences of the comment, without the quoted code it answers."""
    fields = {k.lower(): v.strip() for k, v in _FIELD.findall(body)}
    if "title" in fields or "actual" in fields:
        parts = [fields.get("title", "")]
        if "expected" in fields:
            parts.append(f"expected: {fields['expected']}")
        if "actual" in fields:
            parts.append(f"actual: {fields['actual']}")
        else:
            # No expected/actual fields: the report's prose says what went wrong.
            parts.append(_prose(body))
        return clip("; ".join(p for p in parts if p), 320)
    lines = [line for line in body.splitlines() if not line.lstrip().startswith(">")]
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(" ".join(lines).split()))
    return clip(" ".join(sentences[:3]), 320)


def _prose(body: str) -> str:
    """The first sentences of a report that are neither a field, quoted code nor output."""
    kept, fenced = [], False
    for line in body.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.strip() and not _FIELD.match(line) and not line.startswith(">"):
            kept.append(line.strip())
    return " ".join(re.split(r"(?<=[.!?])\s+", " ".join(kept))[:2])


def _named_paths(text: str) -> set[str]:
    return {m.group(0) for m in _PATH.finditer(text)}


def _first_path(edits: list) -> str | None:  # type: ignore[type-arg]
    return next((p for e in edits for p in e.paths), None)


def lessons(view: SessionView, citer: CodeCiter | None = None) -> list[Candidate]:
    """Lessons stated in messages, corroborated by other events or rejected by the gate."""
    out = []
    for event in view.session.events:
        if event.kind is not EventKind.MESSAGE or event.role == "system":
            continue
        for match in _LESSON.finditer(view.world(event)):
            text = clip(match.group("text") or match.group("reminder"), 300)
            type_ = MemoryType.PROCEDURAL if _PROCEDURAL_HINT.search(text) else MemoryType.DOMAIN
            cand = base(view, "lesson", type_, text, event.seq)
            cand.injections = find_injections(text)
            cand.corroborated = corroborate(view, cand, exclude={event.seq}, citer=citer)
            if cand.corroborated and not cand.injections:
                cand.not_in_source = True
            cand.confidence = 0.6
            out.append(cand)
    return out


def instructions(view: SessionView, already: list[Candidate]) -> list[Candidate]:
    """Text addressed to the memory writer that no other candidate carries, flagged.

    Only what came into the session from outside is read: the issue, user turns, reviews,
    defects and tool output, without the agent framework's fixed template. The agent's own
    words (its messages, commands and edits) are its work, read by the other rules.
    """
    carried = {f.sentence for c in already for f in c.injections}
    out: list[Candidate] = []
    for event in view.session.events:
        if event.role in ("system", "assistant") or event.kind in _AGENT_KINDS:
            continue
        # The same instruction met again (or inside a lesson already proposed) is one candidate;
        # the sentences of one event's instruction are one candidate too.
        findings = [
            f
            for f in find_injections(view.world(event))
            if not any(f.sentence in c or c in f.sentence for c in carried)
        ]
        if findings and len(out) < MAX_INSTRUCTIONS:
            carried.update(f.sentence for f in findings)
            said = " ".join(f.sentence for f in findings)
            cand = base(view, "instruction", MemoryType.PROCEDURAL, clip(said, 300), event.seq)
            cand.injections = findings
            cand.corroborated = corroborate(view, cand, exclude={event.seq})
            cand.confidence = 0.3
            out.append(cand)
    return out


def corroborate(
    view: SessionView, cand: Candidate, exclude: set[int], citer: CodeCiter | None = None
) -> bool:
    """Whether a test run, review, defect or fix other than ``exclude`` names the same code facts.

    Corroborating events are cited, and their kind counts as confirmation; with ``citer``, so
    are the changed lines of a corroborating fix (the code that embodies the statement).
    """
    mine = {s for s in specifics(cand.summary) if len(s) > 3}
    if not mine:
        return False
    found = False
    for run in view.runs:
        if run.result_seq in exclude or run.status not in ("ok", "failed"):
            continue
        seen = (
            specifics(run.command + "\n" + run.output)
            | set(run.failed_tests)
            | set(run.passed_tests)
        )
        if mine & seen:
            cand.cite(session_citation(view, run.result_seq))
            cand.confirmed_by.add("test" if run.is_test else "incident")
            found = True
    for remark in view.remarks:
        if remark.seq not in exclude and mine & specifics(remark.body + " " + (remark.path or "")):
            cand.cite(
                Citation(
                    kind=CitationKind.REVIEW if remark.kind == "review" else CitationKind.DEFECT,
                    ref=remark.ref or f"{view.session.id}:{remark.seq}",
                )
            )
            cand.confirmed_by.add(remark.kind)
            found = True
    for edit in view.edits:
        if edit.seq in exclude:
            continue
        # A fix corroborates by its code (same identifiers) or by being in a file it names.
        hunks = [h for h in edit.hunks if mine & (specifics(" ".join(h.added)) | {h.path})]
        if hunks:
            cand.cite(session_citation(view, edit.seq))
            if citer is not None:
                cite_hunks(cand, citer, hunks)
            found = True
    return found


__all__ = ["Remark", "corroborate", "instructions", "lessons", "remarks", "vocabulary"]
