"""Procedures: how things are done here, learnt from runs of commands and tests.

- ``command``: the command that worked after similar ones (same program, or another way of
  running the tests) failed or ran nothing: env vars, flags, make targets, paths;
- ``guard``: tests that broke after an edit of a module they are not named after, i.e. the
  tests to run before touching that module, which the source does not tell.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from dreamer.extract.candidate import Candidate, clip
from dreamer.extract.citations import CodeCiter
from dreamer.extract.evidence import Edit, Run, SessionView
from dreamer.extract.rules import base, cite_hunks, failure_excerpt, session_citation, tests_text
from dreamer.extract.shell_edits import ENV_ASSIGNMENT, TRIVIAL_PROGRAMS, program
from dreamer.models import Citation, CitationKind, MemoryType


def env_vars(command: str) -> set[str]:
    return {w.split("=", 1)[0] for w in command.split() if ENV_ASSIGNMENT.match(w)}


def commands(view: SessionView) -> list[Candidate]:
    """``procedural``: the command that worked after similar ones (same program) failed."""
    out: list[Candidate] = []
    runs = view.runs
    for i, ok in enumerate(runs):
        prog = program(ok.command)
        if ok.status != "ok" or not prog or prog in TRIVIAL_PROGRAMS:
            continue
        failed: list[Run] = []
        for earlier in reversed(runs[max(0, i - 6) : i]):
            if view.edits_between(earlier.seq, ok.seq):
                break  # an edit in between: the code changed, not the command
            # The same program, or two ways of running tests (plain pytest, then a make target).
            related = program(earlier.command) == prog or (earlier.is_test and ok.is_test)
            if (
                related
                and earlier.command != ok.command
                and earlier.status in ("failed", "ineffective")
            ):
                failed.append(earlier)
        if not failed:
            continue
        bad = failed[0]
        why = (
            "ran no tests"
            if bad.status == "ineffective"
            else (
                f"failed ({failure_excerpt(bad, 140).rstrip('.')})"
                if failure_excerpt(bad)
                else "failed"
            )
        )
        summary = f"Run `{clip(ok.command, 120)}`; `{clip(bad.command, 100)}` {why}."
        if missing := sorted(env_vars(ok.command) - env_vars(bad.command)):
            summary += f" It needs the environment variable {', '.join(missing)} set."
        cand = base(view, "command", MemoryType.PROCEDURAL, summary, ok.result_seq)
        for run in failed:
            cand.cite(session_citation(view, run.result_seq))
        for test in ok.passed_tests[:3]:
            cand.cite(Citation(kind=CitationKind.TEST, ref=test))
        cand.confirmed_by.add("incident")
        if ok.is_test and ok.passed_tests:
            cand.confirmed_by.add("test")
        cand.not_in_source = True
        cand.phase = "test" if ok.is_test else None
        cand.conditions.append(f"when running {prog}")
        cand.confidence = 0.7
        out.append(cand)
    return out


def guards(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """``procedural``: tests that guard a module but are not named after it."""
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    previous = -1
    for run in view.runs:
        if not run.is_test:
            continue
        if run.status == "failed" and run.failed_tests:
            for edit in view.edits_between(previous, run.seq):
                for path in edit.paths:
                    stem = PurePosixPath(path).stem.lower()
                    far = tuple(t for t in run.failed_tests if stem not in t.lower())
                    if "test" in stem or not far or (path, far[0].split("::")[0]) in seen:
                        continue
                    seen.add((path, far[0].split("::")[0]))
                    out.append(_guard(view, citer, run, edit, path, far))
        previous = run.result_seq
    return out


def _guard(
    view: SessionView, citer: CodeCiter, run: Run, edit: Edit, path: str, far: tuple[str, ...]
) -> Candidate:
    test_files = sorted({t.split("::", 1)[0] for t in far})
    summary = (
        f"Changing {path} can break {tests_text(far)}, which are not named after it: "
        f"run {', '.join(test_files)} before touching it."
    )
    cand = base(view, "guard", MemoryType.PROCEDURAL, summary, run.result_seq)
    cand.cite(session_citation(view, edit.seq))
    for test in far[:5]:
        cand.cite(Citation(kind=CitationKind.TEST, ref=test))
    cite_hunks(cand, citer, [h for h in edit.hunks if h.path == path][:2])
    cand.confirmed_by.update({"test", "incident"})
    cand.not_in_source = True
    cand.phase = "edit"
    cand.conditions.append(f"when changing {path}")
    cand.confidence = 0.7
    return cand
