"""specialization: a rule whose evidence lies in one module or branch is scoped to it."""

from __future__ import annotations

from dreamer.models import Session


def test_rule_is_narrowed_to_the_module_of_its_evidence(planted, context, run) -> None:
    result = run("specialization", planted.bank, context)
    [narrowed] = [m for m in result.bank.active if m.lineage.parents == (planted.BILLING.id,)]
    assert narrowed.scope.module == "src/billing"
    assert narrowed.citations == planted.BILLING.citations
    assert result.bank.get(planted.STATUS[0].id).is_active  # one file: too little to narrow


def test_rule_is_narrowed_to_the_branch_of_its_sessions(planted, context, run, make_bank) -> None:
    sessions = {
        f"ses_{s}": Session(id=f"ses_{s}", source_format="t", raw_sha256="0", branch="release/2.x")
        for s in ("k11", "l12", "m13")
    }
    context.sessions = sessions
    result = run("specialization", make_bank(planted.INTEGRATION), context)
    [narrowed] = result.bank.active
    assert narrowed.scope.branch == "release/2.x"
    context.sessions = {
        **sessions,
        "ses_k11": sessions["ses_k11"].model_copy(update={"branch": "main"}),
    }
    assert (
        run("specialization", make_bank(planted.INTEGRATION), context).metrics.get("changed", 0)
        == 0
    )


def test_lm_proposal_must_cover_the_evidence(planted, canned, run, make_bank) -> None:
    bank = make_bank(planted.BILLING)
    ctx, engine = canned(lambda prompt: {"module": "src/billing/"})
    assert run("specialization", bank, ctx).bank.active[0].scope.module == "src/billing"
    ctx, _ = canned(lambda prompt: {"module": "src/billing/totals.py"})  # hides invoice.py
    assert run("specialization", bank, ctx).bank.active[0].scope.module == "src/billing"
    ctx, _ = canned(lambda prompt: {"module": "any"})
    assert run("specialization", bank, ctx).bank.active[0].scope.module is None
    assert engine.prompts
