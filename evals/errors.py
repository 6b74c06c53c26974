"""The replay harness's error family. Each message says what was wrong, where, and what to do.

Errors that stop one task from being graded fairly (a patch that does not apply, an environment
that cannot be built, a test run that times out) are *infrastructure* errors: the runner turns
them into ``TaskResult(status="infra_error")`` rather than counting the task as unresolved.
"""

from __future__ import annotations

from dreamer.errors import DreamerError


class EvalError(DreamerError):
    """Base of every error the replay harness raises on purpose."""


class TaskLoadError(EvalError):
    """A suite or task file could not be found or parsed."""


class InfraError(EvalError):
    """The harness could not grade a task fairly; ``reason`` is the short cause for reports."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


class WorkspaceError(InfraError):
    """The task's repository could not be copied or checked out at its base commit."""


class PatchApplyError(InfraError):
    """A patch applied with none of the fallbacks (git apply, --3way, --reject, patch)."""


class EnvironmentBuildError(InfraError):
    """A repository's test environment could not be built (the pip output is the detail)."""


class TestTimeoutError(InfraError):
    """The test run outlived its timeout; its whole process group was killed."""

    __test__ = False


class AgentError(EvalError):
    """An agent was misconfigured or failed to produce a patch."""
