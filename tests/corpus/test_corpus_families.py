"""The families' design: enough decoys everywhere, writings of other sizes that carry no evidence,
and the three families that
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
from evals.corpus.gitrepo import FileChanges
from evals.corpus.repos import (
    billing_scaffold,
    parcels_scaffold,
    parcels_services,
    repo_plans,
    shop_scaffold,
)
from evals.corpus.sizes import RankDealer, code_size
from evals.corpus.spec import Family
from evals.permute import gold_id
from evals.tasks import Task

PARCELS = ("parcels-weight-units", "parcels-scan-clock", "parcels-service-catalog")
SCAFFOLDS = {"acme/shop-orders": shop_scaffold.scaffold,
             "acme/billing-api": billing_scaffold.scaffold,
             "acme/parcels": parcels_scaffold.scaffold}


def _service_plans():  # type: ignore[no-untyped-def]
    return [p for p in repo_plans(Path("unused")) if p.name in SCAFFOLDS]


def _memory_terms() -> set[str]:
    found: set[str] = set()
    for plan in repo_plans(Path("unused")):
        for family in plan.families:
            for fact in family.oracle_facts:
                found |= terms(fact.summary).union(*(terms(c) for c in fact.conditions))
    return found


def _added_terms(base: dict[str, str], changes: FileChanges) -> set[str]:
    import difflib

    from evals.agents.selector import code_lines

    found: set[str] = set()
    for path, text in changes.items():
        diff = difflib.unified_diff((base.get(path) or "").splitlines(),
                                    (text or "").splitlines(), lineterm="")
        added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
        found |= terms("\n".join(code_lines(added)))
    return found


def _check_writings(family: Family, files: dict[str, str], memory: set[str]) -> int:
    """Every writing of every candidate of ``family``'s evaluation tasks: its size differs from
    the first writing's, and it adds no memory term (a decoy's: none the gold lacks)."""
    checked = 0
    for variant in family.variants[family.history:]:
        rendered = variant.render(files)
        base = {**files, **{k: v for k, v in rendered.site.items() if v}}
        golds = (rendered.gold, *rendered.gold_forms)
        gold_terms = set.intersection(*(_added_terms(base, g) for g in golds))
        for first, others, allowed in (
                (rendered.gold, rendered.gold_forms, set()),
                *((d.changes, d.forms, gold_terms) for d in rendered.decoys)):
            plain = _added_terms(base, first)
            for form in others:
                new = (_added_terms(base, form) - plain) & memory
                assert new <= allowed, (family.id, variant.key, sorted(new - allowed))
                checked += 1
    return checked


def test_writings_of_other_sizes_add_no_memory_term():
    """A writing (a guard, a named local, the other fix's shape) changes a candidate's code
    size, never its evidence: a memory, oracle or placebo, cannot tell it from the first."""
    memory = _memory_terms()
    checked = 0
    for plan in _service_plans():
        files = {k: v for k, v in SCAFFOLDS[plan.name]().items() if v is not None}
        for family in plan.families:
            checked += _check_writings(family, files, memory)
    assert checked > 100


def test_toolz_writings_add_no_memory_term():
    from evals.corpus.repos.toolz_sentinels import FAMILY
    from evals.corpus.repos.toolz_source import TOOLZ_SDIST, sdist_files

    sdist = Path(".dreamer/cache/corpus") / TOOLZ_SDIST
    if not sdist.exists():
        pytest.skip(f"no {sdist} (the full corpus build downloads it)")
    files = {k: v for k, v in sdist_files(sdist).items() if v is not None}
    assert _check_writings(FAMILY, files, _memory_terms()) >= 8


def _patch(lines: int) -> str:
    return "--- a/f.py\n+++ b/f.py\n" + "".join(f"+x{i} = {i}\n" for i in range(lines))


def test_rank_dealer_spreads_the_gold_rank_evenly():
    # Candidates given as their patches: the gold comes in 3 or 5 code lines, the decoys in
    # 2 or 4 and 1 or 6, so every rank of 3 is reachable.
    forms = [[{"f.py": _patch(3)}, {"f.py": _patch(5)}],
             [{"f.py": _patch(2)}, {"f.py": _patch(4)}],
             [{"f.py": _patch(1)}, {"f.py": _patch(6)}]]
    dealer = RankDealer("fam", 3, "seed")
    ranks = []
    for n in range(7):
        gold, decoys = dealer.deal(forms, lambda c: c["f.py"], f"task-{n}")
        sizes = [code_size(gold["f.py"]), *(code_size(d["f.py"]) for d in decoys)]
        assert len(set(sizes)) == 3
        ranks.append(sorted(sizes).index(sizes[0]))
    assert sorted(dealer.counts) == [2, 2, 3] and sorted(ranks.count(r) for r in range(3)) == [
        2, 2, 3]


def test_rank_dealer_refuses_candidates_that_always_tie():
    from evals.corpus.errors import CorpusError

    same = [{"f.py": _patch(2)}]
    with pytest.raises(CorpusError, match="task-x.*no writing"):
        RankDealer("fam", 2, "seed").deal([same, same], lambda c: c["f.py"], "task-x")


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
