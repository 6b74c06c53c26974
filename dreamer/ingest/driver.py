"""The ingest driver: files in, sessions or quarantine records out, nothing lost or half-written.

For each file: read its bytes; refuse empty, binary and oversized files; decode JSON or JSONL;
find the adapter (``--format``, or the best ``sniff`` score of at least 0.5); parse; then store
the file verbatim with its sessions in one transaction. Any fault along the way quarantines the
file, verbatim, with the reason and where in the file it is. The rest of the batch proceeds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dreamer.errors import IngestError
from dreamer.ingest.base import ADAPTERS, Document, IngestContext, TrajectoryAdapter
from dreamer.models import Session, sha256_bytes
from dreamer.store import Store

TRAJECTORY_SUFFIXES = (".traj", ".json", ".jsonl", ".ndjson")
"""What a folder walk picks up. A file named explicitly is always tried, whatever its name."""
JSONL_SUFFIXES = (".jsonl", ".ndjson")
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
MIN_SNIFF_SCORE = 0.5


def max_bytes() -> int:
    """The largest file ingest accepts (``DREAMER_INGEST_MAX_BYTES``, default 256 MiB)."""
    return int(os.environ.get("DREAMER_INGEST_MAX_BYTES", DEFAULT_MAX_BYTES))


@dataclass(frozen=True)
class Defaults:
    """Repository facts from the command line, used where a file does not say."""

    repo: str | None = None
    branch: str | None = None
    commit: str | None = None
    task_id: str | None = None


@dataclass
class IngestReport:
    """What one ``ingest`` call did, file by file."""

    ingested: list[dict[str, object]] = field(default_factory=list)
    duplicates: list[dict[str, object]] = field(default_factory=list)
    quarantined: list[dict[str, object]] = field(default_factory=list)
    skipped: list[dict[str, object]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {
            "ingested": len(self.ingested),
            "duplicates": len(self.duplicates),
            "quarantined": self.quarantined,
            "skipped": self.skipped,
            "sessions": [sid for item in self.ingested for sid in item["sessions"]],  # type: ignore[attr-defined]
        }


def collect(paths: Iterable[Path], report: IngestReport) -> list[Path]:
    """The files to ingest: named files as given, folders walked in sorted order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                if any(part.startswith(".") for part in child.relative_to(path).parts):
                    continue
                if child.name.endswith(TRAJECTORY_SUFFIXES):
                    files.append(child)
                else:
                    report.skipped.append(
                        {"path": str(child), "reason": "not a trajectory file name "
                         f"({', '.join(TRAJECTORY_SUFFIXES)}); name it explicitly to ingest it"}
                    )
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return files


def decode(data: bytes, path: str) -> Document:
    """Turn raw bytes into a ``Document``, or raise ``IngestError`` saying what and where."""
    if not data.strip():
        raise IngestError("empty file", "byte 0")
    limit = max_bytes()
    if len(data) > limit:
        raise IngestError(
            f"file is {len(data)} bytes, over the {limit}-byte limit (DREAMER_INGEST_MAX_BYTES)"
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        raise IngestError("binary file (NUL byte)", f"byte {nul}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IngestError(f"not UTF-8 text: {exc.reason}", f"byte {exc.start}") from exc
    if not path.endswith(JSONL_SUFFIXES):
        try:
            return Document("json", json.loads(text), path)
        except json.JSONDecodeError as exc:
            if text.lstrip().startswith("[") or text.count("\n") < 1:
                raise IngestError(
                    f"invalid JSON: {exc.msg}", f"line {exc.lineno}, column {exc.colno}"
                ) from exc
            first_error = exc
        try:
            return _decode_jsonl(text, path)
        except IngestError:
            raise IngestError(
                f"invalid JSON: {first_error.msg}",
                f"line {first_error.lineno}, column {first_error.colno}",
            ) from first_error
    return _decode_jsonl(text, path)


def _decode_jsonl(text: str, path: str) -> Document:
    records: list[object] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise IngestError(
                f"invalid JSON Lines record: {exc.msg}", f"line {number}, column {exc.colno}"
            ) from exc
        lines.append(number)
    return Document("jsonl", records, path, tuple(lines))


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


def parse_file(
    data: bytes, path: str, defaults: Defaults, fmt: str = "auto"
) -> tuple[str, list[Session]]:
    """Decode and parse one file into sessions: (format name, sessions), or raise IngestError."""
    doc = decode(data, path)
    adapter = detect(doc, fmt)
    ctx = IngestContext(
        raw_sha256=sha256_bytes(data), source_path=path, repo=defaults.repo,
        branch=defaults.branch, commit=defaults.commit, task_id=defaults.task_id,
    )
    try:
        sessions = adapter.parse(doc, ctx)
    except IngestError:
        raise
    except Exception as exc:  # an adapter bug or an input shape nobody foresaw
        raise IngestError(
            f"{adapter.name} adapter could not read the file: {type(exc).__name__}: {exc}"
        ) from exc
    if not sessions:
        raise IngestError(f"no session found in this {adapter.name} file", "document root")
    return adapter.name, sessions


def ingest_paths(
    store: Store,
    paths: Iterable[Path],
    defaults: Defaults = Defaults(),
    fmt: str = "auto",
    progress: Callable[[Iterable[Path], int], Iterator[Path]] | None = None,
) -> IngestReport:
    """Ingest every trajectory file under ``paths`` into ``store``; see the module docstring."""
    import dreamer.ingest.adapters  # noqa: F401  (registers every adapter)

    report = IngestReport()
    files = collect(paths, report)
    iterator: Iterable[Path] = progress(files, len(files)) if progress else files
    for path in iterator:
        ingest_file(store, path, defaults, fmt, report)
    return report


def ingest_file(
    store: Store, path: Path, defaults: Defaults, fmt: str, report: IngestReport
) -> None:
    """Ingest one file into ``store`` and record what happened in ``report``."""
    data = path.read_bytes()
    name = str(path)
    previous = store.evidence.ingestion(sha256_bytes(data))
    if previous is not None:
        report.duplicates.append(
            {"path": name, "sha256": previous.sha256, "status": previous.status}
        )
        return
    try:
        source_format, sessions = parse_file(data, name, defaults, fmt)
    except IngestError as exc:
        result = store.evidence.add_quarantined(data, name, exc.reason, exc.where)
        entry: dict[str, object] = {
            "path": name, "reason": exc.reason, "where": exc.where, "sha256": result.sha256,
        }
        (report.quarantined if result.status == "quarantined" else report.duplicates).append(entry)
        return
    result = store.evidence.add_ingested(data, name, source_format, sessions)
    if result.status == "duplicate":  # another process stored it since we looked
        report.duplicates.append({"path": name, "sha256": result.sha256, "status": "ingested"})
        return
    report.ingested.append(
        {"path": name, "sha256": result.sha256, "format": source_format,
         "sessions": list(result.sessions)}
    )
