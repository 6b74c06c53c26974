"""Edits made through the shell: what a command wrote, read off the command itself.

Agents without an editor tool (mini-swe-agent, SWE-agent's bash, a human's terminal) change files
with commands. What such a command changes is in its text, read for what it does, never for how
it is worded:

- ``sed -i 's/OLD/NEW/' FILE`` replaces OLD by NEW in FILE (any delimiter, ``-e`` scripts);
- a Python script (``python - <<'EOF' ... EOF``, ``python -c "..."``), read with ``ast``: each
  ``.replace(OLD, NEW)`` of string constants, applied to the file a ``Path(...)`` or ``open(...)``
  of the script names, the text ``+=`` appends, and the text a ``write_text`` / ``write`` call
  gives it whole;
- ``cat > FILE <<EOF``, ``tee FILE <<EOF``: the here-document becomes FILE;
- ``printf ... >> FILE``, ``echo ... >> FILE``: lines appended.

Each gives hunks without line numbers (``new_start`` 0), like an editor call's strings: citing a
hunk finds its lines in the file. A command that shows a unified diff in its output (``... &&
git diff``) has better hunks: ``SessionView`` takes those first.
"""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import PurePosixPath

from dreamer.extract.citations import Hunk

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1([^\n]*)\n(.*?)\n\s*\2\s*(?:\n|$)", re.S)
_WRITES = re.compile(r"\bsed\s[^|;&]*-i|>>?\s*[\w./-]|\btee\b|\bpython[\d.]*\s+(?:-\s*<<|-c\b)"
                     r"|\bwrite_text\b|\bopen\(")
_REDIRECT = re.compile(r"(?<![\d&<>])(>>?)\s*([\w./-]+)")


TRIVIAL_PROGRAMS = frozenset(
    "ls cd cat head tail find grep rg echo pwd open goto scroll_up scroll_down search_dir "
    "search_file find_file create submit str_replace_editor edit view git sed wc which clear "
    "exit".split()
)
"""Programs that only look around or edit: a "working" form of them teaches nothing."""
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program(command: str) -> str:
    """The program a shell line runs: ``SHOP_IT=1 python -m pytest x`` -> ``pytest``."""
    command = command.strip().split("&&")[-1].strip()
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    words = [w for w in words if not ENV_ASSIGNMENT.match(w) and w not in ("env", "sudo", "time")]
    if len(words) >= 3 and words[0].startswith("python") and words[1] == "-m":
        return words[2]
    return PurePosixPath(words[0]).name if words else ""


def runs_a_program(command: str) -> bool:
    """Whether some part of ``command`` runs more than a look around or the tests
    (``python -m gen && git diff``)."""
    return any(program(part) not in TRIVIAL_PROGRAMS | {"pytest", "diff", "sort", "less", "true"}
               for part in re.split(r"&&|;|\|\|", command) if part.strip())


def shell_hunks(command: str) -> tuple[Hunk, ...]:
    """The hunks ``command`` writes, as far as its text says (see the module docstring)."""
    if not _WRITES.search(command):
        return ()
    hunks: list[Hunk] = []
    for match in _HEREDOC.finditer(command):
        head = re.split(r"&&|\|\||;", command[:match.start()].rsplit("\n", 1)[-1])[-1]
        body = match.group(4)
        if re.search(r"\bpython[\d.]*\b", head):
            hunks += python_hunks(body)
        elif target := _target(head + " " + match.group(3)):
            hunks.append(replacement(target, "", body))
    for words in _commands(_HEREDOC.sub("\n", command)):
        hunks += _segment_hunks(words)
    return tuple(h for h in hunks if not h.path.startswith("/dev/"))


def _commands(text: str) -> list[list[str]]:
    """The simple commands of a shell text, as words (quotes respected), split at ``&&``,
    ``||``, ``;``, ``|`` and at line ends outside quotes; a redirection stays a word of its own
    (``>``, ``>>``)."""
    out: list[list[str]] = [[]]
    for line in _logical_lines(text):
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        try:
            for token in lexer:
                if token in (";", "&&", "||", "|", "&"):
                    out.append([])
                else:
                    out[-1].append(token)
        except ValueError:
            pass
        out.append([])
    return [words for words in out if words]


def _logical_lines(text: str) -> list[str]:
    """``text`` cut at the line ends that are not inside quotes."""
    lines: list[str] = []
    pending = ""
    for line in text.split("\n"):
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending)
        except ValueError:
            continue  # a quote is still open: the command goes on
        lines.append(pending)
        pending = ""
    return [*lines, pending] if pending else lines


def _target(head: str) -> str | None:
    """The file a ``cat > FILE <<EOF`` or ``tee FILE <<EOF`` writes."""
    if found := _REDIRECT.search(head):
        return found.group(2)
    if tee := re.search(r"\btee\s+(?:-a\s+)?([\w./-]+)", head):
        return tee.group(1)
    return None


def _segment_hunks(words: list[str]) -> list[Hunk]:
    target = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in (">", ">>")), None)
    args = [w for i, w in enumerate(words)
            if w not in (">", ">>") and (i == 0 or words[i - 1] not in (">", ">>"))]
    if not args:
        return []
    if args[0] == "sed" and any(w == "-i" or w.startswith("-i") for w in args[1:]):
        return _sed(args[1:])
    if re.match(r"python[\d.]*$", args[0]) and len(args) > 2 and args[1] == "-c":
        return python_hunks(args[2])
    if args[0] in ("printf", "echo") and target:
        flags = [a for a in args[1:] if a in ("-e", "-n")]
        text = " ".join(a for a in args[1:] if a not in flags)
        if args[0] == "printf" or "-e" in flags:
            text = text.replace("\\n", "\n").replace("\\t", "\t")
        return [replacement(target, "", text.rstrip("\n"))]
    return []


def _sed(args: list[str]) -> list[Hunk]:
    """``sed -i`` substitutions: (files, scripts) read from its arguments."""
    scripts: list[str] = []
    files: list[str] = []
    expect_script = False
    for arg in args:
        if expect_script:
            scripts.append(arg)
            expect_script = False
        elif arg in ("-e", "--expression"):
            expect_script = True
        elif arg.startswith("-"):
            continue
        elif not scripts:
            scripts.append(arg)
        else:
            files.append(arg)
    hunks = []
    for script in scripts:
        for old, new in _substitutions(script):
            hunks += [replacement(path, old, new) for path in files]
    return hunks


def _substitutions(script: str) -> list[tuple[str, str]]:
    """(pattern, replacement) of each ``s`` command of a sed script, anchors and escapes of the
    pattern taken as the literal text they match."""
    out = []
    for command in script.split(";"):
        command = command.strip()
        if len(command) < 4 or command[0] != "s":
            continue
        delimiter = command[1]
        parts = re.split(rf"(?<!\\){re.escape(delimiter)}", command[2:])
        if len(parts) < 2:
            continue
        old = re.sub(r"\\(.)", r"\1", parts[0].strip("^$")).replace(".*", "")
        new = re.sub(r"\\(.)", r"\1", parts[1]).replace("&", old)
        if old or new:
            out.append((old, new))
    return out


def python_hunks(source: str) -> list[Hunk]:
    """What a Python script writes: ``.replace`` pairs on the file it read last (the latest
    ``Path(...)`` or ``open(...)`` before them in the script), whole texts it writes
    (``write_text``, ``open(..., "w").write``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    nodes = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call | ast.AugAssign)),
                   key=lambda n: (n.lineno, n.col_offset))
    path: str | None = None
    hunks = []
    for node in nodes:
        if isinstance(node, ast.AugAssign):  # ``s += """..."""``: text appended to the file
            if path is not None and isinstance(node.op, ast.Add) \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                hunks.append(replacement(path, "", node.value.value.strip("\n")))
            continue
        strings = [a.value for a in node.args if isinstance(a, ast.Constant)
                   and isinstance(a.value, str)]
        if _called(node) in ("Path", "open") and node.args and strings \
                and isinstance(node.args[0], ast.Constant):
            path = strings[0]
        elif path is None or not isinstance(node.func, ast.Attribute):
            continue
        elif node.func.attr == "replace" and len(strings) >= 2:
            hunks.append(replacement(path, strings[0], strings[1]))
        elif node.func.attr in ("write_text", "write") and len(strings) == 1:
            hunks.append(replacement(path, "", strings[0]))
    return hunks


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def replacement(path: str, old: str, new: str) -> Hunk:
    """A hunk replacing ``old`` by ``new`` in ``path``, without line numbers. Lines both texts
    begin or end with are the anchor a script replaced around (``s.replace("def plan(",
    "def zone_vwc(...):\n...\ndef plan(")``), not part of the change."""
    removed = old.splitlines()
    added = new.splitlines()
    while removed and added and removed[0] == added[0]:
        removed.pop(0)
        added.pop(0)
    while removed and added and removed[-1] == added[-1]:
        removed.pop()
        added.pop()
    return Hunk(path, 0, len(removed), 0, len(added), tuple(added), tuple(removed), tuple(added),
                tuple(range(len(added))), tuple(removed))
