"""Episodes: problem -> actions -> result of one session, compact."""

from __future__ import annotations

from dreamer.extract.candidate import Candidate, clip
from dreamer.extract.citations import CodeCiter
from dreamer.extract.evidence import SessionView
from dreamer.extract.injection import strip_injections
from dreamer.extract.names import change_names, is_test_path, shown
from dreamer.extract.rules import base, cite_hunks, session_citation
from dreamer.models import Citation, CitationKind, MemoryType


def episode(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """``episodic``: problem -> actions -> result, for a session that changed code."""
    hunks = view.submission_hunks or tuple(h for e in view.edits for h in e.hunks)
    # The submitted patch says what changed; scratch files the agent removed are not part of it.
    paths = list(dict.fromkeys([h.path for h in hunks] or [p for e in view.edits for p in e.paths]))
    if not paths:
        return []
    session = view.session
    tests = [r for r in view.runs if r.is_test]
    final = tests[-1] if tests else None
    problem = (
        clip(strip_injections(view.problem)[0], 160) or f"task {session.task_id or session.id}"
    )
    result = session.outcome or (
        "submitted" if view.submission_seq is not None else "unknown outcome"
    )
    if final is not None and final.status in ("ok", "failed"):
        result += f"; last test run {'passed' if final.status == 'ok' else 'failed'}"
    seq = view.submission_seq if view.submission_seq is not None else view.edits[-1].seq
    cand = base(view, "episode", MemoryType.EPISODIC, "", seq)
    cand.created_at = session.ended_at or cand.created_at
    within = cite_hunks(cand, citer, hunks)
    # What the change reached, by name: the definitions it edited, then what it brought in.
    names = change_names(hunks)
    brought = [n for n in (*names.added, *names.calls)
               if n not in within and n not in names.bound]
    source = next((p for p in paths if not is_test_path(p)), paths[0])
    brought = citer.qualify(list(dict.fromkeys(brought))[:4], near=source)
    # What the rewritten lines still rely on, when the change brought in little of its own.
    relied = [n for n in names.relied if n not in within and n not in brought][:4 - len(brought)]
    relied = citer.qualify(relied, near=source)
    reached = ""
    if within:
        reached += f" in {shown(within, 4)}"
    if brought:
        reached += f", bringing in {shown(brought, 4)}"
    if relied:
        reached += f", relying on {shown(relied, 4)}"
    cand.summary = (
        f"Task: {problem} -> changed {', '.join(paths[:4])}{' and more' if len(paths) > 4 else ''}"
        f"{reached} ({len(view.runs)} commands, {len(tests)} test runs) -> {result}."
    )
    if final is not None and final.status == "ok":
        cand.cite(session_citation(view, final.result_seq))
        cand.confirmed_by.add("test")
        for test in final.passed_tests[:3]:
            cand.cite(Citation(kind=CitationKind.TEST, ref=test))
    if session.commit_end:
        cand.cite(
            Citation(kind=CitationKind.COMMIT, ref=session.commit_end, commit=session.commit_end)
        )
    cand.not_in_source = True  # why a change was made is not in the code
    cand.conditions.append(f"when working on {paths[0]}")
    cand.confidence = 0.5
    return [cand]
