"""The promotion gate: does a candidate bank deserve to replace production?

Five checks, all required: the candidate beats production on held-out tasks by an exact paired
test (one-sided sign test over tasks, McNemar's when each task has one outcome: of the tasks
where the two differ, the candidate must win significantly more); its **lift over placebo** is
positive and significant at the same ``alpha`` (memory must help beyond what any pack of the same
size does: the suite's stronger placebo arm); it loses at most ``max_regression`` of the tasks
production solves; its active memories fit ``max_active_tokens``; and it passes the leak and
scope checks. Outcomes per task are shares of the relabellings that resolved it (the suite runs
each task under K relabellings of its candidate ids). The decision lists every check with its
figures, so a rejection always says why.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from dreamer.configs import load_config
from evals.metrics import Lift


class GateConfig(BaseModel):
    """A gate, as read from ``configs/gates/<name>.yaml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "default"
    """The gate's name, recorded with each decision."""
    description: str = ""
    """What the gate demands, in words."""
    budget: int | None = 1024
    """The memory budget (tokens) at which candidate and production are compared."""
    alpha: float = Field(0.05, gt=0.0, le=1.0)
    """Significance of the one-sided exact McNemar test; 1.0 turns the test off."""
    allow_ties: bool = False
    """Pass the comparison when neither bank wins a task the other loses (only with alpha 1)."""
    max_regression: float = Field(0.0, ge=0.0, le=1.0)
    """Fraction of the tasks production solves that the candidate may lose."""
    max_active_tokens: int | None = 4096
    """Upper bound on the candidate's active memory tokens; None for no bound."""
    require_leak_check: bool = True
    """Fail when the leak check found a memory from the future or carrying a task's fix."""
    require_scope_check: bool = True
    """Fail when the candidate holds memories scoped to another repository."""
    require_lift: bool = True
    """Fail unless the candidate's lift over placebo is positive and significant at ``alpha``."""


def load_gate(ref: str | Path = "default") -> GateConfig:
    return load_config("gates", ref, GateConfig)


class GateEvidence(BaseModel):
    """What the gate decides on: paired outcomes on the same held-out tasks, and the checks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    candidate: dict[str, float]
    """Task id -> share of relabellings resolved, for the candidate bank."""
    production: dict[str, float]
    """Task id -> share resolved, for the production bank (or no memory when there is none)."""
    candidate_active_tokens: int
    lift: Lift | None = None
    """The candidate's lift over the stronger placebo at the gate's budget (None: no placebo
    could be run)."""
    controls: dict[str, float] = Field(default_factory=dict)
    """The controls' success beside it (no memory, smallest, largest, random, oracle)."""
    leak_violations: tuple[str, ...] = ()
    scope_violations: tuple[str, ...] = ()


class GateCheck(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    passed: bool
    detail: str


class GateDecision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    gate: str
    passed: bool
    checks: tuple[GateCheck, ...]
    wins: int
    """Tasks the candidate solves and production does not."""
    losses: int
    """Tasks production solves and the candidate does not."""
    p_value: float

    @property
    def reasons(self) -> list[str]:
        """Why the gate failed (empty when it passed)."""
        return [f"{c.name}: {c.detail}" for c in self.checks if not c.passed]


def decide(config: GateConfig, evidence: GateEvidence) -> GateDecision:
    """Run every check of ``config`` on ``evidence``."""
    from evals.exact import sign_test_greater

    tasks = sorted(evidence.candidate.keys() & evidence.production.keys())
    missing = sorted(evidence.candidate.keys() ^ evidence.production.keys())
    wins = sum(evidence.candidate[t] > evidence.production[t] for t in tasks)
    losses = sum(evidence.production[t] > evidence.candidate[t] for t in tasks)
    discordant = wins + losses
    p_value = sign_test_greater(wins, discordant)
    checks: list[GateCheck] = []

    if not tasks:
        checks.append(GateCheck(name="paired test", passed=False,
                                detail="no held-out task was run for both banks"))
    elif missing:
        checks.append(GateCheck(name="paired test", passed=False,
                                detail=f"{len(missing)} tasks ran for one bank only: "
                                       f"{missing[:5]}"))
    else:
        beats = wins > losses and p_value <= config.alpha
        tie_ok = config.allow_ties and config.alpha >= 1.0 and wins >= losses
        checks.append(GateCheck(
            name="paired test", passed=beats or tie_ok,
            detail=f"{wins} wins, {losses} losses on {len(tasks)} tasks; exact one-sided sign "
                   f"test p = {p_value:.4g} (alpha {config.alpha})",
        ))

    if config.require_lift:
        checks.append(_lift_check(evidence.lift, config.alpha))
    solved_by_production = sum(evidence.production[t] > 0 for t in tasks)
    allowed = int(config.max_regression * solved_by_production)
    checks.append(GateCheck(
        name="regressions", passed=losses <= allowed,
        detail=f"loses {losses} of the {solved_by_production} tasks production solves "
               f"(at most {allowed} allowed)",
    ))
    limit = config.max_active_tokens
    checks.append(GateCheck(
        name="token budget", passed=limit is None or evidence.candidate_active_tokens <= limit,
        detail=f"{evidence.candidate_active_tokens} active tokens (limit {limit})",
    ))
    if config.require_leak_check:
        checks.append(GateCheck(
            name="leak check", passed=not evidence.leak_violations,
            detail="no leak" if not evidence.leak_violations
            else f"{len(evidence.leak_violations)} leaks: {list(evidence.leak_violations[:3])}",
        ))
    if config.require_scope_check:
        checks.append(GateCheck(
            name="scope check", passed=not evidence.scope_violations,
            detail="every memory in scope" if not evidence.scope_violations
            else f"{len(evidence.scope_violations)} out of scope: "
                 f"{list(evidence.scope_violations[:3])}",
        ))
    return GateDecision(
        gate=config.name, passed=all(c.passed for c in checks), checks=tuple(checks),
        wins=wins, losses=losses, p_value=p_value,
    )


def _lift_check(lift: Lift | None, alpha: float) -> GateCheck:
    if lift is None:
        return GateCheck(name="lift over placebo", passed=False,
                         detail="no placebo arm could be run (no other family's task and no "
                                "other repository's memory to draw one from)")
    return GateCheck(
        name="lift over placebo", passed=lift.significant(alpha),
        detail=f"lift {lift.lift:+.3f} over {lift.against} (95% CI {lift.low:+.3f} to "
               f"{lift.high:+.3f}); {lift.wins} wins, {lift.losses} losses on {lift.tasks} tasks; "
               f"one-sided sign test p = {lift.p_value:.4g} (alpha {alpha})",
    )
