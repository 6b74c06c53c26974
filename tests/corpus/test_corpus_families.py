"""The families' design: enough decoys everywhere, neutral padding, and the three families that
need a dream stage (a rule per module, a fact in two pieces, a procedure seen again and again),
built for real in a small corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dreamer.models import Memory, Scope
from evals.agents.evidence import terms
from evals.agents.selector import scores
from evals.corpus.audit import load_corpus_tasks
from evals.corpus.build import build_corpus
from evals.corpus.certify import oracle_pack
from evals.corpus.config import CorpusConfig
from evals.corpus.repos import (
    billing_scaffold,
    parcels_scaffold,
    parcels_services,
    repo_plans,
    shop_scaffold,
)
from evals.corpus.sizes import PADDING
from evals.permute import gold_id
from evals.tasks import Task

PARCELS = ("parcels-weight-units", "parcels-scan-clock", "parcels-service-catalog")
SCAFFOLDS = {"acme/shop-orders": shop_scaffold.scaffold,
             "acme/billing-api": billing_scaffold.scaffold,
             "acme/parcels": parcels_scaffold.scaffold}


def _service_plans():  # type: ignore[no-untyped-def]
    return [p for p in repo_plans(Path("unused")) if p.name in SCAFFOLDS]


def test_padding_lines_hold_no_evidence_term():
    assert all(terms(line) == set() for line in PADDING)


def test_every_evaluation_task_has_two_decoys_that_differ_from_the_gold():
    # Rendered against the first commit: the variants' fixes do not depend on later history
    # (toolz's need the downloaded sdist and are checked by the full build).
    for plan in _service_plans():
        files = {k: v for k, v in SCAFFOLDS[plan.name]().items() if v is not None}
        for family in plan.families:
            assert family.identifiers, family.id
            for variant in family.variants[family.history:]:
                rendered = variant.render(files)
                assert len(rendered.decoys) >= 2, (family.id, variant.key)
                assert all(d.changes != rendered.gold for d in rendered.decoys)


def test_toolz_injections_have_two_decoys():
    from evals.corpus.repos.toolz_sentinels import FAMILY, SOURCE
    from evals.corpus.repos.toolz_source import TOOLZ_SDIST, sdist_files

    sdist = Path(".dreamer/cache/corpus") / TOOLZ_SDIST
    if not sdist.exists():
        pytest.skip(f"no {sdist} (the full corpus build downloads it)")
    files = {k: v for k, v in sdist_files(sdist).items() if v is not None}
    for variant in FAMILY.variants:
        rendered = variant.render(files)
        assert len(rendered.decoys) == 2
        first, second = (d.changes[SOURCE] for d in rendered.decoys)
        # The second decoy also drops the sentinel from the default (None instead).
        assert first.count("no_default") + first.count("no_pad") > (
            second.count("no_default") + second.count("no_pad"))


@pytest.fixture(scope="module")
def parcels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("parcels")
    build_corpus(CorpusConfig(out=out, families=PARCELS, variants_per_family=5, certify=False,
                              workers=2))
    return out


def _tasks(folder: Path, family: str) -> list[Task]:
    return [t for t in load_corpus_tasks(folder) if t.family == family]


def _history(folder: Path, family: str) -> list[Task]:
    lines = (folder / "history.jsonl").read_text().splitlines()
    return [t for t in (Task.model_validate(json.loads(line)) for line in lines)
            if t.family == family]


def _chosen(task: Task, memories: list[Memory]) -> str | None:
    score = scores(task.candidates, memories)
    top = max(score.values())
    best = [cid for cid, value in score.items() if value == top]
    return best[0] if top > 0 and len(best) == 1 else None


def _sessions(folder: Path, family: str) -> list[dict]:
    rows = [json.loads(line) for line in (folder / "sessions.jsonl").read_text().splitlines()]
    return [r for r in rows if r["family"] == family]


def test_weight_rule_holds_in_rating_and_not_in_customs(parcels):
    rating_fact, customs_fact = oracle_pack(_tasks(parcels, "parcels-weight-units")[0]).memories
    assert (rating_fact.scope.module, customs_fact.scope.module) == ("parcels/rating",
                                                                      "parcels/customs")
    customs = _tasks(parcels, "parcels-weight-units")
    assert customs and all("parcels/customs/" in t.patch for t in customs)
    for task in customs:
        naive = [c for c in task.candidates if "to_grams" in c.patch]
        assert naive and gold_id(task) not in {c.id for c in naive}
        assert _chosen(task, [rating_fact, customs_fact]) == gold_id(task)
        # The rating rule, generalised to the whole repository, picks the wrong fix here.
        everywhere = rating_fact.model_copy(update={"scope": Scope(repo=rating_fact.scope.repo)})
        assert _chosen(task, [everywhere]) in {c.id for c in naive}
    rating = [t for t in _history(parcels, "parcels-weight-units") if "parcels/rating/" in t.patch]
    assert rating and all("to_grams" in t.patch for t in rating)


def test_scan_clock_fact_comes_in_two_pieces_from_different_sessions(parcels):
    tasks = _tasks(parcels, "parcels-scan-clock")
    symptom, rule = oracle_pack(tasks[0]).memories
    assert {link.target for link in symptom.links} == {rule.id}
    cited = [{c.ref for c in m.citations if c.kind.value in ("session", "review", "defect")}
             for m in (symptom, rule)]
    assert cited[0] and cited[1] and not cited[0] & cited[1]
    assert any(c.kind.value == "defect" for c in symptom.citations)
    for task in tasks:
        statement = task.problem_statement.lower()
        assert not any(word in statement for word in ("parse_scan_time", "clock", "timezone",
                                                      "depot_timezones"))
        assert _chosen(task, [symptom, rule]) == gold_id(task)
        assert _chosen(task, [symptom]) is None  # the symptom alone names no fix


def test_catalog_procedure_is_confirmed_by_three_failing_tests_and_the_command(parcels):
    tasks = _tasks(parcels, "parcels-service-catalog")
    memory = oracle_pack(tasks[0]).memories[0]
    assert memory.type.value == "procedural"
    assert all(_chosen(task, [memory]) == gold_id(task) for task in tasks)
    sessions = _sessions(parcels, "parcels-service-catalog")
    assert len(sessions) >= 3 and {c.ref for c in memory.citations} >= {
        s["instance_id"] for s in sessions}
    for row in sessions:
        steps = json.loads((parcels / row["file"]).read_text())["trajectory"]
        actions = [s["action"].strip() for s in steps]
        failing = next(i for i, s in enumerate(steps) if "stale: run `make catalog`"
                       in s["observation"])
        assert "make catalog" in actions[failing + 1:]
        assert "passed" in steps[-1]["observation"] and "failed" not in steps[-1]["observation"]


def test_make_catalog_really_writes_the_gold_catalog(parcels, tmp_path):
    task = _tasks(parcels, "parcels-service-catalog")[0]
    work = tmp_path / "work"
    subprocess.run(["git", "clone", "-q", str(parcels / "repos" / "acme__parcels"), str(work)],
                   check=True)
    subprocess.run(["git", "checkout", "-q", task.base_commit], cwd=work, check=True)
    subprocess.run(["git", "apply", "--include", parcels_services.REGISTRY, "-"], cwd=work,
                   input=task.patch, text=True, check=True)
    run = subprocess.run([sys.executable, "-m", "parcels.services.build_catalog"], cwd=work,
                         capture_output=True, text=True, check=True)
    assert run.stdout.startswith("wrote parcels/services/_catalog.py")
    subprocess.run(["git", "apply", "--include", parcels_services.CATALOG, "-R", "-"], cwd=work,
                   input=task.patch, text=True, check=True)  # the gold's catalog, exactly
