"""promotion: procedural memories confirmed repeatedly become skill candidates.

A candidate is a reviewable checklist in Markdown under ``<home>/skills/<repo>/<name>.md``, never
a silent rule: the memory stays what it was, tagged ``skill-candidate`` and linked to the file by
its path relative to the home, so the bank's id does not depend on where the home is.
"""

from __future__ import annotations

import re
from pathlib import Path

from dreamer import settings
from dreamer.models import Bank, CitationKind, Link, Memory
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    make_judge,
    memory_text,
    stage,
)
from dreamer.stages.text import sentences

SKILL_TAG = "skill-candidate"
_STEP_SPLIT = re.compile(r",?\s+(?:and )?then\s+|;\s+", re.IGNORECASE)


@stage("promotion")
class Promotion(Stage):
    """Writes a checklist for each procedural memory confirmed by enough sessions."""

    class Config(StageConfig):
        types: tuple[str, ...] = ("procedural",)
        """Memory types that can become skills."""
        min_confirmations: int = 3
        """Distinct cited sessions plus times it helped, needed for a skill candidate."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        root = context.skills_dir or settings.home() / "skills"
        written = 0
        for memory in editor.active(self.config.types):
            confirmations = _confirmations(memory)
            if confirmations < self.config.min_confirmations or SKILL_TAG in memory.tags:
                continue
            steps = (judge.checklist(memory_text(memory)) if judge else None) or _steps(memory)
            relative = Path("skills") / _slug(memory.scope.repo) / f"{_name(memory)}.md"
            target = root / relative.relative_to("skills")
            text = _checklist(memory, steps, confirmations)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
            updated = editor.update(memory, tags=tuple(sorted({*memory.tags, SKILL_TAG})))
            editor.add_links(updated, [Link(relation="skill", target=relative.as_posix())])
            editor.record("changed", (memory.id,), memory.id,
                          f"confirmed {confirmations} times: skill candidate {relative.as_posix()}")
            written += 1
        return editor.result(skill_candidates=written, lm_failures=judge.failures if judge else 0)


def _confirmations(memory: Memory) -> int:
    sessions = {c.ref.split(":", 1)[0] for c in memory.citations if c.kind is CitationKind.SESSION}
    return len(sessions) + memory.usage.helped


def _steps(memory: Memory) -> list[str]:
    """Offline steps: the procedure's sentences, split again at "then" and semicolons."""
    return [part.strip().rstrip(".") for s in sentences(memory.summary)
            for part in _STEP_SPLIT.split(s) if part.strip()]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "repo"


def _name(memory: Memory) -> str:
    words = _slug(memory.summary).split("-")[:6]
    return f"{'-'.join(words)}-{memory.id.removeprefix('mem_')[:8]}"


def _checklist(memory: Memory, steps: list[str], confirmations: int) -> str:
    scope = memory.scope
    where = ", ".join(f"{k}={v}" for k, v in (("branch", scope.branch), ("module", scope.module),
                                                ("phase", scope.phase)) if v) or "whole repository"
    lines = [
        f"# Skill candidate: {sentences(memory.summary)[0] if memory.summary else memory.id}",
        "",
        "Status: **candidate**, not a rule. Review it, then adopt, edit or reject it.",
        "",
        f"- Repository: `{scope.repo}` ({where})",
        f"- Source memory: `{memory.id}`",
        f"- Confirmed: {confirmations} times",
        "",
    ]
    if memory.conditions:
        lines += ["## When", "", *(f"- {c}" for c in memory.conditions), ""]
    lines += ["## Steps", "", *(f"- [ ] {s}" for s in steps), "", "## Evidence", ""]
    for c in memory.citations:
        span = f":{c.start_line}-{c.end_line}" if c.start_line else ""
        at = f" @ {c.commit}" if c.commit else ""
        lines.append(f"- {c.kind.value}: `{c.path or c.ref}{span}`{at}")
    return "\n".join(lines) + "\n"
