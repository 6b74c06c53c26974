"""What the builder builds from: repositories, families of tasks and their variants, chores.

A *family* is one hidden fact and the tasks that need it. Each *variant* is one task of the
family: the code that introduces the problem (its *site*), the gold fix, the decoys an agent
without the fact would write, and the hidden tests that tell them apart. Variants render
against the repository's files at their point in time, so that a fix for a shared file (a
settings module, a library source) is always a patch against the real base.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from evals.corpus.gitrepo import FileChanges

EvidenceKind = Literal["test", "review", "defect"]
MemoryKind = Literal["domain", "failure", "procedural"]


@dataclass(frozen=True)
class Decoy:
    """A plausible wrong fix, failing a hidden-behaviour test."""

    description: str
    changes: FileChanges
    forms: tuple[FileChanges, ...] = ()
    """Other writings of the same fix, of other code sizes (``evals.corpus.sizes``)."""

    @property
    def writings(self) -> tuple[FileChanges, ...]:
        return (self.changes, *self.forms)


@dataclass(frozen=True)
class Rendered:
    """A variant made concrete against the repository's files at its time."""

    site: FileChanges
    """Files the problem-introducing commit writes (a feature with the bug, or an injected bug)."""
    gold: FileChanges
    gold_description: str
    decoys: tuple[Decoy, ...]
    hidden_tests: FileChanges
    """The test patch's files: tests of the hidden behaviour."""
    test_files: tuple[str, ...]
    """Test files the task's tests are selected from (hidden ones included)."""
    edit_path: str
    """The file the fix edits (what a session opens)."""
    explore: tuple[str, ...] | None = None
    """Files a session reads beside ``edit_path``; None: the family's ``explore``."""
    fix_command: tuple[str, str] | None = None
    """A command the fixing session runs, and its output, when the fix is generated (a
    ``make`` target refreshing a generated file) rather than typed."""
    gold_forms: tuple[FileChanges, ...] = ()
    """Other writings of the gold, of other code sizes, that an evaluation task may carry
    instead (``evals.corpus.sizes``); history tasks merge ``gold``."""


@dataclass(frozen=True)
class Variant:
    """One task of a family."""

    key: str
    title: str
    problem: str
    """The task's problem statement: realistic and vague about the hidden fact."""
    site_message: str
    """Commit message of the commit that introduces the site."""
    render: Callable[[Mapping[str, str]], Rendered]
    hint: str = ""


@dataclass(frozen=True)
class Fact:
    """One oracle memory of a family. Most families have one; a rule that holds differently in
    two modules has one per module (each scoped to it), and a fact learned in two pieces from
    different sessions has one per piece."""

    summary: str
    type: MemoryKind
    module: str | None = None
    """The module the memory is scoped to (a path prefix); None: the whole repository."""
    conditions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    """Keys of the history variants whose sessions evidence it; empty: all of them."""


@dataclass(frozen=True)
class Family:
    """One hidden fact and its tasks, in time order."""

    id: str
    repo: str
    fact: str
    """The hidden fact in plain words (documentation; never shown to agents)."""
    memory: str
    """The oracle memory's summary: the fact as a memory, naming the right symbols."""
    memory_type: MemoryKind
    conditions: tuple[str, ...]
    module: str | None
    lessons: tuple[str, ...]
    """The same lesson in different words (agents' closing notes: the ``duplicate`` noise)."""
    review: Callable[[Variant, Rendered], str]
    """A reviewer's comment on the naive fix (``review`` evidence)."""
    defect: Callable[[Variant, Rendered], str]
    """A QA defect report against the naive fix (``defect`` evidence)."""
    variants: tuple[Variant, ...]
    history: int = 3
    """How many of the earliest variants are past work with recorded sessions."""
    side_branch: bool = False
    """Sites live on their own branch off main (injected bugs), not on main."""
    evidence: tuple[EvidenceKind, ...] = ("test", "review", "defect")
    explore: tuple[str, ...] = ()
    """Files an agent reads while working on the family's tasks (beside the edited file)."""
    identifiers: tuple[str, ...] = ()
    """The names a memory must carry to convey the fact (functions, constants, files, keys);
    no candidate description may name them."""
    facts: tuple[Fact, ...] = ()
    """The oracle memories when there are several (see ``Fact``); empty: one, made of
    ``memory``, ``memory_type``, ``module`` and ``conditions``."""

    @property
    def oracle_facts(self) -> tuple[Fact, ...]:
        """The family's oracle memories, as facts."""
        return self.facts or (Fact(self.memory, self.memory_type, self.module, self.conditions),)


@dataclass(frozen=True)
class Chore:
    """Background work in a repository: a commit (or none) and a session about it."""

    title: str
    message: str
    changes: Callable[[Mapping[str, str]], FileChanges]
    """The chore's edit against the current files; empty for a session without a commit."""
    explore: tuple[str, ...] = ()
    """Files the session opens."""
    tag: str = ""
    """A special role: ``rule_old``, ``rule_change``, ``rule_new``, ``move``, ``moved_cite``."""


@dataclass(frozen=True)
class RepoPlan:
    """A repository of the corpus: how to create it, its people, its families and chores."""

    name: str
    """``owner/name`` as tasks name it."""
    kind: Literal["service", "third-party"]
    scaffold: Callable[[], FileChanges]
    authors: tuple[str, ...]
    reviewers: tuple[str, ...]
    families: tuple[Family, ...]
    chores: tuple[Chore, ...]
    test_command: str | None = None
    start: str = "2024-02-05"
    license: str = "proprietary test fixture, written for this corpus (Apache-2.0)"
    origin: str = "written by the dreamer project"
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        """``owner__name``: the prefix of instance ids and trajectory file names."""
        return self.name.replace("/", "__")
