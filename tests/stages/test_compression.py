"""compression: a long narrative is cut to its evidenced conclusion."""

from __future__ import annotations

from dreamer.tokens import count_tokens


def test_long_memory_keeps_its_conclusion_and_evidence(planted, context, run) -> None:
    result = run("compression", planted.bank, context)
    [short] = [m for m in result.bank.active if m.lineage.parents == (planted.LONG.id,)]
    assert count_tokens(short.summary) < count_tokens(planted.LONG.summary) / 2
    assert "alembic merge heads" in short.summary and "tried" not in short.summary
    assert short.citations == planted.LONG.citations
    assert short.summary in planted.LONG.summary  # extractive: nothing new is said
    assert result.metrics["changed"] == 1  # short memories are left alone


def test_lm_summary_is_refused_if_it_loses_anchors(planted, canned, run, make_bank) -> None:
    bank = make_bank(planted.LONG)
    good = "Run alembic merge heads in migrations/ before alembic upgrade head."
    ctx, engine = canned(lambda prompt: {"summary": good})
    assert run("compression", bank, ctx).bank.active[0].summary == good
    ctx, _ = canned(lambda prompt: {"summary": "Fix the migrations."})
    assert "alembic merge heads" in run("compression", bank, ctx).bank.active[0].summary
    assert engine.prompts


def test_each_session_is_cited_once_and_the_parent_keeps_the_rest(planted, context, run,
                                                                 make_bank) -> None:
    merged = planted.memory(
        "failure", "Order status must be persisted via LEGACY_STATUS_CODES.",
        [planted.session("a1", 9), planted.file("src/orders/models.py", 40, 52),
         planted.session("a1", 15), planted.session("b2", 3), planted.session("a1", 27)], 5)
    result = run("compression", make_bank(merged), context)
    [short] = result.bank.active
    assert [c.ref for c in short.citations] == ["ses_a1:9", "src/orders/models.py", "ses_b2:3"]
    assert short.summary == merged.summary and short.lineage.parents == (merged.id,)
    assert result.bank.get(merged.id).citations == merged.citations  # nothing is lost
    kept = run("compression", make_bank(merged), context, one_event_per_session=False)
    assert kept.bank.active[0].id == merged.id


def test_code_only_the_dropped_sentences_named_stays_as_a_condition(planted, context, run,
                                                                   make_bank) -> None:
    # A reviewer's narrative names the function; the conclusion names only what the fix used.
    review = planted.memory(
        "domain",
        "`renew()` computes the new due date from `today`. A patron who renews five days early "
        "loses five days of loan time, and at the desk we always extend from the current due "
        "date instead. Please make renewals extend from the current due date. The change that "
        "answered it, in `loans/circulation.py`, used `LOAN_DAYS`, `next_open_day`, "
        "`timedelta` and dropped `due_date`, `today`.",
        [planted.session("r1"), planted.file("loans/circulation.py", 10, 14)], 5)
    [short] = run("compression", make_bank(review), context).bank.active
    assert short.summary != review.summary and "five days early" not in short.summary
    assert "also named `renew`" in short.conditions
    text = " ".join((short.summary, *short.conditions))
    for name in ("renew", "LOAN_DAYS", "next_open_day", "today"):
        assert name in text, name
