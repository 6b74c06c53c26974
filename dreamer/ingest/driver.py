"""The ingest driver: files in, sessions or quarantine records out, nothing lost or half-written.

For each file: read its bytes; refuse empty, binary and oversized files; decode JSON or JSONL;
find the adapter (``--format``, or the best ``sniff`` score of at least 0.5); parse; then store
the file verbatim with its sessions in one transaction. Any fault along the way quarantines the
file, verbatim, with the reason and where in the file it is. The rest of the batch proceeds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from dreamer.errors import IngestError
from dreamer.ingest import files
from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.ingest.building import to_utc
from dreamer.ingest.decoding import decode
from dreamer.ingest.files import collect, shown_path
from dreamer.ingest.limits import Limits
from dreamer.ingest.origin import complete_origin, with_native_id
from dreamer.ingest.redaction import redact_session
from dreamer.ingest.values import safe_session
from dreamer.models import Session, sha256_bytes
from dreamer.store import Store

MIN_SNIFF_SCORE = 0.5


@dataclass(frozen=True)
class Defaults:
    """Repository facts from the command line: ``repo`` wins over the file; the others are used
    where a file does not say."""

    repo: str | None = None
    branch: str | None = None
    commit: str | None = None
    task_id: str | None = None
    manifest: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per file (its resolved path): ``started_at``, ``ended_at``, ``repo`` for formats that do
    not record them (``read_manifest``); used where the file itself does not say."""


@dataclass
class IngestReport:
    """What one ``ingest`` call did, file by file: every file ends in exactly one of
    ``ingested``, ``duplicates``, ``quarantined``, ``skipped`` or (the store itself failing)
    ``failed``; ``warnings`` name what was refused or missing in the sessions stored."""

    ingested: list[dict[str, object]] = field(default_factory=list)
    duplicates: list[dict[str, object]] = field(default_factory=list)
    quarantined: list[dict[str, object]] = field(default_factory=list)
    skipped: list[dict[str, object]] = field(default_factory=list)
    failed: list[dict[str, object]] = field(default_factory=list)
    warnings: list[dict[str, object]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {
            "ingested": len(self.ingested),
            "duplicates": len(self.duplicates),
            "quarantined": self.quarantined,
            "skipped": self.skipped,
            "failed": self.failed,
            "warnings": self.warnings,
            "sessions": [sid for item in self.ingested for sid in item["sessions"]],  # type: ignore[attr-defined]
            "extended": [sid for item in self.ingested
                         for sid in item.get("extended", [])],  # type: ignore[attr-defined]
        }


def detect(doc: Document, fmt: str = "auto") -> TrajectoryAdapter:
    """The adapter for ``doc``: the one named, or the most confident sniffer."""
    if fmt != "auto":
        return ADAPTERS.get(fmt)()
    scores = []
    for name, adapter_type in ADAPTERS.items():
        adapter = adapter_type()
        try:
            score = float(adapter.sniff(doc))
        except Exception:  # a sniffer must not decide a file's fate by crashing
            score = 0.0
        scores.append((score, name, adapter))
    scores.sort(key=lambda item: (-item[0], item[1]))
    if not scores or scores[0][0] < MIN_SNIFF_SCORE:
        raise IngestError(
            "unrecognised trajectory format (known: " + ", ".join(ADAPTERS.names())
            + "); pass --format to choose one",
            "document root",
        )
    return scores[0][2]


def read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """A sessions manifest (JSONL: ``file`` relative to the manifest's folder, and any of
    ``started_at``, ``ended_at``, ``repo``, ``commit_start``, ``commit_end``), as
    ``Defaults.manifest`` takes it; a corpus's ``sessions.jsonl`` is one. Its commits fill a
    session's where the format records none."""
    import json

    rows: dict[str, dict[str, Any]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise IngestError(f"cannot read the manifest {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise IngestError(f"{path}: line {number} is not JSON ({exc})", f"line {number}") \
                from exc
        if not isinstance(row, dict) or not isinstance(row.get("file"), str):
            raise IngestError(f"{path}: line {number} has no \"file\"", f"line {number}")
        rows[str((path.parent / row["file"]).resolve())] = row
    return rows


def _from_manifest(session: Session, row: Mapping[str, Any] | None) -> Session:
    """``session`` with the manifest's time and commits where the file gave none, and its
    repository unless ``--repo`` named one: the manifest states it per session, where a file
    may only show a local checkout's folder name (``/tmp/build/parcel-depot``)."""
    if not row:
        return session
    update: dict[str, Any] = {}
    metadata = dict(session.metadata)
    if session.started_at is None and session.ended_at is None:
        for key in ("started_at", "ended_at"):
            if row.get(key):
                update[key] = to_utc(str(row[key]))
        if update:
            metadata["time_source"] = "manifest"
    named = row.get("repo")
    if isinstance(named, str) and named.strip() and named != session.repo \
            and metadata.get("repo_source") != "--repo":
        if session.repo is not None:
            metadata["repo_in_file"] = session.repo
        update["repo"] = named
        metadata["repo_source"] = "manifest"
    for key in ("commit_start", "commit_end"):
        value = row.get(key)
        if getattr(session, key) is None and isinstance(value, str) \
                and re.fullmatch(r"[0-9a-f]{7,40}", value):
            update[key] = value
            metadata["commit_source"] = "manifest"
    if not update:
        return session
    return session.model_copy(update=update | {"metadata": metadata})


def parse_file(
    data: bytes, path: str, defaults: Defaults, fmt: str = "auto",
    mtime: datetime | None = None, limits: Limits | None = None, session_id: str | None = None,
    resolved: str | None = None,
) -> tuple[str, list[Session]]:
    """Decode and parse one file into sessions ready for the store: (format name, sessions),
    or raise IngestError.

    Each session's values are made safe (``values.safe_session``), its time and repository
    completed from what it shows (``origin.complete_origin``) and its secrets redacted
    (``redaction.redact_session``); what was refused or is missing is listed in its
    ``metadata["warnings"]``. ``session_id`` is the agent's id for the session when only the
    file's place says it (an OpenHands ``sessions/<sid>/events`` folder).
    """
    limits = limits or Limits.from_env()
    doc = decode(data, path, limits)
    adapter = detect(doc, fmt)
    ctx = IngestContext(
        raw_sha256=sha256_bytes(data), source_path=path, repo=defaults.repo,
        branch=defaults.branch, commit=defaults.commit, task_id=defaults.task_id,
    )
    try:
        sessions = adapter.parse(doc, ctx)
    except IngestError:
        raise
    except ValidationError as exc:  # a value of the wrong type reached a Session field
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "session"
        raise IngestError(
            f"{adapter.name}: the session's {field} cannot be read: {error['msg']} "
            f"(got {_short(error.get('input'))})", field,
        ) from exc
    except Exception as exc:  # an adapter bug or an input shape nobody foresaw
        raise IngestError(
            f"{adapter.name} adapter could not read the file: {type(exc).__name__}: "
            f"{str(exc)[:300]}"
        ) from exc
    if not sessions:
        raise IngestError(f"no session found in this {adapter.name} file", "document root")
    if session_id:
        sessions = [s if s.metadata.get("session_id") else s.model_copy(
            update={"metadata": {**s.metadata, "session_id": session_id}}) for s in sessions]
    row = defaults.manifest.get(resolved or path) if defaults.manifest else None
    return adapter.name, [_finish(_from_manifest(s, row), limits, mtime) for s in sessions]


def _finish(session: Session, limits: Limits, mtime: datetime | None) -> Session:
    session = with_native_id(session)
    safe, warnings = safe_session(session, limits)
    complete, more = complete_origin(safe, mtime)
    redacted = redact_session(complete)
    found = [w.as_dict() for w in (*warnings, *more)]
    if not found:
        return redacted
    return redacted.model_copy(update={"metadata": redacted.metadata | {"warnings": found}})


def ingest_paths(
    store: Store,
    paths: Iterable[Path],
    defaults: Defaults = Defaults(),
    fmt: str = "auto",
    progress: Callable[[Iterable[Path], int], Iterator[Path]] | None = None,
    limits: Limits | None = None,
) -> IngestReport:
    """Ingest every trajectory file under ``paths`` into ``store``; see the module docstring."""
    import dreamer.ingest.adapters  # noqa: F401  (registers every adapter)

    limits = limits or Limits.from_env()
    report = IngestReport()
    files = collect(list(paths), report.skipped)
    iterator: Iterable[Path] = progress(files, len(files)) if progress else files
    for path in iterator:
        ingest_file(store, path, defaults, fmt, report, limits)
    return report


def ingest_file(
    store: Store, path: Path, defaults: Defaults, fmt: str, report: IngestReport,
    limits: Limits | None = None,
) -> None:
    """Ingest one file into ``store`` and record what happened in ``report``.

    Nothing that goes wrong with this one file leaves this function: a file that cannot be
    read is skipped, one that cannot be parsed or stored is quarantined, and if even the
    quarantine cannot be written the file is reported as failed.
    """
    limits = limits or Limits.from_env()
    name = shown_path(path)
    folder = files.is_events_folder(path)
    try:
        read = files.read_events_folder(path, limits) if folder else files.read(path, limits)
    except files.Skip as exc:
        report.skipped.append({"path": name, "reason": exc.reason})
        return
    data = read.data
    try:
        _store_file(store, data, name, defaults, fmt, read.mtime, limits, report,
                    path.parent.name if folder else None, str(path.resolve()))
    except IngestError as exc:
        _quarantine(store, data, name, exc.reason, exc.where, report)
    except Exception as exc:  # the store refused a value: keep the file, say what refused it
        _quarantine(store, data, name, f"the store refused the normalised sessions: "
                    f"{type(exc).__name__}: {_first_line(exc)}", None, report)


def _store_file(store: Store, data: bytes, name: str, defaults: Defaults, fmt: str,
                mtime: datetime, limits: Limits, report: IngestReport,
                session_id: str | None = None, resolved: str | None = None) -> None:
    previous = store.evidence.ingestion(sha256_bytes(data))
    if previous is not None:
        report.duplicates.append(
            {"path": name, "sha256": previous.sha256, "status": previous.status}
        )
        return
    source_format, sessions = parse_file(data, name, defaults, fmt, mtime, limits, session_id,
                                         resolved)
    result = store.evidence.add_ingested(data, name, source_format, sessions)
    if result.status == "duplicate":  # another process stored it since we looked
        report.duplicates.append({"path": name, "sha256": result.sha256, "status": "ingested"})
        return
    entry: dict[str, object] = {"path": name, "sha256": result.sha256,
                                "format": source_format, "sessions": list(result.sessions)}
    if result.extended:
        entry["extended"] = list(result.extended)
    if result.covered:
        entry["covered"] = list(result.covered)
    report.ingested.append(entry)
    for session in sessions:
        for warning in session.metadata.get("warnings", ()):
            report.warnings.append({"path": name, "session": session.id, **warning})


def _quarantine(store: Store, data: bytes, name: str, reason: str, where: str | None,
                report: IngestReport) -> None:
    reason, where = _storable(reason), _storable(where) if where else None
    try:
        result = store.evidence.add_quarantined(data, name, reason, where)
    except Exception as exc:  # the store itself is failing: say so and go on with the batch
        report.failed.append({"path": name, "reason": reason, "where": where,
                              "error": f"{type(exc).__name__}: {_first_line(exc)}"})
        return
    entry: dict[str, object] = {"path": name, "reason": reason, "where": where,
                                "sha256": result.sha256}
    (report.quarantined if result.status == "quarantined" else report.duplicates).append(entry)


def _storable(text: str) -> str:
    """A reason any store can hold: no NUL or unpaired surrogate, at most 2,000 characters."""
    clean = text.encode("utf-8", errors="replace").decode("utf-8").replace("\x00", "\ufffd")
    return clean if len(clean) <= 2000 else clean[:1997] + "..."


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:300] if lines else ""
