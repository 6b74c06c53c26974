"""The offline rule backend: shared helpers, and failures with their fixes.

The rules read structured events only, so the same session always yields the same candidates:

- ``failure`` (here): a run failed (failing test ids, an excerpt), and the edits that made it pass;
- ``command`` and ``guard`` (``procedures``): the command that worked after similar ones
  failed, and the tests to run before touching a module they are not named after;
- ``episode`` (``episodes``): problem -> actions -> result of the session, compact;
- ``review``, ``defect``, ``lesson``, ``instruction`` (``statements``): what people said.
"""

from __future__ import annotations

import re

from dreamer.extract.candidate import Candidate, clip
from dreamer.extract.citations import CodeCiter, Hunk
from dreamer.extract.evidence import Edit, Run, SessionView
from dreamer.extract.injection import strip_injections
from dreamer.models import Citation, CitationKind, MemoryType

MAX_FILE_CITATIONS = 4


def base(
    view: SessionView, rule: str, type_: MemoryType, summary: str, seq: int | None
) -> Candidate:
    """A candidate with the session's scope, its time, and a citation of ``seq``."""
    session = view.session
    event = view.events.get(seq) if seq is not None else None
    candidate = Candidate(
        type=type_,
        summary=summary,
        session_id=session.id,
        source_seq=seq,
        rule=rule,
        repo=session.repo or "*",
        branch=session.branch,
        created_at=(event.timestamp if event else None) or session.ended_at or session.started_at,
    )
    if seq is not None:
        candidate.cite(session_citation(view, seq))
    return candidate


def session_citation(view: SessionView, seq: int) -> Citation:
    return Citation(kind=CitationKind.SESSION, ref=f"{view.session.id}:{seq}")


def cite_hunks(
    candidate: Candidate, citer: CodeCiter, hunks: list[Hunk] | tuple[Hunk, ...]
) -> None:
    """File citations for the changed lines of ``hunks`` (a few), noting unknown hashes."""
    for hunk in list(hunks)[:MAX_FILE_CITATIONS]:
        citation, known = citer.cite_hunk(hunk)
        candidate.cite(citation)
        candidate.hash_unknown |= not known


def code_excerpt(edits: list[Edit], limit: int = 160) -> str:
    """The first meaningful added lines of ``edits``, as inline code."""
    lines = [line.strip() for e in edits for line in e.added if line.strip()]
    lines = [line for line in lines if not line.startswith(("#", "//", '"""'))] or lines
    return clip(" ; ".join(lines[:3]), limit) if lines else ""


def failure_excerpt(run: Run, limit: int = 180) -> str:
    """What the failure said: pytest's short summary lines, an ``E`` line, or the last error."""
    text = ""
    for line in run.failure_lines:
        if " - " in line:
            text = line.split(" - ", 1)[1]
            break
    if not text:
        output = run.output.splitlines()
        found = [line.strip()[1:].strip() for line in output if line.startswith("E ")]
        found = found or [
            line.strip() for line in output if re.search(r"(Error|Exception)\b.*:", line)
        ]
        text = found[-1] if found else (run.failure_lines[0] if run.failure_lines else "")
    cleaned, _ = strip_injections(text)
    return clip(cleaned, limit)


def _resolves(failed: Run, later: Run) -> bool:
    if later.status == "unknown" and failed.exit_code is None and later.output.strip():
        # Without exit codes the failure was seen in the text; the same command's output
        # without an error is the same kind of signal that it now works.
        return later.command == failed.command
    if later.status != "ok":
        return False
    if failed.failed_tests and set(failed.failed_tests) <= set(later.passed_tests):
        return True
    return later.command == failed.command


def tests_text(tests: tuple[str, ...]) -> str:
    """Up to three test ids as inline code, and how many more."""
    shown = ", ".join(f"`{t}`" for t in tests[:3])
    return shown + (f" and {len(tests) - 3} more" if len(tests) > 3 else "")


def failures(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """One ``failure`` candidate per failure episode: first failure, last failure, the fix."""
    runs = view.runs
    out: list[Candidate] = []
    covered: set[int] = set()
    for i, first in enumerate(runs):
        if (
            first.status != "failed"
            or i in covered
            or not (first.failed_tests or first.is_test or first.command)
        ):
            continue
        key = set(first.failed_tests) or {first.command}
        last, fix = first, None
        for j in range(i + 1, len(runs)):
            run = runs[j]
            if run.status == "failed" and (
                set(run.failed_tests) & key or run.command == first.command
            ):
                covered.add(j)
                last = run
            elif _resolves(first, run):
                fix = run
                break
        previous = runs[i - 1].result_seq if i > 0 else -1
        attempts = view.edits_between(previous, first.seq) + view.edits_between(first.seq, last.seq)
        fixes = view.edits_between(last.seq, fix.seq) if fix else []
        if fix is None and not first.failed_tests:
            continue  # an error that was never resolved teaches nothing checkable
        what = (
            tests_text(first.failed_tests) if first.failed_tests else f"`{clip(first.command, 80)}`"
        )
        parts = [f"{what} failed: {failure_excerpt(last) or 'see the cited run'}."]
        if attempts and (tried := code_excerpt(attempts, 120)):
            parts.append(f"Failed attempt in {', '.join(attempts[-1].paths)}: `{tried}`.")
        if fixes:
            done = code_excerpt(fixes)
            paths = ", ".join(dict.fromkeys(p for e in fixes for p in e.paths))
            parts.append(f"Fixed in {paths}" + (f": `{done}`." if done else "."))
        elif fix is not None and fix.command != first.command:
            parts.append(f"It passed when run as `{clip(fix.command, 100)}`.")
        else:
            parts.append("Not resolved in this session.")
        cand = base(view, "failure", MemoryType.FAILURE, " ".join(parts), last.result_seq)
        cand.cite(session_citation(view, first.result_seq))
        for test in first.failed_tests[:8]:
            cand.cite(Citation(kind=CitationKind.TEST, ref=test))
        cite_hunks(cand, citer, [h for e in fixes for h in e.hunks])
        if fix is not None:
            cand.cite(session_citation(view, fix.result_seq))
            cand.confirmed_by.add("test" if fix.is_test else "incident")
        if fixes and view.session.commit_end:
            cand.cite(
                Citation(
                    kind=CitationKind.COMMIT,
                    ref=view.session.commit_end,
                    commit=view.session.commit_end,
                )
            )
        cand.confirmed_by.add("incident")
        cand.affects_correctness = True
        fixed_paths = [p for e in fixes for p in e.paths]
        cand.module = fixed_paths[0] if fixed_paths else _test_file(first.failed_tests)
        cand.phase = "edit"
        if fixed_paths:
            cand.conditions.append(f"when changing {', '.join(dict.fromkeys(fixed_paths))}")
        if first.command:
            cand.conditions.append(f"tests run with `{clip(first.command, 100)}`")
        cand.confidence = 0.8 if fixes and fix is not None else 0.6
        out.append(cand)
    return out


def _test_file(tests: tuple[str, ...]) -> str | None:
    return tests[0].split("::", 1)[0] if tests else None
