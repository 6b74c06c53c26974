"""specialization: narrow a rule that holds only in one module or on one branch.

The evidence decides: a memory whose cited files all lie under one directory is scoped to that
module; one whose sessions all ran on one non-default branch is scoped to that branch. With an
LM, ``Narrow`` proposes the module, and a proposal that does not cover every cited file is
refused (a scope must never hide a memory from where its evidence is).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from dreamer.models import Bank, CitationKind, Memory
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

if TYPE_CHECKING:
    from dreamer.stages.judges import Judge


@stage("specialization")
class Specialization(Stage):
    """Narrows the scope of memories whose evidence all comes from one module or branch."""

    class Config(StageConfig):
        min_files: int = 2
        """Distinct cited files needed before a memory is narrowed to their module."""
        default_branches: tuple[str, ...] = ("main", "master", "trunk", "develop")
        """Branches that say nothing about where a rule holds."""
        narrow_branch: bool = True
        """Also narrow to a branch when every cited session ran on the same one."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        narrowed = {"module": 0, "branch": 0}
        for memory in editor.active():
            changes: dict[str, str] = {}
            reasons: list[str] = []
            module = self._module(memory, judge)
            if module is not None and memory.scope.module is None:
                changes["module"] = module
                reasons.append(f"every cited file lies under {module}")
            branch = self._branch(memory, context)
            if branch is not None and memory.scope.branch is None:
                changes["branch"] = branch
                reasons.append(f"every cited session ran on branch {branch}")
            if not changes:
                continue
            for key in changes:
                narrowed[key] += 1
            editor.derive([memory], summary=memory.summary,
                          scope=memory.scope.model_copy(update=changes),
                          action="changed", reason="; ".join(reasons))
        return editor.result(narrowed_module=narrowed["module"], narrowed_branch=narrowed["branch"],
                             lm_failures=judge.failures if judge else 0)

    def _module(self, memory: Memory, judge: Judge | None) -> str | None:
        paths = sorted({c.path for c in memory.citations if c.kind is CitationKind.FILE and c.path})
        if len(paths) < self.config.min_files:
            return None
        offline = _common_dir(paths)
        if judge is None:
            return offline
        proposed = judge.narrow(memory_text(memory), paths)
        if proposed is None:
            return offline
        proposed = proposed.strip().strip("/")
        if proposed.lower() in {"", "any", "none"}:
            return None
        covers = all(p == proposed or p.startswith(proposed + "/") for p in paths)
        return proposed if covers else offline

    def _branch(self, memory: Memory, context: StageContext) -> str | None:
        if not self.config.narrow_branch or not context.sessions:
            return None
        ids = {c.ref.split(":", 1)[0] for c in memory.citations if c.kind is CitationKind.SESSION}
        if not ids or not ids <= context.sessions.keys():
            return None  # a session we cannot see might have run elsewhere
        branches = {context.sessions[i].branch for i in ids}
        if len(branches) != 1:
            return None
        branch = branches.pop()
        return branch if branch and branch not in self.config.default_branches else None


def _common_dir(paths: list[str]) -> str | None:
    """The deepest directory holding every path, or None at the repository root."""
    common = posixpath.commonpath([posixpath.dirname(p) or "." for p in paths])
    return None if common in {"", "."} else common
