"""conflicts: a rule that changed is superseded by the newer one, citing the commit."""

from __future__ import annotations

from dreamer.models import MemoryStatus, Scope


def test_older_rule_is_superseded_citing_the_changing_commit(planted, context, run) -> None:
    result = run("conflicts", planted.bank, context)
    old = result.bank.get(planted.TIMEOUT_OLD.id)
    new = result.bank.get(planted.TIMEOUT_NEW.id)
    assert old.status is MemoryStatus.SUPERSEDED and new.is_active
    links = {(link.relation, link.target) for link in old.links}
    assert ("superseded_by", new.id) in links
    assert ("changed_in", f"commit:{planted.CHANGE_COMMIT}") in links
    [entry] = [p for p in result.provenance if p.action == "superseded"]
    assert entry.inputs == (old.id,) and entry.output == new.id
    assert planted.CHANGE_COMMIT in entry.reason
    # paraphrases of one rule are not contradictions
    assert all(result.bank.get(m.id).is_active for m in planted.STATUS)


def test_same_time_is_unresolved_and_branches_split(planted, context, run, make_bank) -> None:
    twin = planted.TIMEOUT_NEW.model_copy(update={"created_at": planted.TIMEOUT_OLD.created_at})
    result = run("conflicts", make_bank(planted.TIMEOUT_OLD, twin), context)
    assert all(m.is_active and "conflict-unresolved" in m.tags for m in result.bank.memories)
    on_branch = planted.TIMEOUT_NEW.model_copy(
        update={"scope": Scope(repo=planted.REPO, branch="feature/helm")}
    )
    result = run("conflicts", make_bank(planted.TIMEOUT_OLD, on_branch), context)
    [split] = [m for m in result.bank.active if m.lineage.stage == "conflicts"]
    assert "not on branch feature/helm" in split.conditions
    assert result.bank.get(on_branch.id).is_active


def test_lm_relation_decides(planted, context, canned, run) -> None:
    ctx, engine = canned(lambda prompt: {"relation": "compatible"})
    result = run("conflicts", planted.bank, ctx)
    assert engine.prompts and result.bank.get(planted.TIMEOUT_OLD.id).is_active
    ctx, _ = canned(
        lambda p: {"relation": "contradicts" if "request_timeout" in p else "compatible"}
    )
    result = run("conflicts", planted.bank, ctx)
    assert result.bank.get(planted.TIMEOUT_OLD.id).status is MemoryStatus.SUPERSEDED


def test_test_ids_are_not_settings_and_linked_memories_can_be_unresolved(
    planted, context, run, make_bank
) -> None:
    from dreamer.models import Link
    from dreamer.stages.text import contradiction

    assert contradiction("`tests/a.py::test_x` failed.", "`tests/a.py::test_y` failed.") is None
    twin = planted.TIMEOUT_NEW.model_copy(update={
        "created_at": planted.TIMEOUT_OLD.created_at,
        "links": (Link(relation="symbol", target="request_timeout"),)})
    old = planted.TIMEOUT_OLD.model_copy(update={"links": (Link(relation="test", target="t"),)})
    result = run("conflicts", make_bank(old, twin), context)
    assert all("conflict-unresolved" in m.tags for m in result.bank.memories)
    assert all(any(link.relation == "contradicts" for link in m.links)
               for m in result.bank.memories)
