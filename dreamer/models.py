"""The one data model every part of dreamer speaks.

Identifiers are content hashes: the same content gives the same id on every run and machine.
Hashing uses canonical JSON (sorted keys, no whitespace, UTF-8) so that field order and
platform never change an id.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator


def canonical_json(value: Any) -> str:
    """Serialise ``value`` the same way everywhere: the input of every content hash."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def content_hash(value: Any, prefix: str = "", length: int = 24) -> str:
    """A short, stable sha256 of ``value``'s canonical JSON, with an optional type prefix."""
    text = value if isinstance(value, str) else canonical_json(value)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]
    return f"{prefix}{digest}"


def sha256_bytes(data: bytes) -> str:
    """The full hex sha256 of raw bytes: the address of a file in the evidence store."""
    return hashlib.sha256(data).hexdigest()


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _ContentAddressed(_Frozen):
    """A model whose ``id`` is computed from its content.

    Its JSON carries the id, so reading that JSON back must accept it: the given id is checked
    against the content, and a mismatch (tampered or corrupted data) is an error.
    """

    @model_validator(mode="wrap")
    @classmethod
    def _check_given_id(cls, data: Any, handler: Any) -> Any:
        given = None
        if isinstance(data, dict) and "id" in data:
            data = dict(data)  # never change the caller's dict
            given = data.pop("id")
        model = handler(data)
        if given is not None and given != model.id:
            raise ValueError(f"id {given!r} does not match the content, whose id is {model.id!r}")
        return model

    _CACHED: ClassVar[Mapping[str, frozenset[str] | None]] = {}
    """The hashes a subclass caches in the instance's ``__dict__`` (``id`` as a
    ``cached_property``), each with the fields it hashes (None: all of them): computed once per
    frozen model, dropped from a copy that changes one of those fields (``model_copy`` would
    otherwise carry them over to content they do not hash) and kept by one that does not (a
    dream changes the status and links of most memories, never their id)."""

    def keep_hashes(self, **hashes: str) -> None:
        """Cache hashes of this very content computed by another process (a dream's shard
        worker, from its forked copy), so they are not computed again here."""
        for name, value in hashes.items():
            if name not in self._CACHED:
                raise ValueError(f"{type(self).__name__} caches no hash named {name!r}")
            self.__dict__.setdefault(name, value)

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        if update:
            for name, fields in self._CACHED.items():
                if fields is None or not fields.isdisjoint(update):
                    copied.__dict__.pop(name, None)
        return copied


# --------------------------------------------------------------------------- evidence


class EventKind(StrEnum):
    """What an event of a session records."""

    MESSAGE = "message"
    COMMAND = "command"
    OBSERVATION = "observation"
    EDIT = "edit"
    TEST_RESULT = "test_result"
    REVIEW = "review"
    QA_DEFECT = "qa_defect"
    SUBMISSION = "submission"


class TestOutcome(_Frozen):
    """One test's outcome as parsed from a test run's output."""

    __test__ = False  # not a pytest class

    test_id: str
    """The test's id as the runner prints it (pytest node id, or unittest's
    ``name (module.Class)``)."""
    outcome: Literal["passed", "failed", "error", "skipped", "xfailed", "xpassed"]


class Event(_ContentAddressed):
    """One step of a session: a message, a command and its output, an edit, a test run, ..."""

    session_id: str
    seq: int
    """Position in the session, from 0."""
    kind: EventKind
    role: str | None = None
    """Who produced it: ``user``, ``assistant``, ``system``, ``tool``, ``environment``."""
    text: str = ""
    """The event's text verbatim (the command line, the output, the message)."""
    timestamp: datetime | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    """Structured facts, by kind (every key optional, none other than these invented ad hoc):

    - ``command``: ``command`` (the shell line), ``tool`` (the agent tool's name, when not bash);
    - ``observation``: ``exit_code`` (int), ``cause`` (seq of the command it answers),
      ``is_error`` (bool: the tool reported a failure, e.g. a tool call the user rejected);
    - ``test_result``: ``command``, ``exit_code``, ``runner`` (``pytest``/``unittest``),
      ``tests`` (list of TestOutcome dicts), ``summary`` (``{"passed": n, "failed": n, ...}``),
      ``cause``;
    - ``edit``: ``paths`` (list of repository-relative paths), ``diff`` (unified diff, when known),
      ``tool``;
    - ``submission``: ``diff`` (the final patch), ``paths``;
    - ``review`` / ``qa_defect``: ``author``, ``ref`` (the review or defect id), ``paths``,
      ``line`` (int: the line of ``paths[0]`` the comment or report names, ``orders.py:42``);
    - ``message``: ``thought`` for an agent's reasoning when the format separates it.
    """

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> str:
        return f"{self.session_id}:{self.seq}"


class Session(_Frozen):
    """One agent session normalised from a trajectory file."""

    id: str
    """``ses_`` + hash of the raw file's sha256 and the session's ordinal in that file."""
    source_format: str
    raw_sha256: str
    """The address of the verbatim file in the evidence store."""
    ordinal: int = 0
    """Position of this session within its file (a file may wrap many sessions)."""
    source_path: str | None = None
    repo: str | None = None
    branch: str | None = None
    commit_start: str | None = None
    commit_end: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    task_id: str | None = None
    outcome: str | None = None
    """``submitted``, ``resolved``, ``failed``, an agent's exit status, or None when unknown."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    events: tuple[Event, ...] = ()

    @staticmethod
    def make_id(raw_sha256: str, ordinal: int) -> str:
        return content_hash(f"{raw_sha256}:{ordinal}", prefix="ses_")


# --------------------------------------------------------------------------- memories


class MemoryType(StrEnum):
    EPISODIC = "episodic"
    DOMAIN = "domain"
    PROCEDURAL = "procedural"
    FAILURE = "failure"
    PREFERENCE = "preference"


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    DORMANT = "dormant"
    SUPERSEDED = "superseded"


class CitationKind(StrEnum):
    SESSION = "session"
    COMMIT = "commit"
    FILE = "file"
    TEST = "test"
    REVIEW = "review"
    DEFECT = "defect"


class Scope(_Frozen):
    """Where a memory applies. ``None`` means "any" for that field, except ``repo``."""

    repo: str
    branch: str | None = None
    module: str | None = None
    """A path prefix inside the repository (``src/orders``) or a dotted module name."""
    phase: str | None = None
    """Task phase: ``explore``, ``edit``, ``test``, ``review``, ..."""
    owner: str | None = None
    """User or team, for preferences."""


class Citation(_Frozen):
    """Where a memory's evidence is. Every memory has at least one."""

    kind: CitationKind
    ref: str
    """Session event id, commit sha, test id, review or defect id, or the file path."""
    path: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    lines_sha256: str | None = None
    """sha256 of the cited lines (joined with ``\\n``) at ``commit``: what verification checks."""
    commit: str | None = None


class Usage(_Frozen):
    """How a memory fared when served: accrued by the router and the harness."""

    retrieved: int = 0
    helped: int = 0
    hurt: int = 0


class Verification(_Frozen):
    commit: str | None = None
    at: datetime | None = None
    state: Literal["verified", "relocated", "stale", "unchecked"] = "unchecked"


class Link(_Frozen):
    """A typed edge from a memory to another memory, a code symbol, a test or a failure mode."""

    relation: str
    """``related``, ``refines``, ``supersedes``, ``contradicts``, ``symbol``, ``test``,
    ``failure_mode``."""
    target: str


class Lineage(_Frozen):
    """Which memories this one was derived from, by which stage and why."""

    parents: tuple[str, ...] = ()
    stage: str | None = None
    """``extract`` or a dreaming stage's registered name."""
    reason: str | None = None


_SHARED: dict[Any, Any] = {}
_SHARED_MAX = 1 << 18

_T = TypeVar("_T")


def shared(value: _T) -> _T:
    """One object for equal frozen values met often (scopes, usage counts, underived lineages,
    links: a 100K bank holds a million of these, 480 bytes apiece, and few distinct ones). At
    most ``_SHARED_MAX`` distinct values are remembered (then the table starts again), and
    ``forget_shared`` lets go of them: the memories holding them keep them."""
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    # Keyed by the field values (strings, numbers, None): tuples compare faster than pydantic
    # models (20K memories validated: 0.27 -> 0.22 s with the collector off).
    key = (type(value), *value.__dict__.values())
    return _SHARED.setdefault(key, value)  # type: ignore[no-any-return]


def forget_shared() -> None:
    """Let go of the values ``shared`` remembers (a dream that ended: its banks hold theirs)."""
    _SHARED.clear()


class Memory(_ContentAddressed):
    """An evidenced piece of knowledge for future sessions.

    ``id`` hashes the content (type, scope, summary, conditions, citations): the same fact with
    the same evidence is the same memory everywhere. The rest is state a bank version carries.
    """

    type: MemoryType
    scope: Scope
    summary: str
    conditions: tuple[str, ...] = ()
    """When it applies, as short clauses."""
    citations: tuple[Citation, ...] = Field(min_length=1)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    created_at: datetime | None = None
    """The time of the evidence it came from (not the wall clock), so that ids of banks are
    reproducible."""
    last_verified: Verification | None = None
    usage: Usage = Usage()
    status: MemoryStatus = MemoryStatus.ACTIVE
    links: tuple[Link, ...] = ()
    lineage: Lineage = Lineage()
    tags: tuple[str, ...] = ()
    """Free labels, e.g. ``injection`` for text that addressed the memory writer."""

    _ID_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"type", "scope", "summary", "conditions", "citations"})
    """What a memory's id hashes: what it says and its evidence, not its state."""
    _CACHED: ClassVar[Mapping[str, frozenset[str] | None]] = {
        "id": _ID_FIELDS, "_state_hash": None}

    @model_validator(mode="wrap")
    @classmethod
    def _share_values(cls, data: Any, handler: Any) -> Any:
        memory = handler(data)
        if memory is data:  # a memory passed along (into a bank): shared when it was read
            return memory
        # One object per such value rather than per memory read (``shared``).
        values = memory.__dict__
        for name in ("scope", "usage"):
            values[name] = shared(values[name])
        if not values["lineage"].parents:
            values["lineage"] = shared(values["lineage"])
        if values["links"]:
            values["links"] = tuple(shared(link) for link in values["links"])
        return memory

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def id(self) -> str:
        return content_hash(self._content(), prefix="mem_")

    def _content(self) -> dict[str, Any]:
        return self.model_dump(mode="json", include=set(self._ID_FIELDS))

    def state_hash(self) -> str:
        """Hash of everything a bank version fixes about this memory.

        ``last_verified`` and ``usage`` are observations accrued while serving (kept append-only
        in the store), not part of a bank's content, so they are left out.
        """
        cached = self.__dict__.get("_state_hash")
        if cached is None:
            state = self.model_dump(mode="json", exclude={"last_verified", "usage", "id"})
            cached = content_hash(state, prefix="")
            self.__dict__["_state_hash"] = cached  # frozen: computed once (see ``_CACHED``)
            if "id" not in self.__dict__:  # the id hashes a part of the same dump
                self.__dict__["id"] = content_hash(
                    {name: state[name] for name in self._ID_FIELDS}, prefix="mem_")
        return cached

    @property
    def is_active(self) -> bool:
        return self.status is MemoryStatus.ACTIVE


# --------------------------------------------------------------------------- banks


class BankOrigin(_Frozen):
    """How a bank version was made."""

    kind: Literal["extraction", "dream", "import", "manual", "empty"]
    config: dict[str, Any] = Field(default_factory=dict)
    """The extraction or dream config, as run."""
    config_hash: str | None = None
    note: str | None = None


class Bank(_ContentAddressed):
    """An immutable version of a memory bank. ``id`` hashes its memories (and nothing else)."""

    repo: str | None = None
    """The repository the bank serves; None for a bank spanning several."""
    parent_id: str | None = None
    origin: BankOrigin = BankOrigin(kind="manual")
    created_at: datetime | None = None
    memories: tuple[Memory, ...] = ()

    _CACHED: ClassVar[Mapping[str, frozenset[str] | None]] = {
        "id": frozenset({"memories"}), "active": frozenset({"memories"})}

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def id(self) -> str:
        return self.compute_id(self.memories)

    @staticmethod
    def compute_id(memories: tuple[Memory, ...] | list[Memory]) -> str:
        states = [m.state_hash() for m in memories]  # first: one dump gives the id as well
        pairs = sorted(zip((m.id for m in memories), states, strict=True))
        return content_hash(pairs, prefix="bank_")

    @cached_property
    def active(self) -> tuple[Memory, ...]:
        """The active memories, in the bank's order (read once per frozen bank)."""
        return tuple(m for m in self.memories if m.is_active)

    def get(self, memory_id: str) -> Memory | None:
        for memory in self.memories:
            if memory.id == memory_id:
                return memory
        return None


class ProvenanceEntry(_Frozen):
    """One step of a dream: which inputs became which output, by which stage and why."""

    stage: str
    action: Literal[
        "kept", "created", "merged", "superseded", "dormant", "split", "changed", "linked"
    ]
    inputs: tuple[str, ...] = ()
    output: str | None = None
    reason: str = ""


class BankDiff(_Frozen):
    """What changed from one bank version to another, memory by memory."""

    before: str
    after: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    status_changed: tuple[tuple[str, str, str], ...] = ()
    """(memory id, old status, new status) for memories present in both with a new status."""
    provenance: tuple[ProvenanceEntry, ...] = ()

    @classmethod
    def between(
        cls, before: Bank, after: Bank, provenance: tuple[ProvenanceEntry, ...] = ()
    ) -> BankDiff:
        old = {m.id: m for m in before.memories}
        new = {m.id: m for m in after.memories}
        changed = tuple(
            (mid, old[mid].status.value, new[mid].status.value)
            for mid in sorted(old.keys() & new.keys())
            if old[mid].status != new[mid].status
        )
        return cls(
            before=before.id,
            after=after.id,
            added=tuple(sorted(new.keys() - old.keys())),
            removed=tuple(sorted(old.keys() - new.keys())),
            status_changed=changed,
            provenance=provenance,
        )


class AliasMove(_Frozen):
    """A recorded move of a bank alias (``production``, ``candidate``, ...) for one repository."""

    repo: str
    name: str
    from_bank: str | None
    to_bank: str
    at: datetime
    reason: str = ""
    actor: str = ""


# --------------------------------------------------------------------------- serving


class PackedMemory(_Frozen):
    """A memory as it reaches an agent: the memory, its score and whether it was verified."""

    memory: Memory
    score: float = 0.0
    tokens: int = 0
    verification: Literal["verified", "relocated", "stale", "unchecked"] = "unchecked"


class MemoryPack(_Frozen):
    """What the router gives an agent: memories packed into a token budget."""

    query: str = ""
    budget: int | None = None
    """Token budget; None means unlimited."""
    items: tuple[PackedMemory, ...] = ()
    text: str = ""
    """The pack rendered for a prompt, citations in compact form."""
    tokens: int = 0
    """Tokens of ``text``; never more than ``budget``."""

    @property
    def memories(self) -> tuple[Memory, ...]:
        return tuple(item.memory for item in self.items)
