"""forgetting: lower the priority of memories unused or invalid for long, and make dormant the
ones that should not reach an agent: generic advice, stale citations, harmful or injected text,
routine episodes, long-idle memories whose priority decayed away. Nothing is deleted; the
evidence remains.

A *routine* episode is a session retold ("changed X, tests passed") with no correctness signal:
no review or defect cited, no failure in its text, and no failure, domain or procedural memory
learnt from its sessions. Nothing in it says what to do or avoid, so it only costs tokens;
unless it is a lesson's counterpart: it names a member (``ReportRow.duration``) that a lesson
names on another owner (``TimeEntry.duration`` failed a test): the same name that holds one way
in one place and another way elsewhere needs both sides kept.

Time is the bank's own: "now" is its newest evidence, never the wall clock, so the same bank
always forgets the same way.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from dreamer.models import Bank, Memory, MemoryStatus, MemoryType
from dreamer.stages.base import (
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
    make_judge,
    memory_text,
    routine,
    stage,
    taught_sessions,
)
from dreamer.stages.subjects import code_names
from dreamer.stages.text import anchors, is_generic

if TYPE_CHECKING:
    from dreamer.stages.judges import Judge



@stage("forgetting")
class Forgetting(Stage):
    """Makes memories dormant by rule (or, for genericness, by LM judgement), with the reason."""

    class Config(StageConfig):
        generic: bool = True
        """Make generic advice dormant ("test your changes carefully")."""
        stale: bool = True
        """Make dormant memories whose cited lines were found changed (verification ``stale``)."""
        injected: bool = True
        """Make dormant memories tagged ``injection`` (their text addressed the memory writer)."""
        harmful_after: int = 3
        """Retrievals after which a memory that hurt more than it helped goes dormant."""
        idle_days: float = 180.0
        """Age, against the bank's newest evidence, after which a never-helpful memory decays."""
        decay: float = 0.5
        """Factor applied to an idle memory's confidence (its retrieval priority)."""
        dormant_below: float = 0.2
        """Confidence under which a decayed memory goes dormant."""
        lm_max_anchors: int = 1
        """With an LM, memories naming at most this many anchors are judged for genericness."""
        routine: bool = True
        """Make dormant episodes with no correctness signal (no failure, review or defect)."""

    config: Config

    def run(self, bank: Bank, context: StageContext) -> StageResult:
        editor = BankEditor(bank, self.name)
        judge = make_judge(context)
        members = editor.active()
        times = [m.created_at for m in members if m.created_at is not None]
        now = context.now if context.now is not None else max(times) if times else None
        # Sessions a lesson was learnt from, whatever became of that lesson since.
        taught = taught_sessions(bank)
        reasons: dict[str, int] = {}
        decayed = 0
        contrasted = _members_of_lessons(members)
        for memory in members:
            why = self._why_dormant(memory, judge)
            if why is None and self.config.routine and not _contrasts(memory, contrasted):
                why = routine(memory, taught)
            if why is None and now is not None:
                why, lowered = self._decay(editor, memory, now)
                decayed += lowered
            if why is None:
                continue
            editor.update(editor.get(memory.id), status=MemoryStatus.DORMANT)
            editor.record("dormant", (memory.id,), memory.id, why)
            key = why.split(":", 1)[0]
            reasons[key] = reasons.get(key, 0) + 1
        return editor.result(**{f"dormant_{k}": v for k, v in sorted(reasons.items())},
                             decayed=decayed, lm_failures=judge.failures if judge else 0)

    def _why_dormant(self, memory: Memory, judge: Judge | None) -> str | None:
        text = memory_text(memory)
        if self.config.injected and "injection" in memory.tags:
            return "injection: its text addressed the memory writer"
        verified = memory.last_verified
        if self.config.stale and verified is not None and verified.state == "stale":
            return f"stale: cited lines changed (checked at {verified.commit or 'unknown commit'})"
        usage = memory.usage
        if usage.retrieved >= self.config.harmful_after and usage.hurt > usage.helped:
            return f"harmful: hurt {usage.hurt} times, helped {usage.helped}, in {usage.retrieved}"
        if not self.config.generic:
            return None
        if judge is not None and len(anchors(text)) <= self.config.lm_max_anchors:
            verdict = judge.generic(text)
            if verdict is not None:
                return "generic: the LM judged it advice with nothing specific" if verdict else None
        if is_generic(text):
            return "generic: advice with nothing specific to the repository"
        return None

    def _decay(self, editor: BankEditor, memory: Memory, now: datetime) -> tuple[str | None, bool]:
        """Lower an idle, never-helpful memory's priority; dormant once it falls too low.
        Returns (why dormant or None, whether its priority was lowered)."""
        if memory.created_at is None or memory.usage.helped > 0:
            return None, False
        idle = (now - memory.created_at).total_seconds() / 86400
        if idle <= self.config.idle_days:
            return None, False
        confidence = round(memory.confidence * self.config.decay, 4)
        editor.update(memory, confidence=confidence)
        if confidence < self.config.dormant_below:
            return f"idle: {idle:.0f} days without helping; priority fell to {confidence}", True
        return None, True


def _members(memory: Memory) -> list[tuple[str, str]]:
    """(owner, member) of each ``owner.member`` name ``memory`` states."""
    return [(owner, member) for name in code_names(memory) if "=" not in name
            for owner, _, member in [name.rpartition(".")] if owner and member]


def _members_of_lessons(members: list[Memory]) -> dict[str, set[str]]:
    """Member name -> owners, over the ``owner.member`` names lessons (not episodes) state."""
    found: dict[str, set[str]] = {}
    for memory in members:
        if memory.type is not MemoryType.EPISODIC:
            for owner, member in _members(memory):
                found.setdefault(member, set()).add(owner)
    return found


def _contrasts(memory: Memory, lessons: dict[str, set[str]]) -> bool:
    """Whether episode ``memory`` names a member some lesson names on another owner."""
    return any(lessons.get(member, set()) - {owner} for owner, member in _members(memory))
