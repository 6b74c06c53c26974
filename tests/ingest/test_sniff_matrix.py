"""Format detection: every file scores at least 0.5 for its own adapter only."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamer.errors import IngestError
from dreamer.ingest.adapters import ADAPTERS
from dreamer.ingest.base import Document, IngestContext

FORMATS = ["claude-code", "dreamer", "mini-swe-agent", "openhands", "swe-agent"]


def files_by_format(root: Path) -> list[tuple[str, Path]]:
    return [(folder.name, path) for folder in sorted(root.iterdir()) if folder.is_dir()
            for path in sorted(folder.iterdir()) if path.is_file()]


def check(doc: Document, expected: str) -> None:
    scores = {name: adapter().sniff(doc) for name, adapter in ADAPTERS.items()}
    assert scores[expected] >= 0.5, scores
    assert all(score < 0.5 for name, score in scores.items() if name != expected), scores


def test_every_adapter_is_registered() -> None:
    assert ADAPTERS.names() == FORMATS


def test_fixtures_are_recognised_by_their_own_adapter_only(fixtures: Path, load_doc) -> None:
    found = files_by_format(fixtures)
    assert sorted({fmt for fmt, _ in found}) == FORMATS
    for fmt, path in found:
        check(load_doc(path), fmt)


def test_real_files_are_recognised_by_their_own_adapter_only(trajectories: Path,
                                                             load_doc) -> None:
    found = files_by_format(trajectories)
    assert len(found) == 7
    for fmt, path in found:
        check(load_doc(path), fmt)


ODD = [None, 3, "text", [], {}, [{}], {"trajectory": 3}, [{"role": 1}], {"messages": {}},
       [{"type": "session"}, {"type": "event"}], {"history": [{"role": "user", "action": "ls"}]},
       [[1, 2]], {"events": "x"}]


@pytest.mark.parametrize("value", ODD)
def test_odd_documents_never_raise_and_match_nothing(value: object) -> None:
    for kind in ("json", "jsonl"):
        doc = Document(kind, value if kind == "json" or isinstance(value, list) else [value],
                       "odd.json")
        for name, adapter in ADAPTERS.items():
            assert adapter().sniff(doc) < 0.5, (name, value)


@pytest.mark.parametrize(
    "value",
    [*ODD, {"trajectory": [1]}, {"messages": [None]}, {"history": [None]},
     [{"type": "user", "sessionId": "s", "message": "text"}],
     [{"type": "user", "sessionId": "s", "message": {"content": [None, 3, {"type": "x"}]}}],
     [{"action": "run", "args": {"command": None}}],
     [{"observation": "run", "extras": {"metadata": None}, "content": None}],
     {"trajectory": [{"action": "edit 1:2", "state": None, "observation": None}],
      "info": None, "history": [{"role": "user", "content": None}]}],
)
def test_odd_documents_parse_or_raise_ingest_error(value: object) -> None:
    """Forced on any document (``--format``), an adapter reads it or says why: never crashes."""
    ctx = IngestContext(raw_sha256="0" * 64, source_path="odd.json")
    doc = Document("json", value, "odd.json")
    for name, adapter in ADAPTERS.items():
        try:
            sessions = adapter().parse(doc, ctx)
        except IngestError as exc:
            assert exc.reason, name
        else:
            assert all(s.source_format == name for s in sessions)
