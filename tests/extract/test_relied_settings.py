"""A constant the passing change relied on is a setting, and the repository's history says when it
changed: the older value is superseded by the newer, naming the commit that changed it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from dreamer.extract import extract
from dreamer.ingest.driver import Defaults, ingest_paths
from dreamer.models import Bank, BankOrigin
from dreamer.stages import STAGES, Similarity, StageContext
from dreamer.store import open_store

SID = "5e1c2f0e-1111-4222-8333-944455556666"
IDS = 'PREFIX_SEPARATOR = "{sep}"\n\n\ndef clean(text):\n    return text.strip()\n'
NAIVE = "def label_id(order):\n    return order.number\n"
FAILING = ("F\n=================================== FAILURES ===================================\n"
           "E       AssertionError: assert '42' == 'UPS-42'\n"
           "=========================== short test summary info ============================\n"
           "FAILED tests/test_labels.py::test_label_id - AssertionError: assert '42' == 'UPS-42'\n"
           "1 failed in 0.03s")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


def _repo(root: Path) -> tuple[str, str]:
    repo = root / "acme__shipit"
    (repo / "shipit").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "shipit" / "ids.py").write_text(IDS.format(sep="-"))
    (repo / "shipit" / "labels.py").write_text(NAIVE)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "labels", "--date", "2026-11-01T09:00:00Z")
    base = _git(repo, "rev-parse", "HEAD")
    (repo / "shipit" / "ids.py").write_text(IDS.format(sep=":"))
    env_date = "2026-11-20T09:00:00+00:00"
    subprocess.run(["git", "commit", "-qam", "ids: colon separator for the new scanners"],
                   cwd=repo, check=True, env={"GIT_COMMITTER_DATE": env_date,
                                              "GIT_AUTHOR_DATE": env_date, "PATH": "/usr/bin:/bin",
                                              "HOME": str(root)})
    return base, _git(repo, "rev-parse", "HEAD")


def _session(claude, base: str) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    c = claude(SID)
    edit = {"file_path": "/home/dev/src/shipit/shipit/labels.py",
            "old_string": NAIVE,
            "new_string": "from shipit.ids import PREFIX_SEPARATOR\n\n\ndef label_id(order):\n"
                          "    return f\"{order.carrier}{PREFIX_SEPARATOR}{order.number}\"\n"}
    return [
        c.record(0, "user", "Label ids must carry the carrier; scanners split them."),
        c.bash(1, "t0", "git rev-parse HEAD"),
        c.result(2, "t0", base, False),
        c.bash(3, "t1", "python -m pytest -rA tests/test_labels.py"),
        c.result(4, "t1", "Exit code 1\n" + FAILING, True),
        c.tool(5, "t2", "Edit", edit),
        c.result(6, "t2", "Applied 1 edit to shipit/labels.py", False),
        c.bash(7, "t3", "python -m pytest -rA tests/test_labels.py"),
        c.result(8, "t3", "tests/test_labels.py::test_label_id PASSED\n1 passed in 0.02s", False),
    ]


def test_a_relied_on_constant_is_followed_through_history_to_the_commit_that_changed_it(  # type: ignore[no-untyped-def]
        tmp_path: Path, claude_records) -> None:
    base, changed = _repo(tmp_path / "repos")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _session(claude_records, base)))
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    ingest_paths(store, [path], Defaults(repo="acme/shipit"))
    result = extract(store, repo_roots=[tmp_path / "repos"])
    [old] = [m for m in result.memories if m.lineage.reason.startswith("relied")]
    assert old.summary.startswith('`PREFIX_SEPARATOR` is "-" (set in `shipit/ids.py`)')
    assert any(c.path == "shipit/ids.py" and c.commit == base and c.lines_sha256
               for c in old.citations)
    [new] = [m for m in result.memories if m.lineage.reason.startswith("history")]
    assert f"is : since commit {changed[:12]}" in new.summary
    assert "ids: colon separator" in new.summary
    store.close()

    bank = Bank(origin=BankOrigin(kind="extraction"), memories=tuple(result.memories))
    conflicts = STAGES.get("conflicts")
    after = conflicts(conflicts.Config()).run(
        bank, StageContext(similarity=Similarity("tfidf"), skills_dir=tmp_path / "skills")).bank
    assert after.get(new.id).is_active
    was = after.get(old.id)
    assert not was.is_active
    assert {(link.relation, link.target) for link in was.links} >= {
        ("superseded_by", new.id), ("changed_in", f"commit:{changed}")}
