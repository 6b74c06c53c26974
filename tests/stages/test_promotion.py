"""promotion: a procedure confirmed by three sessions becomes a reviewable checklist."""

from __future__ import annotations

from dreamer.stages import Similarity, StageContext


def test_confirmed_procedure_becomes_a_checklist(planted, context, run) -> None:
    result = run("promotion", planted.bank, context)
    [promoted] = [m for m in result.bank.memories if "skill-candidate" in m.tags]
    assert promoted.id == planted.INTEGRATION.id and promoted.is_active  # not silently a rule
    [link] = [link for link in promoted.links if link.relation == "skill"]
    assert link.target.startswith("skills/acme-shop/")
    text = (context.skills_dir / link.target.removeprefix("skills/")).read_text()
    assert "candidate" in text and "- [ ] Run integration tests with INTEGRATION=1" in text
    assert "session: `ses_m13:3`" in text


def test_bank_id_does_not_depend_on_the_home(planted, run, tmp_path) -> None:
    ids = {
        run(
            "promotion",
            planted.bank,
            StageContext(similarity=Similarity("tfidf"), skills_dir=tmp_path / d),
        ).bank.id
        for d in ("a", "b")
    }
    assert len(ids) == 1


def test_lm_writes_the_steps(planted, canned, run, make_bank) -> None:
    ctx, engine = canned(
        lambda prompt: {"steps": ["export INTEGRATION=1", "make test-integration"]}
    )
    result = run("promotion", make_bank(planted.INTEGRATION), ctx)
    [link] = [link for link in result.bank.active[0].links if link.relation == "skill"]
    text = (ctx.skills_dir / link.target.removeprefix("skills/")).read_text()
    assert "- [ ] export INTEGRATION=1\n- [ ] make test-integration" in text and engine.prompts
