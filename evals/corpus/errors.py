"""The corpus builder's error family."""

from __future__ import annotations

from dreamer.errors import DreamerError


class CorpusError(DreamerError):
    """The corpus could not be built, validated or read; the message says where and why."""


class CorpusValidationError(CorpusError):
    """A task does not behave as designed (its gold fails, a decoy passes, a bug is not caught)."""


class LeakError(CorpusError):
    """A memory pack carries what it must not: later evidence or the task's own fix."""
