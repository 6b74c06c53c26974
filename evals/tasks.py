"""Task instances: SWE-bench's fields plus dreamer's own, and the loaders that read suites.

Every part of the harness and the corpus speaks ``Task``. ``load_tasks(ref)`` reads a suite from:

- a ``.jsonl`` file (one task per line), a ``.json`` file (a list of tasks, ``{"tasks": [...]}``
  or one task), a ``.parquet`` file: SWE-bench's own formats, whose ``FAIL_TO_PASS`` /
  ``PASS_TO_PASS`` JSON strings are decoded;
- a folder written by Hugging Face ``Dataset.save_to_disk`` (``split`` picks a DatasetDict's split),
  or a folder holding ``tasks.jsonl`` (or ``tasks.json`` / ``tasks.parquet``);
- ``hf:OWNER/NAME`` (optionally ``hf:OWNER/NAME:SPLIT``): a Hugging Face dataset by name, read
  from the local cache (``HF_DATASETS_OFFLINE=1`` is set: no network);
- a suite *name*: the first folder ``<root>/<name>/`` found under, in order, each folder of
  ``$DREAMER_SUITES`` (``os.pathsep``-separated), ``./datasets/suites/``, ``./evals/examples/``,
  the packaged ``evals/examples/`` and ``$DREAMER_HOME/suites/`` (where
  ``python -m evals.examples.demo`` builds the ``demo`` suite).

Relative ``source.location`` paths are resolved against the suite file's folder, so a loaded task
always names its repository absolutely. Rows without a ``source`` (plain SWE-bench rows) get
``RepoSource(kind="swe-bench")`` and ``harness="swe-bench"`` (graded by ``evals.swebench``, as
SWE-bench grades); ``repos_dir`` (or ``$DREAMER_REPOS_DIR``) points them at local mirrors
(``evals.swebench.sources``), without which they load in full but cannot run offline.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from evals.errors import TaskLoadError

SUITE_FILES = ("tasks.jsonl", "tasks.json", "tasks.parquet")
"""File names looked for, in order, inside a suite folder."""
LOCAL_KINDS = frozenset({"git", "bundle", "archive"})


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


def _decode_json(value: Any) -> Any:
    """Parquet and CSV exports carry nested fields as JSON strings."""
    if isinstance(value, str):
        return json.loads(value) if value.strip() else None
    return value


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
    """How the tests run (a bash line), with ``{tests}`` for the FAIL_TO_PASS + PASS_TO_PASS ids
    and ``{python}`` for the environment's interpreter; default:
    ``{python} -m pytest -rA -v -p no:cacheprovider {tests}``."""
    certified: bool | None = None
    """Whether memory decides this task (corpus certification); None when not checked."""
    oracle_memories: tuple[dict[str, Any], ...] = ()
    """Memory dicts (``Memory.model_dump``) holding the hidden fact: the bank-free oracle pack."""
    test_requirements: tuple[str, ...] = ()
    """pip requirement lines the repository's tests need beyond the current interpreter's."""

    @field_validator("FAIL_TO_PASS", "PASS_TO_PASS", "test_requirements", mode="before")
    @classmethod
    def _decode_test_list(cls, value: Any) -> Any:
        # SWE-bench stores these lists as JSON strings.
        if isinstance(value, str):
            value = json.loads(value) if value.strip() else []
        if value is None:
            return ()
        return tuple(value)

    @field_validator("candidates", "oracle_memories", mode="before")
    @classmethod
    def _decode_nested(cls, value: Any) -> Any:
        value = _decode_json(value)
        return () if value is None else value

    @field_validator("oracle_memories", mode="after")
    @classmethod
    def _valid_memories(cls, value: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
        """Each oracle memory must be a ``Memory``: checked when the task loads, so a bad one is
        reported with its place instead of failing a run half-way. Two shapes the format's
        words allow are read as meant: ``conditions`` as one sentence (a one-item list), and a
        ``links`` entry as the words naming another piece (a ``related`` note)."""
        from pydantic import ValidationError

        from dreamer.models import Memory

        out = []
        for i, memory in enumerate(value):
            memory = dict(memory)
            if isinstance(memory.get("conditions"), str):
                memory["conditions"] = [memory["conditions"]]
            if isinstance(memory.get("links"), list):
                memory["links"] = [{"relation": "related", "target": link}
                                   if isinstance(link, str) else link for link in memory["links"]]
            try:
                Memory.model_validate({k: v for k, v in memory.items() if k != "id"})
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(part) for part in first["loc"])
                raise ValueError(f"oracle_memories[{i}].{where}: {first['msg']}") from None
            out.append(memory)
        return tuple(out)

    @field_validator("source", mode="before")
    @classmethod
    def _decode_source(cls, value: Any) -> Any:
        value = _decode_json(value)
        return RepoSource() if value is None else value


# --------------------------------------------------------------------------- loading


def load_tasks(
    ref: str | Path, *, split: str | None = None, repos_dir: str | Path | None = None
) -> list[Task]:
    """The tasks of the suite ``ref`` (a file, a folder, ``hf:NAME[:SPLIT]`` or a suite name),
    SWE-bench rows pointed at their mirrors in ``repos_dir`` (default ``$DREAMER_REPOS_DIR``)."""
    from evals.swebench.sources import repos_dir as mirrors
    from evals.swebench.sources import with_local_sources

    return with_local_sources(_load(ref, split), mirrors(repos_dir))


def _load(ref: str | Path, split: str | None) -> list[Task]:
    text = str(ref)
    if text.startswith("hf:"):
        name, _, hf_split = text[3:].partition(":")
        return tasks_from_records(_hf_by_name(name, hf_split or split or "test"), Path.cwd(), text)
    path = resolve_suite(text)
    if path.is_dir():
        if (path / "dataset_info.json").exists() or (path / "dataset_dict.json").exists():
            return tasks_from_records(_hf_from_disk(path, split), path, str(path))
        for name in SUITE_FILES:
            if (path / name).exists():
                return _load(path / name, split)
        raise TaskLoadError(
            f"suite folder {path} holds none of {', '.join(SUITE_FILES)} and is not a "
            "Hugging Face save_to_disk folder; put the tasks in tasks.jsonl"
        )
    return tasks_from_records(_read_records(path), path.parent, str(path))


def resolve_suite(ref: str) -> Path:
    """A suite reference as a path: an existing path as is, else a name under the suite roots."""
    path = Path(ref).expanduser()
    if path.exists():
        return path.resolve()
    roots = suite_roots()
    if os.sep not in ref and "/" not in ref:
        for root in roots:
            if (root / ref).is_dir():
                return (root / ref).resolve()
    raise TaskLoadError(
        f"no suite {ref!r}: not a file or folder, and no folder of that name under "
        f"{', '.join(str(r) for r in roots)}; pass a path or set DREAMER_SUITES"
    )


def suite_roots() -> list[Path]:
    """The folders searched for suite names, in order."""
    listed = os.environ.get("DREAMER_SUITES", "").split(os.pathsep)
    env = [Path(p).expanduser() for p in listed if p]
    from dreamer import settings

    here = Path(__file__).resolve().parent / "examples"
    home = settings.home() / "suites"
    roots = [*env, Path("datasets/suites"), Path("evals/examples"), here, home]
    return list(dict.fromkeys(r.resolve() for r in roots))


def tasks_from_records(records: Iterable[dict[str, Any]], base_dir: Path, where: str) -> list[Task]:
    """Validate raw rows as tasks, resolving relative repository paths against ``base_dir``."""
    tasks: list[Task] = []
    seen: set[str] = set()
    for index, record in enumerate(records):
        record = dict(record)
        if "source" not in record or record["source"] is None:
            upstream = f"https://github.com/{record.get('repo', '')}"
            record["source"] = {"kind": "swe-bench", "location": upstream}
            record.setdefault("harness", "swe-bench")
        try:
            task = Task.model_validate(record)
        except (ValidationError, ValueError) as exc:
            raise TaskLoadError(f"task {index} of {where} is invalid: {exc}") from exc
        if task.instance_id in seen:
            raise TaskLoadError(f"{where} holds instance {task.instance_id!r} twice")
        seen.add(task.instance_id)
        tasks.append(_absolute_source(task, base_dir))
    return tasks


def save_tasks(tasks: Iterable[Task], path: Path) -> Path:
    """Write tasks as JSONL (the suite format every loader reads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for task in tasks:
            out.write(task.model_dump_json() + "\n")
    return path


def _absolute_source(task: Task, base_dir: Path) -> Task:
    loc = task.source.location
    if task.source.kind not in LOCAL_KINDS or not loc or "://" in loc or Path(loc).is_absolute():
        return task
    resolved = str((base_dir / loc).resolve())
    return task.model_copy(update={"source": RepoSource(kind=task.source.kind, location=resolved)})


def _read_records(path: Path) -> list[dict[str, Any]]:
    suffix = path.suffix.lower()
    try:
        if suffix == ".jsonl":
            lines = path.read_text(encoding="utf-8").splitlines()
            return [json.loads(line) for line in lines if line.strip()]
        if suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                data = data.get("tasks", [data])
            return list(data)
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path).to_pylist()
    except (OSError, ValueError) as exc:
        raise TaskLoadError(f"cannot read tasks from {path}: {exc}") from exc
    raise TaskLoadError(f"{path}: unknown suite format {suffix!r}; use .jsonl, .json or .parquet")


def _hf_from_disk(path: Path, split: str | None) -> list[dict[str, Any]]:
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    from datasets import Dataset, DatasetDict, load_from_disk  # type: ignore[attr-defined]

    data = load_from_disk(str(path))
    if isinstance(data, DatasetDict):
        names = list(data.keys())
        chosen = split or ("test" if "test" in names else names[0])
        if chosen not in data:
            raise TaskLoadError(f"{path} has splits {names}, not {chosen!r}")
        data = data[chosen]
    assert isinstance(data, Dataset)
    return list(data.to_list())


def _hf_by_name(name: str, split: str) -> list[dict[str, Any]]:
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    from datasets import load_dataset  # type: ignore[attr-defined]

    try:
        return list(load_dataset(name, split=split).to_list())
    except Exception as exc:  # datasets raises many kinds when a name is not cached
        raise TaskLoadError(
            f"cannot load Hugging Face dataset {name!r} split {split!r} offline: {exc}; "
            "download it once, or save_to_disk a copy and pass its folder"
        ) from exc
