"""A SWE-bench row's repository from a repos folder: archives, git mirrors, bundles."""

from __future__ import annotations

import json
import subprocess
import tarfile
from pathlib import Path

import pytest

from evals.errors import TaskLoadError
from evals.examples.gitrepo import init_repo
from evals.runner import run_task
from evals.swebench.grade import is_swebench_row
from evals.swebench.validate import FixedPatch
from evals.tasks import load_tasks
from evals.workspace import Workspace

FILES = {"pkg/__init__.py": "VALUE = 1\n", "README.md": "hello\n"}


def _row(instance_id: str, repo: str, base: str) -> dict[str, object]:
    return {"instance_id": instance_id, "repo": repo, "base_commit": base, "version": "1.0",
            "patch": "", "test_patch": "", "FAIL_TO_PASS": "[]", "PASS_TO_PASS": "[]"}


def _suite(tmp_path: Path, *rows: dict[str, object]) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _archive(folder: Path, instance_id: str, files: dict[str, str]) -> Path:
    tree = folder / "tree" / instance_id
    for rel, text in files.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text)
    archive = folder / f"{instance_id}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree, arcname=instance_id)
    return archive


def test_rows_without_source_are_swe_bench_rows_and_find_their_archive(tmp_path: Path) -> None:
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    _archive(mirrors, "acme__lib-7", FILES)
    suite = _suite(tmp_path, _row("acme__lib-7", "acme/lib", "f" * 40),
                   _row("acme__lib-9", "acme/lib", "e" * 40))
    found, missing = load_tasks(suite, repos_dir=mirrors)
    assert is_swebench_row(found) and is_swebench_row(missing)
    assert found.source.kind == "archive"
    assert found.source.location == str(mirrors / "acme__lib-7.tar.gz")
    with Workspace.create(found) as ws:
        assert (ws.path / "pkg" / "__init__.py").read_text() == "VALUE = 1\n"
    # A row with no mirror stays unavailable, and says what was looked for and where.
    assert missing.source.kind == "swe-bench"
    patch = "--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -1 +1 @@\n-VALUE = 1\n+VALUE = 2\n"
    result = run_task(missing, FixedPatch(patch, "a fix"))
    assert result.status == "infra_error" and result.reason == "repository unavailable"
    # An empty patch needs no repository to be judged: it is never resolved.
    empty = run_task(missing, FixedPatch("", "empty"))
    assert empty.status == "unresolved" and empty.reason == "empty patch"


@pytest.mark.parametrize("layout", ["bare", "clone", "bundle"])
def test_git_mirrors_bare_or_not_and_bundles(tmp_path: Path, layout: str) -> None:
    origin = tmp_path / "origin"
    base = init_repo(origin, FILES, "base")
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    if layout == "bare":
        subprocess.run(["git", "clone", "--quiet", "--bare", str(origin),
                        str(mirrors / "acme__lib.git")], check=True)
    elif layout == "clone":
        subprocess.run(["git", "clone", "--quiet", str(origin), str(mirrors / "acme__lib")],
                       check=True)
    else:
        subprocess.run(["git", "-C", str(origin), "bundle", "create",
                        str(mirrors / "acme__lib.bundle"), "--all"], check=True,
                       capture_output=True)
    (task,) = load_tasks(_suite(tmp_path, _row("acme__lib-3", "acme/lib", base)),
                         repos_dir=mirrors)
    assert task.source.kind == ("bundle" if layout == "bundle" else "git")
    with Workspace.create(task) as ws:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws.path, capture_output=True,
                              text=True, check=True).stdout.strip()
        assert head == base


def test_repos_dir_from_the_environment_and_a_missing_folder_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    _archive(mirrors, "acme__lib-7", FILES)
    suite = _suite(tmp_path, _row("acme__lib-7", "acme/lib", "f" * 40))
    monkeypatch.setenv("DREAMER_REPOS_DIR", str(mirrors))
    assert load_tasks(suite)[0].source.kind == "archive"
    with pytest.raises(TaskLoadError, match="--repos-dir .*nowhere is not a folder"):
        load_tasks(suite, repos_dir=tmp_path / "nowhere")


def test_the_sixteen_dev_archives_are_found(shared_data: Path) -> None:
    rows = load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet",
                      repos_dir=shared_data / "swe-bench" / "repos")
    kinds = [t.source.kind for t in rows]
    assert kinds.count("archive") == 16 and kinds.count("swe-bench") == 7
