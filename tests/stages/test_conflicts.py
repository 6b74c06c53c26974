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


def test_changed_setting_is_superseded_citing_the_commit_that_changed_the_line(
    context, run, make_bank
) -> None:
    from tests.stages.conftest import file, memory, session

    new_line = file("shop/config.py", 3, 3, "c0ffee1").model_copy(
        update={"lines_sha256": "1" * 64})
    old = memory("domain", "Pages hold 50 orders (PAGE_SIZE = 50 in shop/config.py).",
                 [session("a"), file("shop/config.py", 3, 3, "aaaa111")], 1,
                 tags=("setting:shop/config.py:PAGE_SIZE=50",))
    change = memory("episodic", "Task: raise the page size -> changed shop/config.py.",
                    [session("b"), new_line], 3)
    other = memory("episodic", "Task: docs -> changed shop/config.py.",
                   [session("c"), file("shop/config.py", 7, 7, "d0c5000")], 4)
    new = memory("domain", "Pages are 100 orders now (PAGE_SIZE = 100 in shop/config.py).",
                 [session("d"), new_line.model_copy(update={"commit": "bbbb222"})], 5,
                 tags=("setting:shop/config.py:PAGE_SIZE=100",))
    result = run("conflicts", make_bank(old, change, other, new), context)
    got = result.bank.get(old.id)
    assert got.status is MemoryStatus.SUPERSEDED and result.bank.get(new.id).is_active
    links = {(link.relation, link.target) for link in got.links}
    assert {("superseded_by", new.id), ("changed_in", "commit:c0ffee1")} <= links
    assert ("supersedes", old.id) in {(k.relation, k.target) for k in result.bank.get(new.id).links}
    [entry] = [p for p in result.provenance if p.action == "superseded"]
    assert "changed in commit c0ffee1" in entry.reason and "PAGE_SIZE" in entry.reason
    # no memory witnessed the change: the newer memory's commit is the best known bound
    result = run("conflicts", make_bank(old, new), context)
    assert "changed in commit bbbb222" in result.provenance[0].reason
    # the same value twice is no conflict, and dedupe never merges two values of one setting
    same = new.model_copy(update={"created_at": old.created_at, "summary": "PAGE_SIZE is 100."})
    assert not run("conflicts", make_bank(same, new), context).provenance
    twin = old.model_copy(update={"summary": new.summary})
    assert not run("dedupe", make_bank(twin, new), context).provenance


def test_settings_with_and_without_a_branch_in_one_repository(context, run, make_bank) -> None:
    """A repository with setting memories on the main line (no branch) and on a branch: each
    line's values are chained on their own, and the mix does not break the ordering."""
    from tests.stages.conftest import REPO, file, memory, session

    tag = "setting:shop/config.py:PAGE_SIZE={}".format
    main_old = memory("domain", "Pages hold 50 orders (PAGE_SIZE = 50 in shop/config.py).",
                      [session("m1"), file("shop/config.py", 3, 3, "aaaa111")], 1,
                      tags=(tag(50),))
    main_new = memory("domain", "Pages hold 100 orders (PAGE_SIZE = 100 in shop/config.py).",
                      [session("m2"), file("shop/config.py", 3, 3, "bbbb222")], 5,
                      tags=(tag(100),))
    on_branch = Scope(repo=REPO, branch="feature/paging")
    branch_old = memory("domain", "Pages hold 20 orders (PAGE_SIZE = 20 in shop/config.py).",
                        [session("b1"), file("shop/config.py", 3, 3, "cccc333")], 2,
                        tags=(tag(20),)).model_copy(update={"scope": on_branch})
    branch_new = memory("domain", "Pages hold 30 orders (PAGE_SIZE = 30 in shop/config.py).",
                        [session("b2"), file("shop/config.py", 3, 3, "dddd444")], 6,
                        tags=(tag(30),)).model_copy(update={"scope": on_branch})
    result = run("conflicts", make_bank(main_old, main_new, branch_old, branch_new), context)
    superseded = {p.inputs[0]: p.output for p in result.provenance if p.action == "superseded"
                  and "setting changed" in p.reason}
    assert superseded == {main_old.id: main_new.id, branch_old.id: branch_new.id}
    assert result.bank.get(branch_new.id).is_active
    # the newest values of the two lines differ: the main line's becomes conditional
    [split] = [m for m in result.bank.active if m.lineage.parents == (main_new.id,)]
    assert "not on branch feature/paging" in split.conditions
