"""Grade one SWE-bench row as SWE-bench grades it, without Docker.

On a working copy at the base commit (``evals.workspace``):

1. an empty patch is unresolved without running anything (SWE-bench's ``patch_exists``);
2. the patch is applied, then the files the test patch modifies are reset to the base commit
   and the test patch is applied, as SWE-bench's eval script does (an apply failure is an
   infrastructure error);
3. the spec (``evals.swebench.specs``) gives the environment, built once and shared read-only
   (``evals.swebench.envs``); the working copy gets its overlay, and the spec's ``pre_install``
   and ``install`` run in it (a failure is ``install failed``);
4. the spec's ``eval_commands`` and the row's test command run between SWE-bench's output
   markers, with the timeout;
5. the output is parsed by the row's ``log_parser`` from ``swebench``'s parsers (by name; the
   repository's parser when the row names none), and graded by ``swebench``'s own
   ``get_eval_tests_report`` and ``get_resolution_status`` (``FULL`` is resolved), with the
   row's ``eval_type``. The parser reproduces the dataset's own ids, truncated ones included.

What keeps the tests from giving a verdict is an infrastructure error with its reason, never a
grade: no spec, no interpreter, a failed build or install, an unknown parser, a test run that
reports no test at all, pytest exiting with an internal, usage or no-tests error, or a test
module that cannot be collected because the environment lacks a module the repository does not
hold. A test module that fails to import the repository's own code is the patch's doing, and is
graded (its tests are missing, so they fail).
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.errors import EnvironmentBuildError, InfraError
from evals.grading import Grade, TestSplit
from evals.swebench.envs import TaskEnv, ensure_env, overlay
from evals.swebench.specs import EnvSpec, env_spec, test_command
from evals.tasks import Task

if TYPE_CHECKING:
    from evals.runner import Graded, Status
    from evals.workspace import Workspace

INSTALL_TIMEOUT_S = 1800.0
_OUTCOME = {"PASSED": "passed", "FAILED": "failed", "ERROR": "error", "SKIPPED": "skipped",
            "XFAIL": "xfailed", "XPASS": "xpassed"}
_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")
_APT_INSTALL = re.compile(r"apt-get install(?: -y| --yes| -q| --no-install-recommends)*\s+(.+)")


def is_swebench_row(task: Task) -> bool:
    """Whether ``task`` is graded SWE-bench's way (rows loaded without a ``source``, or any row
    that says ``harness: swe-bench``)."""
    return (task.model_extra or {}).get("harness") == "swe-bench"


def grade_row(task: Task, ws: Workspace, patch: str, timeout: float,
              turn: Callable[[], None] = lambda: None) -> Graded:
    """Apply, set up, test and grade ``patch`` on ``ws`` (see the module docstring);
    ``turn()`` is called once the patches are in, before the environment is set up (a suite
    waits there for a test slot)."""
    from evals.runner import Graded, apply_test_patch

    if not patch.strip():
        return Graded("unresolved", "empty patch: unresolved without running", {}, None, None,
                      "", 0.0)
    method: str | None = None
    try:
        try:
            method = ws.apply(patch, "patch", commit=False).method
        except InfraError as exc:
            raise InfraError("patch did not apply", exc.detail) from exc
        apply_test_patch(ws, task.test_patch, patch)
        turn()
        spec = env_spec(task, ws.path, git_source(task))
        env = overlay(ensure_env(spec), ws.root / "venv")
        setup_log = _install(spec, env, ws.path)
        command = _script(spec, test_command(task, spec))
        run = ws.run(["bash", "-c", command], timeout=timeout, env=env.variables())
    except InfraError as exc:
        return Graded("infra_error", exc.reason, {}, None, method, exc.detail, 0.0)
    output = setup_log + run.output
    status_map, problem = parse(task, run.output, ws.path, command)
    if problem:
        return Graded("infra_error", problem, {}, None, method, output, run.duration_s)
    verdict, report = judge(task, status_map)
    tests = {k: _OUTCOME.get(v, v.lower()) for k, v in status_map.items()}
    failing = [*verdict.fail_to_pass.failure, *verdict.pass_to_pass.failure]
    reason = "all tests pass" if verdict.resolved else f"failing: {', '.join(failing[:5])}"
    if not verdict.resolved and not failing:
        reason = f"resolution {report}"
    status: Status = "resolved" if verdict.resolved else "unresolved"
    return Graded(status, reason, tests, verdict, method, output, run.duration_s)


def parse(task: Task, output: str, checkout: Path, command: str) -> tuple[dict[str, str], str]:
    """(status map, '') from the row's parser, or ({}, the reason no verdict is possible)."""
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT

    try:
        parser = log_parser(task)
    except InfraError as exc:
        return {}, exc.reason
    section = output
    if START_TEST_OUTPUT in output and END_TEST_OUTPUT in output:
        section = output.split(START_TEST_OUTPUT, 1)[1].split(END_TEST_OUTPUT, 1)[0]
    spec = _test_spec(task)
    status_map = parser(section, spec) or parser(output, spec)
    exit_code = _exit_code(output)
    if "pytest" in command and exit_code in (3, 4, 5) and not _has_tests(status_map):
        return {}, f"tests never ran (pytest exit {exit_code}: internal, usage or no-tests error)"
    if not status_map:
        return {}, f"suite never ran (exit {exit_code}, no test outcome in the output)"
    lacking = _environment_lacks(status_map, section, checkout)
    if lacking:
        return {}, f"environment lacks module {lacking!r} (a test module failed to import it)"
    return status_map, ""


def judge(task: Task, status_map: dict[str, str]) -> tuple[Grade, str]:
    """SWE-bench's report of ``status_map`` against the row's lists, as dreamer's ``Grade``."""
    from swebench.harness.constants import (
        FAIL_ONLY_REPOS,
        FAIL_TO_PASS,
        PASS_TO_PASS,
        EvalType,
        ResolvedStatus,
    )
    from swebench.harness.grading import get_eval_tests_report, get_resolution_status

    named = str(getattr(task, "eval_type", "") or "")
    fail_only = named == EvalType.FAIL_ONLY.value or task.repo in FAIL_ONLY_REPOS
    eval_type = EvalType.FAIL_ONLY if fail_only else EvalType.PASS_AND_FAIL
    gold = {FAIL_TO_PASS: list(task.FAIL_TO_PASS), PASS_TO_PASS: list(task.PASS_TO_PASS)}
    report = get_eval_tests_report(status_map, gold, eval_type=eval_type)
    status = get_resolution_status(report)
    grade = Grade(
        resolved=status == ResolvedStatus.FULL.value,
        fail_to_pass=TestSplit(success=tuple(report[FAIL_TO_PASS]["success"]),
                               failure=tuple(report[FAIL_TO_PASS]["failure"])),
        pass_to_pass=TestSplit(success=tuple(report[PASS_TO_PASS]["success"]),
                               failure=tuple(report[PASS_TO_PASS]["failure"])),
    )
    return grade, status


def log_parser(task: Task) -> Any:
    """The row's ``log_parser`` from ``swebench``'s parsers (or its repository's parser)."""
    from swebench.harness import log_parsers
    from swebench.harness.log_parsers import MAP_REPO_TO_PARSER

    name = str(getattr(task, "log_parser", "") or "")
    if not name:
        if task.repo in MAP_REPO_TO_PARSER:
            return MAP_REPO_TO_PARSER[task.repo]
        raise InfraError("unknown parser", f"no log parser for {task.repo} in swebench")
    for module in vars(log_parsers).values():
        found = getattr(module, name, None)
        if callable(found) and getattr(module, "__name__", "").startswith(log_parsers.__name__):
            return found
    raise InfraError(f"unknown parser {name!r}", "swebench's log parsers have no such name")


def _test_spec(task: Task) -> Any:
    """The ``TestSpec`` parsers are given (they read its ids only)."""
    from swebench.harness.test_spec.test_spec import TestSpec

    return TestSpec(
        instance_id=task.instance_id, repo=task.repo, version=str(task.version),
        repo_script_list=[], eval_script_list=[], env_script_list=[], arch="x86_64",
        FAIL_TO_PASS=list(task.FAIL_TO_PASS), PASS_TO_PASS=list(task.PASS_TO_PASS),
        language="py", docker_specs={}, namespace=None,
    )


def _script(spec: EnvSpec, command: str) -> str:
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT

    return "\n".join([
        "set -uo pipefail", *spec.eval_commands, f"echo {shlex.quote(START_TEST_OUTPUT)}",
        command, "code=$?", f"echo {shlex.quote(END_TEST_OUTPUT)}",
        'echo ">>>>> Test exit code: $code"', "exit $code",
    ])


def _exit_code(output: str) -> int | None:
    hit = re.search(r">>>>> Test exit code: (\d+)", output)
    return int(hit.group(1)) if hit else None


def _has_tests(status_map: dict[str, str]) -> bool:
    return any("::" in k or " " in k for k in status_map)


def _install(spec: EnvSpec, env: TaskEnv, checkout: Path) -> str:
    """Run the spec's ``pre_install`` and ``install`` in the overlay; their output."""
    steps = [_system_step(line) for line in spec.pre_install]
    steps = [s for s in steps if s] + ([spec.install] if spec.install else [])
    log: list[str] = []
    for step in steps:
        result = subprocess.run(["bash", "-c", step], cwd=checkout, env=env.variables(),
                                capture_output=True, text=True, errors="replace", check=False,
                                timeout=INSTALL_TIMEOUT_S)
        log.append(f"$ {step} (exit {result.returncode})\n{result.stdout}{result.stderr}")
        if result.returncode != 0:
            raise InfraError(f"install failed: {step!r} exited {result.returncode}",
                             "\n".join(log)[-4000:])
    return "\n".join(log) + "\n"


def _system_step(line: str) -> str:
    """``line`` to run in the working copy, '' for a satisfied apt-get step, or an infra error
    for a step that would change the machine."""
    if "apt-get" in line:
        wanted = _APT_INSTALL.search(line)
        names = wanted.group(1).split() if wanted else []
        missing = [n for n in names if not _dpkg_has(n)]
        if names and not missing:
            return ""
        raise EnvironmentBuildError(
            "system packages needed",
            f"the spec's pre_install runs {line!r}; install {' '.join(missing or names)} on "
            "the machine (dreamer does not change the system)")
    if "/etc/" in line or line.strip().startswith("locale-gen"):
        raise EnvironmentBuildError("system setup needed", f"the spec's pre_install runs {line!r}")
    return line


def _dpkg_has(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                            text=True, check=False)
    return result.returncode == 0 and "install ok installed" in result.stdout


def _environment_lacks(status_map: dict[str, str], section: str, checkout: Path) -> str:
    """A module a test module could not import that is not the repository's own, if the tests
    could not be collected because of it."""
    if not any(v == "ERROR" and "::" not in k for k, v in status_map.items()):
        return ""
    for hit in _MISSING_MODULE.finditer(section):
        top = hit.group(1).split(".")[0]
        own = [checkout / top, checkout / f"{top}.py", checkout / "src" / top]
        if not any(p.exists() for p in own):
            return hit.group(1)
    return ""


def git_source(task: Task) -> Path | None:
    """The row's git mirror (where ``environment_setup_commit`` may be read), if it has one."""
    location = Path(task.source.location) if task.source.location else None
    if task.source.kind == "git" and location is not None and location.exists():
        return location
    return None
