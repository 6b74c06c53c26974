"""Loading suites: SWE-bench's own files in full, and every format a suite may come in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.errors import TaskLoadError
from evals.examples.demo import DemoSuite
from evals.tasks import load_tasks, save_tasks


def test_swe_bench_lite_dev_parquet_loads_in_full(shared_data: Path) -> None:
    tasks = load_tasks(shared_data / "swe-bench" / "swe-bench-lite-dev.parquet")
    assert len(tasks) == 23
    assert len({t.instance_id for t in tasks}) == 23
    first = tasks[0]
    assert first.FAIL_TO_PASS == ("test/cli/commands_test.py::test__cli__command_directed",)
    assert all(t.FAIL_TO_PASS and isinstance(t.PASS_TO_PASS, tuple) for t in tasks)
    assert all(t.patch.startswith("diff --git") and t.test_patch and t.base_commit for t in tasks)
    assert first.source.kind == "swe-bench" and first.created_at is not None
    assert first.model_extra and "eval_script" in first.model_extra  # SWE-bench's extras kept


def test_swe_bench_lite_test_json_loads_in_full(shared_data: Path) -> None:
    tasks = load_tasks(shared_data / "swe-bench" / "swe-bench-lite-test-5.json")
    assert [t.instance_id for t in tasks][0] == "django__django-16255"
    assert len(tasks) == 5
    assert tasks[0].FAIL_TO_PASS == (
        "test_callable_sitemod_no_items (sitemaps_tests.test_http.HTTPSitemapTests)",)
    assert len(tasks[0].PASS_TO_PASS) > 5


def test_suite_folder_jsonl_resolves_repositories_against_its_folder(demo: DemoSuite) -> None:
    raw = json.loads((demo.path / "tasks.jsonl").read_text().splitlines()[0])
    assert raw["source"]["location"] == "repos/pricing"  # relative on disk
    tasks = load_tasks(demo.path)
    assert tasks[0].source.location == str(demo.path / "repos" / "pricing")
    assert [len(t.candidates) for t in tasks] == [2, 2, 2]


def test_suite_name_is_found_under_dreamer_suites(demo: DemoSuite, monkeypatch) -> None:
    monkeypatch.setenv("DREAMER_SUITES", str(demo.path.parent))
    assert [t.instance_id for t in load_tasks(demo.path.name)] == [
        t.instance_id for t in demo.tasks]
    with pytest.raises(TaskLoadError, match="no suite 'no-such-suite'"):
        load_tasks("no-such-suite")


def test_parquet_json_and_hf_disk_round_trip(demo: DemoSuite, tmp_path: Path) -> None:
    import pandas as pd

    from datasets import Dataset

    rows = [json.loads(t.model_dump_json()) for t in demo.tasks]
    # Nested fields as JSON strings, the way SWE-bench-style parquet files carry lists.
    flat = [{**r, "candidates": json.dumps(r["candidates"]), "source": json.dumps(r["source"]),
             "oracle_memories": json.dumps(r["oracle_memories"]),
             "FAIL_TO_PASS": json.dumps(r["FAIL_TO_PASS"])} for r in rows]
    pd.DataFrame(flat).to_parquet(tmp_path / "tasks.parquet")
    (tmp_path / "tasks.json").write_text(json.dumps(rows))
    Dataset.from_list(flat).save_to_disk(str(tmp_path / "hf"))
    for ref in (tmp_path / "tasks.parquet", tmp_path / "tasks.json", tmp_path / "hf"):
        loaded = load_tasks(ref)
        assert loaded == demo.tasks, ref


def test_duplicate_instances_are_refused(demo: DemoSuite, tmp_path: Path) -> None:
    save_tasks([demo.tasks[0], demo.tasks[0]], tmp_path / "dup.jsonl")
    with pytest.raises(TaskLoadError, match="twice"):
        load_tasks(tmp_path / "dup.jsonl")


def test_oracle_memories_are_checked_when_the_task_loads() -> None:
    """A bad oracle memory is reported with its place at load time, not half-way through a
    run; a one-sentence ``conditions`` and links written as words are read as meant."""
    import pytest as _pytest

    from evals.tasks import Task

    row = {"instance_id": "acme__lib-1", "repo": "acme/lib", "base_commit": "abc",
           "problem_statement": "p", "patch": ""}
    memory = {"type": "domain", "scope": {"repo": "acme/lib"}, "summary": "Use `fmt_date`.",
              "citations": [{"kind": "session", "ref": "s05"}],
              "conditions": "only in loans/notices", "links": ["the renewal piece"]}
    task = Task.model_validate({**row, "oracle_memories": [memory]})
    [read] = task.oracle_memories
    assert read["conditions"] == ["only in loans/notices"]
    assert read["links"] == [{"relation": "related", "target": "the renewal piece"}]
    with _pytest.raises(ValueError, match=r"oracle_memories\[0\]\.citations"):
        Task.model_validate({**row, "oracle_memories": [{**memory, "citations": "s05"}]})
