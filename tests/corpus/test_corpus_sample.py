"""The committed sample corpus: counts, formats, evidence, and tasks that really run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from evals.corpus.audit import load_corpus_tasks
from evals.corpus.certify import oracle_pack
from evals.corpus.info import SAMPLE, corpus_info, materialise
from evals.corpus.noise import NOISE_CLASSES

pytestmark = pytest.mark.skipif(not (SAMPLE / "tasks.jsonl").exists(), reason="no sample built")


def _sessions() -> list[dict]:
    lines = (SAMPLE / "sessions.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_info_counts_match_the_files():
    info = corpus_info(SAMPLE)
    tasks = load_corpus_tasks(SAMPLE)
    assert info["tasks"] == len(tasks) >= 8
    assert info["families"] == len({t.family for t in tasks}) >= 2
    assert info["certified"] == sum(1 for t in tasks if t.certified)
    assert info["certified"] + info["uncertified"] == info["tasks"]
    assert info["sessions"] == len(_sessions()) == len(list((SAMPLE / "sessions").glob("*.traj")))
    assert set(info["noise"]) == set(NOISE_CLASSES)
    assert all(count > 0 for count in info["noise"].values()), info["noise"]


def test_cli_info_json_has_the_documented_keys():
    result = CliRunner().invoke(app, ["corpus", "info", str(SAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"families", "tasks", "certified", "sessions", "noise"} <= set(data)
    assert data["tasks"] == corpus_info(SAMPLE)["tasks"]


def test_sessions_are_swe_agent_trajectories_with_real_commits():
    heads = json.loads((SAMPLE / "manifest.json").read_text())["repo_heads"]
    for row in _sessions():
        doc = json.loads((SAMPLE / row["file"]).read_text())
        assert {"environment", "trajectory", "history", "info"} <= set(doc)
        step_keys = set(doc["trajectory"][0])
        assert {"action", "observation", "response", "thought", "state"} <= step_keys
        assert doc["info"]["exit_status"] in ("submitted", "early_exit")
        first = doc["trajectory"][0]
        assert first["action"].startswith("git log -1")
        assert row["commit_start"] in first["observation"]
        assert re.fullmatch(r"[a-z]+__[a-z-]+-\d+\.traj", row["file"].split("/")[-1])
    assert heads


def test_every_family_fact_is_shown_as_evidence():
    tasks = load_corpus_tasks(SAMPLE)
    for family in {t.family for t in tasks}:
        kinds = set()
        for row in (r for r in _sessions() if r["family"] == family):
            text = (SAMPLE / row["file"]).read_text()
            if re.search(r"FAILED \S+::\S+ - ", text):
                kinds.add("failing test")
            if "Review comment from @" in text:
                kinds.add("review")
            if "QA defect DEF-" in text or "Issue report from" in text:
                kinds.add("defect")
        assert "failing test" in kinds and len(kinds) >= 2, (family, kinds)


def test_secrets_are_printed_where_the_manifest_says():
    rows = [r for r in _sessions() if "secret" in r["noise"]]
    assert rows
    for row in rows:
        text = (SAMPLE / row["file"]).read_text()
        assert row["secrets"] and all(value in text for value in row["secrets"])


def test_size_carries_no_signal_and_descriptions_name_nothing():
    from collections import Counter

    from evals.corpus.repos import repo_plans
    from evals.corpus.sizes import check_descriptions, code_size

    identifiers = {f.id: f.identifiers for plan in repo_plans(Path("/nonexistent"))
                   for f in plan.families}
    ranks: dict[str, Counter[int]] = {}
    for task in load_corpus_tasks(SAMPLE):
        gold = [c for c in task.candidates if c.patch == task.patch]
        decoys = [c for c in task.candidates if c.patch != task.patch]
        assert len(gold) == 1 and decoys
        # By code lines, the size the size controls compare: comments cannot move it.
        sizes = sorted(code_size(c.patch) for c in task.candidates)
        assert len(set(sizes)) == len(sizes), task.instance_id  # no size ties
        rank = sizes.index(code_size(task.patch))
        ranks.setdefault(task.family or "", Counter())[rank] += 1
        assert not check_descriptions([c.description for c in task.candidates],
                                      identifiers[task.family or ""]), task.instance_id
        assert all(c.description.startswith("a change of ") for c in task.candidates)
        # No padding: no candidate adds a line that is only a comment.
        for candidate in task.candidates:
            added = [line for line in candidate.patch.splitlines()
                     if line.startswith("+") and not line.startswith("+++")]
            assert not [line for line in added if line[1:].lstrip().startswith("#")], (
                task.instance_id, candidate.id)
    for family, seen in ranks.items():
        # The gold is the smallest in some tasks, the largest in some: each rank comes up, and
        # no rank more than once beyond any other.
        k = len(next(t for t in load_corpus_tasks(SAMPLE) if t.family == family).candidates)
        assert set(seen) == set(range(k)), (family, seen)
        assert max(seen.values()) - min(seen.values()) <= 1, (family, seen)


def test_size_controls_are_within_chance_on_every_family():
    """Taking the largest (or the smallest) patch by code lines does no better, and no worse,
    than chance plus or minus one task's worth: in the certification's own runs, and recounted
    from the tasks."""
    from evals.corpus.sizes import code_size

    record = json.loads((SAMPLE / "certification.json").read_text())
    tasks = load_corpus_tasks(SAMPLE)
    assert set(record["families"]) == {t.family for t in tasks}
    for family, row in record["families"].items():
        mine = [t for t in tasks if t.family == family]
        chance = sum(1 / len(t.candidates) for t in mine) / len(mine)
        assert row["tolerance"] == pytest.approx(1 / len(mine), abs=1e-4)
        assert row["size_neutral"] is True, (family, row)
        for arm, pick in (("largest", max), ("smallest", min)):
            assert abs(row[arm]["rate"] - chance) <= row["tolerance"] + 1e-9, (family, arm)
            wins = sum(pick(code_size(c.patch) for c in t.candidates) == code_size(t.patch)
                       for t in mine)
            assert abs(wins / len(mine) - chance) <= 1 / len(mine) + 1e-9, (family, arm)
            assert wins / len(mine) == pytest.approx(row[arm]["rate"], abs=1e-4), (family, arm)


def test_a_certified_task_is_decided_by_memory(tmp_path):
    from evals.runner import run_task
    from evals.tasks import load_tasks

    folder = materialise(SAMPLE, tmp_path / "corpus")
    task = next(t for t in load_tasks(folder) if t.certified and t.repo == "acme/shop-orders")
    with_memory = run_task(task, agent="selector", pack=oracle_pack(task), timeout=60)
    without = run_task(task, agent="selector", pack=None, timeout=60)
    assert with_memory.status == "resolved", with_memory.reason
    assert without.status == "unresolved", without.reason


def test_bundles_load_directly_in_the_harness():
    from evals.tasks import load_tasks

    tasks = load_tasks(SAMPLE)
    assert tasks and all(t.source.kind == "bundle" for t in tasks)
    assert all(t.source.location.endswith(".bundle") for t in tasks)
