"""The dream pipeline and its commands: guarantees a user checks on a planted bank."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreamer.errors import ConfigError
from dreamer.models import MemoryStatus, Session, content_hash, sha256_bytes
from dreamer.pipeline import dream, make_context, trace
from dreamer.stages import STAGE_ORDER
from dreamer.strategy import list_strategies, load_strategy, modify

_spec = importlib.util.spec_from_file_location(
    "planted_bank", Path(__file__).parent / "stages" / "conftest.py"
)
planted = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(planted)  # type: ignore[union-attr]

FAST = ["embedding=tfidf"]


def _default(tmp_path: Path):  # type: ignore[no-untyped-def]
    strategy = modify(load_strategy("default"), sets=FAST)
    return strategy, make_context(strategy, skills_dir=tmp_path / "skills")


def test_default_dream_keeps_input_and_is_deterministic(tmp_path: Path) -> None:
    bank = planted.extraction_bank()
    before = content_hash(bank.model_dump(mode="json"))
    strategy, context = _default(tmp_path)
    first = dream(bank, strategy, context)
    second = dream(planted.extraction_bank(), strategy, make_context(strategy, skills_dir=tmp_path))
    assert content_hash(bank.model_dump(mode="json")) == before
    assert first.bank.id == second.bank.id != bank.id
    assert first.bank.parent_id == bank.id and first.bank.origin.kind == "dream"
    assert first.bank.origin.config_hash == strategy.config_hash()
    # nothing deleted: every input is still there, with a status
    assert {m.id for m in bank.memories} <= {m.id for m in first.bank.memories}
    tokens = first.metrics["active_tokens"]
    assert tokens["after"] < tokens["before"]
    assert set(first.metrics["stages"]) == set(STAGE_ORDER)


def test_every_memory_is_traceable(tmp_path: Path) -> None:
    bank = planted.extraction_bank()
    strategy, context = _default(tmp_path)
    result = dream(bank, strategy, context)
    report = trace(bank, result.bank, result.provenance)
    fates = {row["memory"]: row for row in report["inputs"]}
    assert set(fates) == {m.id for m in bank.memories}
    assert {r["fate"] for r in fates.values()} <= {
        "kept",
        "merged",
        "rewritten",
        "superseded",
        "dormant",
    }
    old = fates[planted.TIMEOUT_OLD.id]
    assert old["fate"] == "superseded" and old["changed_in"] == f"commit:{planted.CHANGE_COMMIT}"
    assert {fates[m.id]["fate"] for m in planted.STATUS} == {"merged"}
    assert {fates[m.id]["fate"] for m in planted.GENERIC} == {"dormant"}
    for row in fates.values():  # a superseded memory ends at an active one
        if "into" in row:
            assert result.bank.get(row["into"]).status is MemoryStatus.ACTIVE
    for row in report["outputs"]:
        assert row["inputs"] and row["stage"] in STAGE_ORDER
        made = result.bank.get(row["memory"])
        inherited = {c for p in row["inputs"] for c in _ancestors_citations(result.bank, p)}
        assert inherited <= set(made.citations)  # no evidence lost on the way


def _ancestors_citations(bank, memory_id):  # type: ignore[no-untyped-def]
    return bank.get(memory_id).citations


def test_none_is_identity_and_ablations_leave_one_stage_out() -> None:
    bank = planted.extraction_bank()
    assert dream(bank, modify(load_strategy("none"), sets=FAST)).bank.id == bank.id
    names = list_strategies()
    assert {"default", "none", "aggressive", "lm-abstraction"} <= set(names)
    for stage in STAGE_ORDER:
        ablation = load_strategy(f"no-{stage}")
        assert [s.name for s in ablation.stages] == [s for s in STAGE_ORDER if s != stage]


def test_skip_and_set_make_a_new_strategy_and_refuse_unknowns() -> None:
    base = load_strategy("default")
    changed = modify(base, skip=["promotion"], sets=["dedupe.threshold=0.7", "embedding=tfidf"])
    assert "promotion" not in [s.name for s in changed.stages]
    assert changed.stages[0].params == {"threshold": 0.7} and changed.embedding == "tfidf"
    assert changed.config_hash() != base.config_hash()
    for bad in (
        dict(skip=["dreaming"]),
        dict(sets=["dedupe.treshold=0.7"]),
        dict(sets=["dedupe.threshold=high"]),
        dict(sets=["nothing"]),
    ):
        with pytest.raises(ConfigError):
            modify(base, **bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no strategy"):
        load_strategy("no-such-strategy")


def test_dream_and_diff_commands(tmp_path: Path) -> None:
    from dreamer.cli import app
    from dreamer.store import open_store

    store = open_store()
    raw = b'{"trajectory": "planted"}'
    session = Session(
        id=Session.make_id(sha256_bytes(raw), 0),
        source_format="test",
        raw_sha256=sha256_bytes(raw),
        repo=planted.REPO,
        branch="main",
    )
    store.evidence.add_ingested(raw, "planted.json", "test", [session])
    bank = planted.extraction_bank()
    store.banks.put(bank)
    evidence_before = _evidence_hash(store)
    stored_before = store.banks.get(bank.id).model_dump_json()
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "dream",
            "--bank",
            bank.id,
            "--strategy",
            "default",
            "-S",
            "embedding=tfidf",
            "--skip-stage",
            "promotion",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["parent"] == bank.id
    assert summary["active_tokens"]["after"] < summary["active_tokens"]["before"]
    assert summary["stages"]["dedupe"]["merged"] >= 1 and "promotion" not in summary["stages"]
    assert store.banks.alias("candidate") == summary["bank"]
    assert store.banks.get(bank.id).model_dump_json() == stored_before  # input untouched
    assert _evidence_hash(store) == evidence_before
    out = runner.invoke(app, ["diff", bank.id, "candidate", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    reasons = {r["memory"]: r["reason"] for r in report["inputs"]}
    assert planted.CHANGE_COMMIT in reasons[planted.TIMEOUT_OLD.id]
    text = runner.invoke(app, ["diff", bank.id, "candidate"]).output
    assert "superseded" in text and "merged" in text
    bad = runner.invoke(app, ["dream", "--bank", bank.id, "-S", "dedupe.nope=1"])
    assert bad.exit_code == 2 and "nope" in bad.output


def test_ablate_tabulates_every_ablation() -> None:
    from dreamer.cli import app
    from dreamer.store import open_store

    bank = planted.extraction_bank()
    open_store().banks.put(bank)
    out = CliRunner().invoke(app, ["ablate", "--bank", bank.id, "-S", "embedding=tfidf", "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["strategy"]: r for r in json.loads(out.stdout)}
    assert set(rows) >= {"none", "default", *(f"no-{s}" for s in STAGE_ORDER)}
    assert rows["none"]["bank"] == bank.id
    unchanged = [s for s in STAGE_ORDER if rows[f"no-{s}"]["same_bank_as_default"]]
    # With TF-IDF, dedupe already merges the three ImportError episodes (they share most
    # character n-grams), so abstraction finds nothing left; MiniLM keeps them apart (see
    # tests/stages/test_similarity.py) and abstraction writes their rule.
    assert unchanged == ["abstraction"]
    assert rows["default"]["stages"]["abstraction"]["rules"] == 0


def _evidence_hash(store) -> str:  # type: ignore[no-untyped-def]
    sessions = [s.model_dump(mode="json") for s in store.evidence.sessions()]
    for s in sessions:
        s["metadata"].pop("event_count", None)
    return content_hash([sessions, [r.sha256 for r in store.evidence.ingestions()]])


def test_every_stage_can_judge_with_a_language_model(tmp_path: Path) -> None:
    from dreamer.lm import canned_lm, make_lm

    answers = {"same": True, "relation": "compatible", "rule": "unused", "module": "any",
               "summary": "unused", "related": True, "generic": False,
               "steps": ["INTEGRATION=1 make test-integration"]}

    def respond(prompt: str) -> dict[str, object]:
        wanted = [f for f in answers if f"[[ ## {f} ## ]]" in prompt.split("Respond with")[-1]]
        return {f: answers[f] for f in wanted[:1]}

    lm, engine = canned_lm(respond)
    strategy = modify(load_strategy("default"), sets=FAST)
    result = dream(planted.extraction_bank(), strategy,
                   make_context(strategy, lm, skills_dir=tmp_path))
    asked = {f for p in engine.prompts for f in answers
             if f"[[ ## {f} ## ]]" in p.split("Respond with")[-1]}
    print(sorted(asked))
    assert asked >= {"same", "relation", "related", "generic", "steps"}
    assert result.bank.origin.config["lm"] == "canned/test"
    assert all(m["lm_failures"] == 0 for m in result.metrics["stages"].values())
    # "compatible" everywhere: the LM, not the offline rule, kept the old timeout rule active
    assert result.bank.get(planted.TIMEOUT_OLD.id).status is not MemoryStatus.SUPERSEDED
    assert make_lm(None) is None and make_lm("offline") is None
    with pytest.raises(ConfigError):
        make_lm("gpt4")


def test_ablate_without_a_bank_dreams_every_repository_of_the_suite() -> None:
    from dreamer.cli import app
    from dreamer.commands.dream import _dream_union
    from dreamer.models import Bank
    from dreamer.store import open_store

    store = open_store()
    by_repo: dict[str, list] = {}
    for memory in planted.extraction_bank().memories:
        by_repo.setdefault(memory.scope.repo, []).append(memory)
    for repo, memories in by_repo.items():
        bank = Bank(repo=repo, memories=tuple(memories))
        store.banks.put(bank)
        store.banks.move_alias("extraction", bank.id, repo=repo, reason="test", actor="test")
    row = _dream_union(store, sorted(by_repo), "default", FAST, None)
    union = store.banks.get(row["bank"])
    assert {m.scope.repo for m in union.memories} == set(by_repo)
    assert set(row["stages"]) == set(by_repo)
    assert row["active_tokens"]["after"] < row["active_tokens"]["before"]
    assert row["active_memories"]["before"] == len(planted.extraction_bank().memories)
    out = CliRunner().invoke(app, ["ablate"])
    assert out.exit_code == 2 and "--suite" in out.output
    sample = Path(__file__).resolve().parents[1] / "datasets" / "sample"
    out = CliRunner().invoke(app, ["ablate", "--suite", str(sample), "--repo", "acme/nowhere"])
    assert out.exit_code == 2 and "has no task of acme/nowhere" in out.output


def test_active_tokens_counted_line_by_line_equal_the_joined_texts_count(tmp_path: Path) -> None:
    import sys

    from dreamer.bank_tokens import active_tokens
    from dreamer.models import Bank, BankOrigin
    from dreamer.router import render
    from dreamer.tokens import count_tokens

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from synthetic_bank import synthetic_bank

    # Lines that end in punctuation, spaces or a newline of their own, digits and non-ASCII
    # text: where a tokenizer could merge across the join if any could.
    awkward = [planted.memory("domain", summary, [planted.session("a1")], 3) for summary in (
        "Ends in a full stop.", "Ends in spaces   ", "Two lines:\nthe second\n", "It's 100%!",
        "Ünïcode — ça marche ✓", "x" * 300, "`make test`\n\n", "123456789",
    )]
    strategy, context = _default(tmp_path)
    banks = [planted.extraction_bank(), synthetic_bank(600),
             Bank(origin=BankOrigin(kind="extraction"), memories=tuple(awkward))]
    banks.append(dream(banks[0], strategy, context).bank)
    for bank in banks:
        whole = count_tokens("\n".join(render(m) for m in bank.active))
        assert active_tokens(bank) == whole > 0
        assert active_tokens(bank) == whole  # again, from the per-line cache
    assert active_tokens(Bank(origin=BankOrigin(kind="extraction"), memories=())) == 0


def test_a_dream_hides_its_heap_from_the_collector_and_then_gives_it_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """During a dream the bank is frozen out of the cyclic collector's full passes; after it,
    even one whose stage fails, nothing stays frozen and a cycle made meanwhile is collected."""
    import gc
    import weakref

    from dreamer.stages import STAGES

    class Node:
        def __init__(self) -> None:
            self.me = self

    seen: list[int] = []
    cycles: list[weakref.ref[Node]] = []
    dedupe = STAGES.get("dedupe")
    run = dedupe.run

    def watched(self, bank, context):  # type: ignore[no-untyped-def]
        seen.append(gc.get_freeze_count())
        node = Node()
        cycles.append(weakref.ref(node))
        del node
        return run(self, bank, context)

    monkeypatch.setattr(dedupe, "run", watched)
    assert gc.get_freeze_count() == 0
    strategy, context = _default(tmp_path)
    result = dream(planted.extraction_bank(), strategy, context)
    assert seen and seen[0] > 0  # the bank and what was built before the stage: frozen
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert cycles[0]() is None
    assert result.bank.active

    def failing(self, bank, context):  # type: ignore[no-untyped-def]
        raise RuntimeError("stage broke")

    monkeypatch.setattr(dedupe, "run", failing)
    with pytest.raises(RuntimeError, match="stage broke"):
        dream(planted.extraction_bank(), strategy, make_context(strategy, skills_dir=tmp_path))
    assert gc.get_freeze_count() == 0
