"""Rewritten code: an older memory that states what a later commit changed is superseded.

Extraction follows the lines each memory cites through the repository's later history
(``dreamer.extract.rewrites``): a commit that rewrote their logic tags the memory
``rewritten:<commit>@<time>`` and gives a history memory saying what the commit took out and
brought in. Here, an older memory whose own words state what the commit changed (a name it
took out or brought in) describes the code as it was: it is superseded, naming the commit, by the
newest memory after the commit that names what the commit brought in (the newer sessions'
statement is the current rule), else by the history memory itself. An older memory that names
only what the rewritten lines kept (``SAME_DAY_CUTOFF`` beside a ``<=`` that became ``<``) is
linked to the commit and stays: what it says may still hold. Nothing is deleted.
"""

from __future__ import annotations

from collections import defaultdict

from dreamer.extract.line_history import is_name
from dreamer.extract.rewrites import rewrite_of, rewritten_by
from dreamer.models import CitationKind, Link, Memory
from dreamer.stages.base import BankEditor
from dreamer.stages.subjects import code_names


def straddle(a: Memory, b: Memory) -> bool:
    """Whether a commit rewrote lines one of the two cites between their times: they describe
    the code before and after the change, however alike they read."""
    for older, newer in ((a, b), (b, a)):
        if older.created_at is None or newer.created_at is None:
            continue
        if any(older.created_at < at <= newer.created_at for at in rewritten_by(older).values()):
            return True
    return False


def supersede_rewritten(editor: BankEditor) -> int:
    """Supersede (or link) each active memory a later commit rewrote; returns how many were
    superseded."""
    histories: dict[tuple[str, str], list[Memory]] = defaultdict(list)
    for memory in editor.active():
        if (found := rewrite_of(memory)) is not None:
            histories[(memory.scope.repo, found[0])].append(memory)
    if not histories:
        return 0
    superseded = 0
    dated = sorted((m for m in editor.active() if m.created_at is not None),
                   key=lambda m: (m.created_at, m.id))
    for memory in dated:
        if rewrite_of(memory) is not None or not editor.get(memory.id).is_active:
            continue
        for commit, at in sorted(rewritten_by(memory).items(), key=lambda item: item[1]):
            history = next(iter(histories.get((memory.scope.repo, commit), ())), None)
            if history is None or memory.created_at is None or memory.created_at >= at:
                continue
            full = next((c.ref for c in history.citations if c.kind is CitationKind.COMMIT),
                        commit)
            changed = Link(relation="changed_in", target=f"commit:{full}")
            _, took_out, brought_in, around = rewrite_of(history)  # type: ignore[misc]
            took_out = frozenset(t for t in took_out if is_name(t))
            brought_in = frozenset(t for t in brought_in if is_name(t))
            if not _overlap(code_names(memory), took_out | brought_in):
                # It names only what the rewritten lines kept (``SAME_DAY_CUTOFF`` beside a
                # ``<=`` that became ``<``): what it says may still hold.
                editor.add_links(editor.get(memory.id), [changed])
                continue
            successor = _successor(editor, memory, at, brought_in or around) or history
            editor.supersede(editor.get(memory.id), successor.id, extra_links=(changed,))
            editor.add_links(editor.get(successor.id),
                             [Link(relation="supersedes", target=memory.id)])
            editor.record("superseded", (memory.id,), successor.id,
                          f"commit {full[:12]} rewrote the code it describes (took out "
                          f"{', '.join(sorted(took_out)) or 'nothing'}, brought in "
                          f"{', '.join(sorted(brought_in)) or 'nothing'}); changed in commit "
                          f"{full}")
            superseded += 1
            break
    return superseded


def _successor(editor: BankEditor, memory: Memory, at: object, wanted: frozenset[str]
               ) -> Memory | None:
    """The newest active memory of ``memory``'s repository dated at or after the commit that
    names something in ``wanted`` and is not a history memory."""
    found = [m for m in editor.active()
             if m.id != memory.id and m.scope.repo == memory.scope.repo
             and m.created_at is not None and m.created_at >= at  # type: ignore[operator]
             and rewrite_of(m) is None and _overlap(code_names(m), wanted)]
    return max(found, key=lambda m: (m.created_at, m.id), default=None)


def _overlap(names: frozenset[str], tokens: frozenset[str]) -> bool:
    """Whether ``names`` states one of ``tokens``: the same name, or the same attribute on
    another owner (``Event.starts_at`` and ``event.starts_at``)."""
    if names & tokens:
        return True
    tails = {t.rsplit(".", 1)[-1] for t in tokens if is_name(t) and "=" not in t}
    return any("." in n and n.rsplit(".", 1)[-1] in tails for n in names) or any(
        "." in t and t.rsplit(".", 1)[-1] in names for t in tokens if is_name(t))
