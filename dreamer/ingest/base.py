"""The interface every trajectory adapter implements, and the registry that finds them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from dreamer.models import Session
from dreamer.registry import Registry


@dataclass(frozen=True)
class Document:
    """A decoded trajectory file, as the driver hands it to adapters.

    ``kind`` is ``json`` (``value`` is the parsed document) or ``jsonl`` (``value`` is the list of
    parsed records, one per non-blank line; ``lines[i]`` is the 1-based line number of record i).
    """

    kind: str
    value: object
    path: str
    lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class IngestContext:
    """What an adapter knows besides the file's bytes.

    ``repo``, ``branch``, ``commit`` and ``task_id`` come from the command line; an adapter uses
    them only where the file itself does not say.
    """

    raw_sha256: str
    source_path: str
    repo: str | None = None
    branch: str | None = None
    commit: str | None = None
    task_id: str | None = None


class TrajectoryAdapter(ABC):
    """Turns one trajectory file into Sessions with structured Events.

    ``sniff`` looks at the decoded document and says how sure it is that the file is in its
    format (0 to 1); it never raises.
    ``parse`` raises ``dreamer.errors.IngestError(reason, where)`` on a malformed file: the
    driver quarantines it. It never returns a half-parsed session.
    """

    name: ClassVar[str]

    @abstractmethod
    def sniff(self, doc: Document) -> float: ...

    @abstractmethod
    def parse(self, doc: Document, ctx: IngestContext) -> list[Session]: ...


ADAPTERS: Registry[type[TrajectoryAdapter]] = Registry("trajectory format")
