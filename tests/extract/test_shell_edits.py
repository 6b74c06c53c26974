"""Edits made through the shell are read off the commands themselves: ``sed -i``, Python scripts
(read with ``ast``), here-documents and redirections; a generator that shows its diff wrote it."""

from __future__ import annotations

from dreamer.extract.evidence import SessionView
from dreamer.extract.shell_edits import shell_hunks
from dreamer.models import EventKind

from .conftest import make_session


def _changes(command: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    return [(h.path, h.removed, h.added) for h in shell_hunks(command)]


def test_what_each_kind_of_shell_edit_writes() -> None:
    assert _changes("sed -i 's/^MAX_RUN = 600$/MAX_RUN = 900/' pkg/plan.py && pytest -q") == [
        ("pkg/plan.py", ("MAX_RUN = 600",), ("MAX_RUN = 900",))]
    assert _changes("sed -i -e 's|a/b|c/d|g' x.cfg") == [("x.cfg", ("a/b",), ("c/d",))]
    script = ("python - <<'EOF'\nfrom pathlib import Path\np = Path(\"pkg/plan.py\")\n"
              "s = p.read_text().replace('return sum(v) / len(v)', 'return min(v)')\n"
              "p.write_text(s)\nq = Path(\"tests/test_plan.py\")\n"
              "q.write_text(q.read_text().replace('== 0.28', '== 0.26'))\nEOF\ngit diff")
    assert _changes(script) == [
        ("pkg/plan.py", ("return sum(v) / len(v)",), ("return min(v)",)),
        ("tests/test_plan.py", ("== 0.28",), ("== 0.26",))]
    assert _changes("cat > notes/todo.md <<'EOF'\none\ntwo\nEOF") == [
        ("notes/todo.md", (), ("one", "two"))]
    assert _changes("printf 'FLUSH,0x30,u16\\n' >> pkg/opcodes.csv") == [
        ("pkg/opcodes.csv", (), ("FLUSH,0x30,u16",))]
    assert _changes("python -c \"from pathlib import Path; p = Path('a.py'); "
                    "p.write_text(p.read_text().replace('x = 1', 'x = 2'))\"") == [
        ("a.py", ("x = 1",), ("x = 2",))]
    # Looking around writes nothing; neither does a redirection to /dev/null.
    for command in ("cat pkg/plan.py && grep -n MAX pkg/*.py", "echo hi > /dev/null",
                    "git diff", "python -m pytest -q > /dev/null"):
        assert _changes(command) == [], command


DIFF = ("diff --git a/pkg/_table.py b/pkg/_table.py\n--- a/pkg/_table.py\n+++ b/pkg/_table.py\n"
        "@@ -1,2 +1,3 @@\n DIGEST = 'a1'\n+FLUSH = 0x30\n STATUS = 0x20\n")


def test_shell_edits_are_edits_of_the_session_and_precede_the_tests_they_run() -> None:
    events = [
        (EventKind.MESSAGE, "user", "Please solve this issue: add FLUSH", {}),
        (EventKind.COMMAND, "assistant", "sed -i 's/STATUS = 0x20/STATUS = 0x21/' pkg/_table.py "
         "&& python -m pytest -q", {}),
        (EventKind.TEST_RESULT, "tool", "F\n1 failed in 0.1s", {"exit_code": 1, "cause": 1}),
        (EventKind.COMMAND, "assistant", "git checkout pkg/_table.py && python -m pkg.gen && "
         "git diff pkg/_table.py", {}),
        (EventKind.OBSERVATION, "tool", DIFF, {"exit_code": 0, "cause": 3}),
        (EventKind.COMMAND, "assistant", "git diff", {}),
        (EventKind.OBSERVATION, "tool", DIFF, {"exit_code": 0, "cause": 5}),
        (EventKind.COMMAND, "assistant", "python -m pytest -q", {}),
        (EventKind.TEST_RESULT, "tool", "3 passed in 0.1s", {"exit_code": 0, "cause": 7}),
    ]
    view = SessionView(make_session(events)[1])
    assert [(e.seq, e.paths, e.shell) for e in view.edits] == [
        (1, ("pkg/_table.py",), True), (3, ("pkg/_table.py",), True)]
    assert view.edits[1].added == ("FLUSH = 0x30",)  # the generator wrote what its diff shows
    # The sed ran before the tests of its own line: it is the failed attempt.
    assert [e.seq for e in view.edits_between(0, 1)] == [1]
    assert [e.seq for e in view.edits_between(1, 7)] == [3]
