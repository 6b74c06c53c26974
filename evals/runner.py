"""Run one task: copy its repository, let an agent attempt it, apply, test, grade, report.

``run_task(task, agent="selector", pack=..., run_dir=..., timeout=...) -> TaskResult`` is the
contract the corpus builder certifies tasks with. Steps, each on an isolated working copy:

1. the agent attempts the task from its *view* (``evals.agents.base.AgentInput``: problem,
   relabelled candidates, pack; a copy at ``base_commit`` with no later history if it reads
   one); it never sees the gold, the tests or the oracle. An abstention or an empty patch is
   unresolved without a test run;
2. unless an identical patch of the task was graded already (``GradeCache``), a fresh copy is
   made and the patch applied (SWE-bench's fallbacks);
3. the files the ``test_patch`` modifies are reset to the base commit (as SWE-bench's eval
   script does), and the ``test_patch`` is applied, only now that the agent is done;
4. the repository's test environment is fetched from the cache (built on first use);
5. FAIL_TO_PASS + PASS_TO_PASS run with ``timeout``, killed as a process group when it expires;
6. outcomes are parsed and graded.

Infrastructure errors are reported apart (``status="infra_error"``) with their reason:
``repository unavailable``, ``agent failed``, ``patch did not apply``, ``test patch did not
apply``, ``environment failed``, ``timeout after Ns``, ``suite never ran`` (no per-test outcome
at all in the output). Artifacts go to ``run_dir/<instance_id>/``: ``patch.diff``,
``test_output.txt``, ``report.json`` (SWE-bench's shape) and ``result.json``.

Tasks from ``evals.tasks.load_tasks`` name their repository absolutely; a task built in memory
with a relative ``source.location`` is resolved against the current folder.
"""

from __future__ import annotations

import json
import shlex
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import partial
from hashlib import sha256
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from dreamer.models import MemoryPack
from evals.agents.base import Agent, AgentInput, Attempt, make_agent
from evals.agents.diffs import diff_stats, modified_files
from evals.environment import environment_for
from evals.errors import InfraError
from evals.grading import Grade, grade, parse_test_output, quiet_outcomes, swe_bench_report
from evals.permute import Relabelling, gold_id, relabel
from evals.tasks import Task
from evals.workspace import Workspace
from evals.workspace_pool import WorkspacePool

DEFAULT_TIMEOUT_S = 300.0
Status = Literal["resolved", "unresolved", "infra_error"]


class TaskResult(BaseModel):
    """The outcome of one attempt at one task."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_id: str
    status: Status
    resolved: bool
    reason: str = ""
    """Why: the infrastructure failure, or which tests failed."""
    tests: dict[str, str] = {}
    """Test id -> outcome for every test the output reported."""
    chosen: str | None = None
    """The candidate id the agent chose (None when it wrote its own patch)."""
    patch: str = ""
    agent: str = ""
    apply_method: str | None = None
    pack_tokens: int = 0
    budget: int | None = None
    duration_s: float = 0.0
    test_duration_s: float = 0.0
    cached: bool = False
    """The grade was reused from an identical patch tested earlier in the same suite."""
    abstained: bool = False
    """The agent found no ground to choose (no evidence, or a tie): a miss, not a guess."""
    tied: tuple[str, ...] = ()
    """The task's candidate ids tied at the top when the agent abstained on a tie."""
    gold_chosen: bool | None = None
    """Whether the chosen candidate is the gold one (None when no candidate was chosen)."""
    permutation: int | None = None
    """Which relabelling of the candidate ids the agent saw."""


@dataclass(frozen=True)
class Graded:
    """What testing one patch gave; shared between attempts that produce the same patch."""

    status: Status
    reason: str
    tests: dict[str, str]
    grade: Grade | None
    apply_method: str | None
    output: str
    test_duration_s: float


class GradeCache:
    """Grades by (task, patch): a suite tests a patch once however many budgets choose it."""

    def __init__(self) -> None:
        self._done: dict[tuple[str, str], Graded] = {}
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()

    def get_or_run(self, key: tuple[str, str], run: Callable[[], Graded]
                   ) -> tuple[Graded, bool]:
        """The cached grade for ``key`` (and True), or ``run()``'s, stored (and False).

        When another thread is grading the same key, this one waits for its grade (a suite's
        thread holds no slot meanwhile: ``run`` takes the stage and test slots itself)."""
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key in self._done:
                return self._done[key], True
            graded = run()
            self._done[key] = graded
            return graded, False


def run_task(
    task: Task, agent: str | Agent = "selector", pack: MemoryPack | None = None,
    run_dir: Path | None = None, timeout: float = DEFAULT_TIMEOUT_S, *,
    cache: GradeCache | None = None, keep_workspace: bool = False,
    permutation: int | None = None, seed: int = 0, workspaces: WorkspacePool | None = None,
    artifacts: Callable[[Callable[[], None]], object] | None = None,
    agent_slot: AbstractContextManager[object] | None = None,
    test_slot: AbstractContextManager[object] | None = None,
    stage_slot: AbstractContextManager[object] | None = None,
) -> TaskResult:
    """Attempt ``task`` with ``agent`` and ``pack``, grade it with real tests, write artifacts.

    The agent sees the task view only (``AgentInput``), its candidates relabelled by
    ``permutation`` of run ``seed`` (``evals.permute``). An agent that abstains, or returns an
    empty patch, is unresolved without a test run. Patches are graded once per task (``cache``),
    and a working copy is made before the agent runs only for agents that read one. With
    ``workspaces`` the copies come from that pool (reused, restarted between attempts);
    ``artifacts`` (e.g. an executor's ``submit``) is handed the writing of the artifacts instead
    of writing them here. ``agent_slot`` is held while the agent attempts the task,
    ``stage_slot`` while its patch and the test patch are put on a copy, and ``test_slot``
    while the environment is set up and the tests run (none while a known grade is looked up or
    awaited): a suite bounds each stage apart, so one attempt's agent runs and another's patch
    goes in while a third's tests run.
    """
    started = time.monotonic()
    pack = pack or MemoryPack(query=task.problem_statement, budget=0)
    worker = (make_agent(agent) if isinstance(agent, str) else agent).for_task(task)
    agent_name = agent if isinstance(agent, str) else (worker.name or type(worker).__name__)
    shown = relabel(task, permutation, seed)
    patch, chosen, hit = "", None, False
    attempt: Attempt | None = None
    try:
        with agent_slot or nullcontext():
            attempt = _attempt(task, worker, pack, shown, keep_workspace, workspaces)
        patch, chosen = attempt.patch, shown.back(attempt.chosen)
        if attempt.abstained or not patch.strip():
            why = f"abstained: {attempt.rationale}" if attempt.abstained else "empty patch"
            graded = Graded("unresolved", why, {}, None, None, "", 0.0)
        else:
            key = (task.instance_id, sha256(patch.encode()).hexdigest())

            def fresh() -> Graded:  # only on a cache miss: no copy for a known grade
                with _Handover(stage_slot, test_slot) as turn, \
                        _copy(task, keep_workspace, workspaces) as ws:
                    return _grade_patch(task, ws, patch, timeout, turn.take)

            if cache is None:
                graded = fresh()
            else:
                graded, hit = cache.get_or_run(key, fresh)
    except InfraError as exc:
        graded = Graded("infra_error", exc.reason, {}, None, None, exc.detail, 0.0)
    result = TaskResult(
        instance_id=task.instance_id, status=graded.status, resolved=graded.status == "resolved",
        reason=graded.reason, tests=graded.tests, chosen=chosen, patch=patch, agent=agent_name,
        apply_method=graded.apply_method, pack_tokens=pack.tokens, budget=pack.budget,
        duration_s=time.monotonic() - started, test_duration_s=graded.test_duration_s,
        cached=hit, abstained=bool(attempt and attempt.abstained),
        tied=tuple(t for t in (shown.back(i) for i in (attempt.tied if attempt else ())) if t),
        gold_chosen=None if chosen is None else chosen == gold_id(task),
        permutation=permutation,
    )
    if run_dir is not None:
        write = partial(write_artifacts, Path(run_dir) / task.instance_id, result, graded)
        if artifacts is None:
            write()
        else:
            artifacts(write)
    return result


class _Handover:
    """Holds ``first`` until ``take()`` holds ``second`` instead (then only ``second``).

    A patch is applied under the stage slot and tested under the test slot, so the next
    attempt's copy is made ready while the tests before it run."""

    def __init__(self, first: AbstractContextManager[object] | None,
                 second: AbstractContextManager[object] | None) -> None:
        self._first, self._second = first or nullcontext(), second or nullcontext()
        self._holding = self._first

    def __enter__(self) -> _Handover:
        self._first.__enter__()
        return self

    def take(self) -> None:
        """Wait for the second slot, then give up the first."""
        if self._holding is self._first:
            self._second.__enter__()
            self._first.__exit__(None, None, None)
            self._holding = self._second

    def __exit__(self, *exc: object) -> None:
        self._holding.__exit__(None, None, None)


def _copy(task: Task, keep: bool, workspaces: WorkspacePool | None
          ) -> AbstractContextManager[Workspace]:
    """A working copy of ``task``: from the pool, or made (and deleted) for this use."""
    if workspaces is not None and not keep:
        return workspaces.checkout(task)
    return Workspace.create(task, keep=keep)


def _attempt(task: Task, worker: Agent, pack: MemoryPack, shown: Relabelling,
             keep_workspace: bool, workspaces: WorkspacePool | None = None) -> Attempt:
    """The agent's answer to the task view (with a working copy when it reads one)."""
    def view(workdir: Path | None) -> AgentInput:
        return AgentInput(instance_id=task.instance_id, repo=task.repo,
                          problem_statement=task.problem_statement, candidates=shown.candidates,
                          pack=pack, workdir=workdir)

    try:
        if not worker.reads_workdir:
            return worker.attempt(view(None))
        with _copy(task, keep_workspace, workspaces) as ws:
            return worker.attempt(view(ws.path))
    except InfraError:
        raise
    except Exception as exc:
        raise InfraError("agent failed", f"{type(exc).__name__}: {exc}") from exc


def _grade_patch(task: Task, ws: Workspace, patch: str, timeout: float,
                 turn: Callable[[], None] = lambda: None) -> Graded:
    """Apply ``patch`` and the test patch on ``ws``, then (after ``turn()``, which waits for a
    test slot) set up the environment, run the tests and grade them."""
    from evals.swebench.grade import grade_row, is_swebench_row

    if is_swebench_row(task):  # real SWE-bench rows: its specs, parsers and rules
        return grade_row(task, ws, patch, timeout, turn)
    method: str | None = None
    try:
        if patch.strip():
            try:
                method = ws.apply(patch, "patch", commit=False).method
            except InfraError as exc:
                raise InfraError("patch did not apply", exc.detail) from exc
        apply_test_patch(ws, task.test_patch, patch)
        turn()  # setting up runs under the test slot: building an environment is heavy
        env = environment_for(task, ws.path)
        run = ws.run(test_command(task, env.python), timeout=timeout, env=env.variables())
    except InfraError as exc:
        return Graded("infra_error", exc.reason, {}, None, method, exc.detail, 0.0)
    tests = parse_test_output(run.output) or quiet_outcomes(
        run.output, [*task.FAIL_TO_PASS, *task.PASS_TO_PASS])
    if not tests:
        reason = f"suite never ran (exit {run.exit_code}, no test outcome in the output)"
        return Graded("infra_error", reason, {}, None, method, run.output, run.duration_s)
    verdict = grade(task.FAIL_TO_PASS, task.PASS_TO_PASS, tests)
    failing = [*verdict.fail_to_pass.failure, *verdict.pass_to_pass.failure]
    reason = "all tests pass" if verdict.resolved else f"failing: {', '.join(failing[:5])}"
    status: Status = "resolved" if verdict.resolved else "unresolved"
    return Graded(status, reason, tests, verdict, method, run.output, run.duration_s)


def apply_test_patch(ws: Workspace, test_patch: str, patch: str) -> None:
    """Put ``test_patch`` on ``ws`` after the agent's ``patch`` (nothing for an empty one), as
    SWE-bench's eval script does: the files it modifies first go back to the base commit (its
    ``git checkout <base> <test files>``), so a patch that edited one of them does not keep it
    from applying. Only those the patch touched can differ from the base, so only they are reset
    (no git call for most patches); a test patch unidiff cannot read is not reset (its apply
    says what is wrong). Raises ``InfraError("test patch did not apply")``."""
    from unidiff import UnidiffParseError

    if not test_patch.strip():
        return
    try:
        touched = set(diff_stats(patch).paths)
        ws.reset_files([path for path in modified_files(test_patch) if path in touched])
    except UnidiffParseError:
        pass
    try:
        ws.apply(test_patch, "test_patch", commit=False)
    except InfraError as exc:
        raise InfraError("test patch did not apply", exc.detail) from exc


def test_command(task: Task, python: str) -> list[str]:
    """The argv of the task's test run: its ``test_command`` through bash, or pytest."""
    ids = list(dict.fromkeys([*task.FAIL_TO_PASS, *task.PASS_TO_PASS]))
    if task.test_command:
        command = task.test_command.replace("{python}", shlex.quote(python))
        command = command.replace("{tests}", shlex.join(ids))
        return ["bash", "-c", command]
    return [python, "-m", "pytest", "-rA", "-v", "-p", "no:cacheprovider", *ids]


test_command.__test__ = False  # type: ignore[attr-defined]


def write_artifacts(folder: Path, result: TaskResult, graded: Graded) -> None:
    """``patch.diff``, ``test_output.txt``, ``report.json`` and ``result.json`` of one attempt."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "patch.diff").write_text(result.patch, encoding="utf-8")
    (folder / "test_output.txt").write_text(graded.output, encoding="utf-8")
    extra: dict[str, object] = {
        "status": result.status, "reason": result.reason, "chosen": result.chosen,
        "agent": result.agent, "apply_method": result.apply_method, "budget": result.budget,
        "pack_tokens": result.pack_tokens,
    }
    applied = result.status != "infra_error" or graded.reason not in (
        "patch did not apply", "repository unavailable", "agent failed")
    report = swe_bench_report(result.instance_id, result.patch, applied, graded.grade, extra)
    (folder / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    (folder / "result.json").write_text(result.model_dump_json(indent=2), encoding="utf-8")
