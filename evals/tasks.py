"""Task instances: SWE-bench's fields plus dreamer's own.

Loaders for SWE-bench's own formats (parquet, JSON, JSONL, Hugging Face datasets) live beside
this model; every part of the harness and the corpus speaks ``Task``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class RepoSource(BaseModel):
    """Where a task's repository comes from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = "git"
    """``git`` (a local repository path or URL), ``bundle`` (a git bundle file), ``archive`` (a
    source archive, unpacked and committed as the base state), or ``swe-bench`` (not available
    offline: the task loads but cannot run here)."""
    location: str = ""
    """Path or URL; relative paths are resolved against the suite file's folder."""


class Candidate(BaseModel):
    """A plausible patch recorded in an earlier session; the gold patch is one of them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    patch: str
    description: str = ""
    """What the patch does, in the words of the session that produced it."""


class Task(BaseModel):
    """One replay task instance."""

    model_config = ConfigDict(frozen=True, extra="allow")

    # SWE-bench's fields.
    instance_id: str
    repo: str
    base_commit: str
    patch: str = ""
    """The gold patch."""
    test_patch: str = ""
    problem_statement: str = ""
    hints_text: str = ""
    FAIL_TO_PASS: tuple[str, ...] = ()
    PASS_TO_PASS: tuple[str, ...] = ()
    created_at: datetime | None = None
    version: str | None = None
    environment_setup_commit: str | None = None

    # dreamer's own.
    source: RepoSource = Field(default_factory=RepoSource)
    family: str | None = None
    """The hidden fact this task needs (a corpus family), or None."""
    position: int | None = None
    """Order in time within the family/repository."""
    candidates: tuple[Candidate, ...] = ()
    test_command: str | None = None
    """How the tests run, with ``{tests}`` for the test ids; default: pytest."""
    certified: bool | None = None
    """Whether memory decides this task (corpus certification); None when not checked."""

    @field_validator("FAIL_TO_PASS", "PASS_TO_PASS", mode="before")
    @classmethod
    def _decode_test_list(cls, value: Any) -> Any:
        # SWE-bench stores these lists as JSON strings.
        if isinstance(value, str):
            value = json.loads(value) if value.strip() else []
        if value is None:
            return ()
        return tuple(value)
