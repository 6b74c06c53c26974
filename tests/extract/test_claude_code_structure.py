"""A Claude Code session through the real ingest driver and extraction: the fix that passed is
named from the Edit call's arguments, and its lines are cited and hashed where they landed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from dreamer.extract import extract
from dreamer.ingest.driver import Defaults, ingest_paths
from dreamer.models import CitationKind, MemoryType
from dreamer.store import open_store

NAIVE = "import uuid\n\n\ndef label_id(order):\n    return uuid.uuid4().hex\n"
FIXED = ("import uuid\n\nfrom shipit.ids import make_label_id\n\n\ndef label_id(order):\n"
         "    return make_label_id(order.carrier, order.number)\n")
FAILING = ("F.\n=================================== FAILURES ===================================\n"
           "E       AssertionError: assert 'f3a9' == 'UPS-000042'\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_labels.py::test_label_id_is_carrier_scoped - AssertionError: "
           "assert 'f3a9' == 'UPS-000042'\n1 failed, 1 passed in 0.03s")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout


def _repo(root: Path) -> tuple[Path, str]:
    repo = root / "acme__shipit"
    (repo / "shipit").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "shipit" / "labels.py").write_text(NAIVE)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "labels")
    (repo / "shipit" / "labels.py").write_text(FIXED)
    _git(repo, "commit", "-qam", "carrier-scoped label ids")
    return repo, _git(repo, "rev-parse", "HEAD").strip()


def _session(claude) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    c = claude("7d1c2f0e-1111-4222-8333-944455556666")
    edit = {"file_path": "/home/dev/src/shipit/shipit/labels.py",
            "old_string": "    return uuid.uuid4().hex",
            "new_string": "    return make_label_id(order.carrier, order.number)"}
    imports = {"file_path": "/home/dev/src/shipit/shipit/labels.py",
               "old_string": "import uuid\n",
               "new_string": "import uuid\n\nfrom shipit.ids import make_label_id\n"}
    return [
        c.record(0, "user", "Label ids collide across carriers; make them carrier-scoped."),
        c.bash(1, "t1", "python -m pytest -rA tests/test_labels.py"),
        c.result(2, "t1", "Exit code 1\n" + FAILING, True),
        c.tool(3, "t2", "MultiEdit", {"file_path": edit["file_path"], "edits": [imports, edit]}),
        c.result(4, "t2", "Applied 2 edits to shipit/labels.py", False),
        c.bash(5, "t3", "python -m pytest -rA tests/test_labels.py"),
        c.result(6, "t3", "tests/test_labels.py::test_label_id_is_carrier_scoped PASSED\n"
                          "2 passed in 0.02s", False),
    ]


def test_the_passing_fix_of_a_claude_code_session_is_named_and_cited(  # type: ignore[no-untyped-def]
        tmp_path: Path, claude_records) -> None:
    repo, end = _repo(tmp_path / "repos")
    path = tmp_path / "7d1c2f0e-1111-4222-8333-944455556666.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _session(claude_records)))
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    ingest_paths(store, [path], Defaults(repo="acme/shipit"))
    result = extract(store, repo_roots=[tmp_path / "repos"])
    [failure] = [m for m in result.memories if m.type is MemoryType.FAILURE]
    assert "tests/test_labels.py::test_label_id_is_carrier_scoped" in failure.summary
    assert "the passing fix used `shipit.ids`, `make_label_id`" in failure.summary
    assert "instead of `uuid4`" in failure.summary or "instead of `hex`" in failure.summary
    assert "make_label_id(order.carrier" not in failure.summary  # names, not the copied line
    [cited] = [c for c in failure.citations if c.kind is CitationKind.FILE
               and c.start_line == 7]
    assert cited.path == "shipit/labels.py" and cited.commit == end
    assert cited.lines_sha256 is not None
    assert "lines-hash-unknown" not in failure.tags  # every edit's lines were found and hashed
    store.close()
