"""Write a built corpus: JSONL, trajectories, Hugging Face datasets, parquet, and the manifest.

Layout of a corpus folder::

    tasks.jsonl               evaluation tasks (the harness's suite file)
    history.jsonl             the past tasks that sessions recorded
    sessions/*.traj           SWE-agent trajectories
    sessions.jsonl            one row per session: times, repo, task, evidence, noise labels
    memories/oracle.jsonl     each family's hidden fact as a memory
    memories/pool.jsonl       the memories random packs draw from
    split.json                the time split, per task
    leaks.json                the leak check's findings (empty when clean)
    certification.json        per task: certified or not, and every run behind the verdict
    repos/<owner>__<name>     git repositories (or ``.bundle`` files)
    hf/tasks, hf/sessions     ``datasets.Dataset.save_to_disk``
    parquet/*.parquet         the same tables as parquet
    manifest.json             counts and content hashes (deterministic for a seed)
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from dreamer.models import Memory
from evals.corpus.certify import Certificate
from evals.corpus.narrative import SessionRecord
from evals.corpus.noise import NOISE_CLASSES
from evals.leaks import LeakFinding
from evals.tasks import Task


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> bytes:
    data = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data, encoding="utf-8")
    return data.encode("utf-8")


def session_row(record: SessionRecord) -> dict[str, Any]:
    """A session's manifest row (everything but the trajectory itself)."""
    return {
        "instance_id": record.instance_id, "file": record.file, "repo": record.repo,
        "kind": record.kind, "task": record.task, "family": record.family,
        "started_at": record.started_at.isoformat(), "ended_at": record.ended_at.isoformat(),
        "commit_start": record.commit_start, "commit_end": record.commit_end,
        "evidence": record.evidence, "noise": sorted(set(record.noise)),
        "secrets": record.secrets, "sha256": record.sha256,
    }


def _hf(out: Path, tasks: list[dict[str, Any]], sessions: list[dict[str, Any]]) -> None:
    from datasets.utils.logging import disable_progress_bar

    from datasets import Dataset  # type: ignore[attr-defined]  # ./datasets/ shadows it for mypy

    disable_progress_bar()

    def flat(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # Nested records of varying shape (memories, candidates) travel as JSON strings in the
        # columnar copies; tasks.jsonl keeps them structured.
        return [{k: json.dumps(v, sort_keys=True) if isinstance(v, (list, dict)) and k not in
                 ("FAIL_TO_PASS", "PASS_TO_PASS") else v for k, v in row.items()} for row in rows]

    for name, rows in (("tasks", tasks), ("sessions", sessions)):
        dataset = Dataset.from_list(flat(rows))
        dataset.save_to_disk(str(out / "hf" / name))
        (out / "parquet").mkdir(parents=True, exist_ok=True)
        dataset.to_parquet(str(out / "parquet" / f"{name}.parquet"))


def noise_counts(sessions: list[dict[str, Any]]) -> dict[str, int]:
    """How many sessions carry each noise class (every class listed, zero included)."""
    counts = Counter(label for row in sessions for label in row["noise"])
    return {label: counts.get(label, 0) for label in NOISE_CLASSES}


def certification_record(tasks: list[Task], certificates: dict[str, Certificate],
                         permutations: int | None) -> dict[str, Any]:
    """``certification.json``: per task the verdict and its runs; per family the controls."""
    from evals.corpus.certify import family_controls

    return {"permutations": permutations,
            "families": family_controls(tasks, certificates),
            "tasks": {k: v.model_dump() for k, v in sorted(certificates.items())}}


def publish(out: Path, tasks: list[Task], history: list[Task], sessions: list[SessionRecord],
            oracles: list[Memory], pool: list[Memory], split: dict[str, Any],
            leaks: list[LeakFinding], certificates: dict[str, Certificate],
            meta: dict[str, Any]) -> dict[str, Any]:
    """Write everything under ``out``; return the manifest."""
    hashes: dict[str, str] = {}
    rows = [t.model_dump(mode="json") for t in tasks]
    hashes["tasks.jsonl"] = hashlib.sha256(_jsonl(out / "tasks.jsonl", rows)).hexdigest()
    history_rows = [t.model_dump(mode="json") for t in history]
    history_bytes = _jsonl(out / "history.jsonl", history_rows)
    hashes["history.jsonl"] = hashlib.sha256(history_bytes).hexdigest()
    for record in sessions:
        (out / record.file).parent.mkdir(parents=True, exist_ok=True)
        (out / record.file).write_bytes(record.raw())
    session_rows = [session_row(r) for r in sorted(sessions, key=lambda r: r.started_at)]
    session_bytes = _jsonl(out / "sessions.jsonl", session_rows)
    hashes["sessions.jsonl"] = hashlib.sha256(session_bytes).hexdigest()
    _jsonl(out / "memories" / "oracle.jsonl", [m.model_dump(mode="json") for m in oracles])
    _jsonl(out / "memories" / "pool.jsonl", [m.model_dump(mode="json") for m in pool])
    (out / "split.json").write_text(json.dumps(split, indent=1, sort_keys=True) + "\n")
    (out / "leaks.json").write_text(json.dumps([f.model_dump() for f in leaks], indent=1) + "\n")
    (out / "certification.json").write_text(json.dumps(
        certification_record(tasks, certificates, meta.get("permutations")), indent=1) + "\n")
    _hf(out, rows, [{**row, "trajectory": (out / row["file"]).read_text()} for row in session_rows])
    certified = sum(1 for t in tasks if t.certified)
    manifest = {
        **meta,
        "families": sorted({t.family for t in tasks if t.family}),
        "repos": sorted({t.repo for t in tasks}),
        "tasks": len(tasks), "history_tasks": len(history),
        "certified": certified if certificates else None,
        "uncertified": len(tasks) - certified if certificates else None,
        "uncertified_tasks": sorted(t.instance_id for t in tasks if t.certified is False),
        "sessions": len(sessions), "noise": noise_counts(session_rows),
        "tasks_per_family": dict(sorted(Counter(t.family for t in tasks if t.family).items())),
        "leaks": len(leaks), "hashes": hashes,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest
