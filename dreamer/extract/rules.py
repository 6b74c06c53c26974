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
from dreamer.extract.names import ChangeNames, change_names, is_test_path, shown
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
) -> list[str]:
    """File citations for the changed lines of ``hunks`` (a few), noting unknown hashes; returns
    the definitions those lines sit in (``VISIT_CODES``, ``plan_reminders``), in order."""
    within: list[str] = []
    for hunk in list(hunks)[:MAX_FILE_CITATIONS]:
        citation, known = citer.cite_hunk(hunk)
        candidate.cite(citation)
        candidate.hash_unknown |= not known
        if known and not is_test_path(hunk.path) and (name := citer.enclosing(citation)):
            within.append(name)
    return list(dict.fromkeys(within))


def code_excerpt(edits: list[Edit], limit: int = 160) -> str:
    """The first meaningful added lines of ``edits``, as inline code."""
    lines = [line.strip() for e in edits for line in e.added if line.strip()]
    lines = [line for line in lines if not line.startswith(("#", "//", '"""'))] or lines
    return clip(" ; ".join(lines[:3]), limit) if lines else ""


_PYTEST_HINT = re.compile(r"Full output truncated|Use -v to get (?:more|the full) diff|"
                          r"^E\s+(?:Full diff|Omitting \d+ identical items)")
_RAISED = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b:")


def failure_excerpt(run: Run, limit: int = 180) -> str:
    """What the failure said: pytest's short summary lines, an ``E`` line, or the last error."""
    text = ""
    for line in run.failure_lines:
        if " - " in line:
            text = line.split(" - ", 1)[1]
            break
    if text.endswith("..."):
        text = ""  # pytest cut the summary short: the ``E`` lines say it whole
    if not text:
        output = run.output.splitlines()
        found = [line.strip()[1:].strip() for line in output if line.startswith("E ")
                 and not _PYTEST_HINT.search(line) and line[1:].strip() not in ("", "...")]
        # An exception named with its message says most ("depot.sorting.StaleIndexError: ...").
        raised = [line for line in found if _RAISED.match(line)]
        found = raised[:1] or found or [
            line.strip() for line in output if re.search(r"(Error|Exception)\b.*:", line)
        ]
        text = found[-1] if found else (run.failure_lines[0] if run.failure_lines else "")
    cleaned, _ = strip_injections(text)
    return clip(cleaned, limit)


def _resolves(failed: Run, later: Run, last_test: Run | None) -> bool:
    """Whether ``later`` shows that the failure of ``failed`` was fixed: the same tests (or the
    same command) now pass, or it is the session's last test run and it passed (the outcome
    comes from the last test run, not from what the agent said)."""
    if later.status == "unknown" and failed.exit_code is None and later.output.strip():
        # Without exit codes the failure was seen in the text; the same command's output
        # without an error is the same kind of signal that it now works.
        return later.command == failed.command
    if later.status != "ok":
        return False
    if failed.failed_tests and set(failed.failed_tests) <= set(later.passed_tests):
        return True
    if later.command == failed.command:
        return True
    return later is last_test and later.is_test and bool(failed.failed_tests)


def tests_text(tests: tuple[str, ...]) -> str:
    """Up to three test ids as inline code, and how many more."""
    shown = ", ".join(f"`{t}`" for t in tests[:3])
    return shown + (f" and {len(tests) - 3} more" if len(tests) > 3 else "")


def failures(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """One ``failure`` candidate per failure episode: what failed, how, and the fix that passed.

    The episode runs from a failing run to the run that shows it fixed (``_resolves``). Its
    memory names, as identifiers (``dreamer.extract.names``), what the failed attempt brought in
    (or, with no attempt in the session, what the fix took away) and what the passing fix brought
    in, with the files the fix had to touch beyond the attempt's and the commands it had to run
    (a generator, a ``make`` target): never copied code lines.
    """
    runs = view.runs
    tests_run = [r for r in runs if r.is_test and r.status in ("ok", "failed")]
    last_test = tests_run[-1] if tests_run else None
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
                or (run.is_test and first.is_test)
            ):
                covered.add(j)
                last = run
            elif _resolves(first, run, last_test):
                fix = run
                break
        previous = runs[i - 1].result_seq if i > 0 else -1
        attempts = view.edits_between(previous, first.seq) + view.edits_between(first.seq, last.seq)
        fixes = view.edits_between(last.seq, fix.seq) if fix else []
        ran = _commands_between(view, last.seq, fix.seq) if fix else []
        cand = _failure(view, citer, first, last, fix, attempts, fixes, ran)
        if cand is not None:
            out.append(cand)
    return out


def edit_names(edits: list[Edit]) -> ChangeNames:
    """What ``edits`` brought in and took away by name: their own diffs' hunks, or, for an edit
    known only by the text it wrote (``edit 11:11`` ...), that text's names as added."""
    hunks = [h for e in edits if e.own for h in e.hunks]
    written = [Hunk(p, 0, 0, 0, 0, e.added, (), e.added) for e in edits if not e.own
               for p in e.paths[:1]]
    return change_names([*hunks, *written])


def _written_by_commands(view: SessionView) -> list[str]:
    """Files the submitted patch changes that no edit of the agent touched: a command wrote
    them (a generator, a build step), when the session's edits are known at all."""
    if not view.edits:
        return []
    edited = {p for e in view.edits for p in e.paths}
    return list(dict.fromkeys(h.path for h in view.submission_hunks if h.path not in edited))


def _commands_between(view: SessionView, after: int, before: int) -> list[Run]:
    """Commands that did something between a failure and the run that passed: not a test run,
    not a look around (``ls``, ``cat``, ``git``...), and themselves successful."""
    from dreamer.extract.shell_edits import TRIVIAL_PROGRAMS, program

    return [r for r in view.runs if after < r.seq < before and not r.is_test
            and r.status in ("ok", "unknown") and program(r.command) not in TRIVIAL_PROGRAMS
            and not r.command.lstrip().startswith("{")]  # an editor tool's call, not a command


def _failure(view: SessionView, citer: CodeCiter, first: Run, last: Run, fix: Run | None,
             attempts: list[Edit], fixes: list[Edit], ran: list[Run] | None = None
             ) -> Candidate | None:
    tried = edit_names(attempts)
    fixed = edit_names(fixes)
    used = [n for n in fixed.added if n not in tried.added]
    # What the attempt brought in that the fix took out again (or, when the fix's own diff is
    # not known, did not repeat); without an attempt of its own, the session found the wrong code
    # in place: the fix's removals are what did not work. What the attempt brought in and the
    # fix left standing is part of what passed.
    own_fix = any(e.own for e in fixes)
    wrong = [n for n in tried.added if (n in fixed.removed if own_fix and fixed.removed
                                        else n not in fixed.added)] or [
        n for n in fixed.removed if n not in used]
    kept = [n for n in tried.added if n not in wrong and n not in tried.bound] \
        if own_fix and fixed.removed else []
    paths = list(dict.fromkeys([*tried.paths, *fixed.paths])) or [
        p for e in attempts + fixes for p in e.paths if not is_test_path(p)]
    also = [p for p in fixed.paths if tried.paths and p not in tried.paths]
    if fix is None and not first.failed_tests:
        return None  # an error that was never resolved teaches nothing checkable
    if fix is not None and not (used or wrong or also or ran) and fix.command == first.command:
        return None  # it passed again with nothing to say why: no fact to keep
    what = tests_text(first.failed_tests) if first.failed_tests else f"`{clip(first.command, 80)}`"
    where = f"Changing {', '.join(f'`{p}`' for p in paths[:3])}: " if paths else ""
    how = f" with {shown(wrong)}" if tried.added and wrong else ""
    if fix is not None and not used and fixed.added and not also:
        used = list(fixed.added)  # the fix repeated names the attempt had: still what passed
    if fix is not None:
        used = [n for n in used if n not in fixed.bound] + [n for n in used if n in fixed.bound]
        used += [n for n in (*kept, *fixed.calls) if n not in used and n not in wrong][:3]
    # An instance's method is named by its class, as the code defines it (``Registry.touch``).
    near = next((p for p in paths if not is_test_path(p)), None)
    used = [*citer.qualify(used[:4], near=near), *used[4:]]
    wrong = [*citer.qualify(wrong[:4], near=near), *wrong[4:]]
    written = _written_by_commands(view) if ran else []
    excerpt = failure_excerpt(last)
    parts = [f"{where}{what} failed{how}" + (f" ({excerpt.rstrip('.')})" if excerpt else "")]
    if fix is None:
        parts.append("no passing fix in this session")
    else:
        fixed_by = []
        if used:
            fixed_by.append(f"used {shown(used)}")
        if also:
            fixed_by.append(f"also changed {shown(also, 3)}")
        if ran:
            fixed_by.append("ran " + ", ".join(f"`{clip(r.command, 60)}`" for r in ran[:2])
                            + (f", which rewrote {shown(written, 3)}" if written else ""))
        if not fixed_by and fix.command != first.command:
            fixed_by.append(f"ran as `{clip(fix.command, 100)}`")
        if not fixed_by:
            return None
        clause = " and ".join(fixed_by)
        if wrong and used:
            clause += f" instead of {shown(wrong)}"
        parts.append(f"the passing fix {clause}")
    summary = "; ".join(parts) + "."
    cand = base(view, "failure", MemoryType.FAILURE, summary, last.result_seq)
    cand.cite(session_citation(view, first.result_seq))
    for test in first.failed_tests[:8]:
        cand.cite(Citation(kind=CitationKind.TEST, ref=test))
    within = cite_hunks(cand, citer, [h for e in fixes for h in e.hunks])
    if fix is not None and (inside := [n for n in within if n not in used[:4]]):
        cand.summary = cand.summary[:-1] + f", in {shown(inside, 3)}."
    if fix is not None:
        cand.cite(session_citation(view, fix.result_seq))
        cand.confirmed_by.add("test" if fix.is_test else "incident")
    if ran and fix is not None and written:
        # What the fix's commands wrote is in the submitted patch: cite it there.
        cite_hunks(cand, citer, [h for h in view.submission_hunks if h.path in written])
    if (fixes or ran) and fix is not None and view.session.commit_end:
        cand.cite(Citation(kind=CitationKind.COMMIT, ref=view.session.commit_end,
                           commit=view.session.commit_end))
    cand.confirmed_by.add("incident")
    cand.affects_correctness = True
    cand.phase = "edit"
    if paths:
        cand.conditions.append(f"when changing {', '.join(paths[:3])}")
    cand.confidence = 0.8 if fixes and fix is not None else 0.6
    return cand
