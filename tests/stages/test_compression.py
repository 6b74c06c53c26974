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
