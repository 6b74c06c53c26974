"""Episodes in a nightly dream: a story whose lesson a rule already states is absorbed by that
rule (abstraction); a routine story with no correctness signal goes dormant (forgetting); a
rule never swallows the story's citations through dedupe."""

from __future__ import annotations

from dreamer.models import Citation, CitationKind, MemoryStatus


def _chore(planted, sid: str, task: str, day: int):  # type: ignore[no-untyped-def]
    return planted.memory(
        "episodic",
        f"Task: {task} -> changed src/orders/models.py (3 commands, 1 test runs) -> submitted; "
        "last test run passed.",
        [planted.session(sid, 12), planted.session(sid, 13),
         planted.file("src/orders/models.py", 1, 4)],
        day,
    )


def test_episode_is_absorbed_by_the_rule_learnt_from_its_session(planted, context, run,
                                                                  make_bank) -> None:
    rule = planted.STATUS[0]  # a failure memory learnt in session a1
    story = planted.memory(
        "episodic", "Task: Fix the status column -> changed src/orders/models.py; tests passed.",
        [planted.session("a1", 9), planted.session("q2", 4),
         planted.file("src/orders/models.py", 40, 52)], 4)
    told = planted.memory(  # every session of this one is cited by the rule already
        "episodic", "Task: Order status -> changed src/orders/models.py; tests passed.",
        [planted.session("a1", 11)], 4)
    result = run("abstraction", make_bank(rule, story, told), context)
    [absorbed] = [m for m in result.bank.active if m.lineage.stage == "abstraction"]
    assert absorbed.summary == rule.summary and absorbed.type is rule.type
    assert set(absorbed.lineage.parents) == {rule.id, story.id, told.id}
    # the story's new session is cited once; its file span is not piled onto the rule
    assert [c.ref for c in absorbed.citations if c.kind is CitationKind.SESSION] == [
        "ses_a1:3", "ses_q2:4"]
    assert len(absorbed.citations) == len(rule.citations) + 1
    for old in (rule, story, told):
        assert result.bank.get(old.id).status is MemoryStatus.SUPERSEDED
    assert result.metrics["captured"] == 2
    assert any(p.reason.startswith("captured") for p in result.provenance)
    # a rule citing every session of the story already stays itself
    alone = run("abstraction", make_bank(rule, told), context)
    assert [m.id for m in alone.bank.active] == [rule.id]
    assert any(link.relation == "superseded_by" and link.target == rule.id
               for link in alone.bank.get(told.id).links)
    off = run("abstraction", make_bank(rule, story, told), context, captured=False)
    assert len(off.bank.active) == 3


def test_routine_chores_touching_one_file_write_no_rule(planted, context, run, make_bank) -> None:
    chores = [_chore(planted, f"r{i}", f"Docs pass {i}", 3 + i) for i in range(4)]
    result = run("abstraction", make_bank(*chores), context, min_support=2)
    assert result.metrics["rules"] == 0 and len(result.bank.active) == 4


def test_routine_episodes_go_dormant_and_stories_with_a_signal_stay(planted, context, run,
                                                                   make_bank) -> None:
    chore = _chore(planted, "r1", "Changelog", 3)
    failed = planted.memory("episodic", "Task: Refunds -> changed src/refunds.py; last test run "
                            "failed.", [planted.session("r2")], 4)
    reviewed = planted.memory("episodic", "Task: Address the review -> changed src/refunds.py.",
                              [planted.session("r3"),
                               Citation(kind=CitationKind.REVIEW, ref="ses_r3:0")], 5)
    taught = _chore(planted, "a1", "Status column", 6)  # session a1 taught STATUS[0]
    bank = make_bank(chore, failed, reviewed, taught, planted.STATUS[0])
    result = run("forgetting", bank, context)
    assert result.bank.get(chore.id).status is MemoryStatus.DORMANT
    assert all(result.bank.get(m.id).is_active
               for m in (failed, reviewed, taught, planted.STATUS[0]))
    [entry] = [p for p in result.provenance if p.inputs == (chore.id,)]
    assert entry.reason.startswith("routine") and result.metrics["dormant_routine"] == 1
    assert run("forgetting", bank, context, routine=False).bank.get(chore.id).is_active


def test_dedupe_keeps_stories_apart_from_rules(planted, context, run, make_bank) -> None:
    rule = planted.STATUS[0]
    story = planted.memory("episodic", rule.summary, [planted.session("z9")], 4)
    result = run("dedupe", make_bank(rule, story), context)
    assert len(result.bank.active) == 2
    merged = run("dedupe", make_bank(rule, story), context, episodes_with_rules=True)
    assert len(merged.bank.active) == 1
