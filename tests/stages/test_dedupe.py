"""dedupe: the same lesson in three phrasings becomes one memory with all their evidence."""

from __future__ import annotations

from dreamer.models import MemoryStatus


def _merged(result, planted):  # type: ignore[no-untyped-def]
    ids = {m.id for m in planted.STATUS}
    return [m for m in result.bank.active if set(m.lineage.parents) == ids]


def test_planted_duplicates_merge_keeping_every_citation(planted, context, run) -> None:
    result = run("dedupe", planted.bank, context)
    [merged] = _merged(result, planted)
    cited = {c for m in planted.STATUS for c in m.citations}
    assert set(merged.citations) == cited
    assert merged.lineage.stage == "dedupe"
    for old in planted.STATUS:
        now = result.bank.get(old.id)
        assert now is not None and now.status is MemoryStatus.SUPERSEDED
        assert any(
            link.relation == "superseded_by" and link.target == merged.id for link in now.links
        )
    for kept in (planted.BILLING, planted.INTEGRATION, *planted.GENERIC):
        assert result.bank.get(kept.id).is_active


def test_other_repository_and_contradictions_are_never_merged(planted, context, run) -> None:
    result = run("dedupe", planted.bank, context, threshold=0.05)
    other = result.bank.get(planted.OTHER.id)
    assert other is not None and other.is_active  # same words, another repository
    for m in result.bank.active:
        assert {planted.TIMEOUT_OLD.id, planted.TIMEOUT_NEW.id} - set(m.lineage.parents)


def test_lm_judges_candidate_pairs(planted, context, canned, run) -> None:
    ctx, engine = canned(lambda prompt: {"same": "LEGACY_STATUS_CODES" in prompt})
    result = run("dedupe", planted.bank, ctx)
    assert engine.prompts, "the LM was asked"
    assert len(_merged(result, planted)) == 1
    ctx, _ = canned(lambda prompt: {"same": False})
    assert run("dedupe", planted.bank, ctx).metrics.get("merged", 0) == 0


def test_loose_paraphrases_merge_when_they_cite_the_same_lines(planted, context, run, make_bank):
    a = planted.memory(
        "domain",
        "Anything written to orders.status has to be the warehouse letter from "
        "shop/legacy.py, not the enum.",
        [planted.session("q1"), planted.file("shop/legacy.py", 1, 20)],
        3,
    )
    b = planted.memory(
        "domain",
        "Store statuses via LEGACY_STATUS_CODES from shop/legacy.py; ints and names end up "
        "as 'unknown' downstream.",
        [planted.session("q2"), planted.file("shop/legacy.py", 10, 14)],
        6,
    )
    far = b.model_copy(update={"citations": (planted.session("q3"),)})
    assert len(run("dedupe", make_bank(a, b), context).bank.active) == 1
    assert len(run("dedupe", make_bank(a, far), context).bank.active) == 2


def test_a_merge_never_loses_a_name(planted, context, run, make_bank) -> None:
    """A failure whose fix names ``to_canonical`` and two guards about the same test cite the
    same session, test and file: however alike they look, the name survives the merge."""
    cites = [planted.session("t4"), planted.file("telemetry/alerts/rules.py", 10, 14)]
    fix = planted.memory(
        "failure",
        "Changing `telemetry/alerts/rules.py`: `tests/test_band.py::test_quiet` failed; the "
        "passing fix used `to_canonical`, in `evaluate`.", cites, 3)
    guards = [planted.memory(
        "procedural",
        f"Changing {path} can break `tests/test_band.py::test_quiet`, which are not named "
        f"after it: run tests/test_band.py before touching it.", cites, 3)
        for path in ("telemetry/alerts/rules.py", "telemetry/alerts/__init__.py")]
    result = run("dedupe", make_bank(fix, *guards), context, threshold=0.05,
                 shared_span_threshold=0.05)
    assert any("to_canonical" in m.summary for m in result.bank.active)
    assert any("evaluate" in m.summary for m in result.bank.active)


def test_the_code_before_and_after_a_rewrite_is_never_merged(planted, context, run,
                                                             make_bank) -> None:
    """The same lesson told before and after a commit rewrote the lines it cites describes two
    states of the code: a merge would pass the old one off as current."""
    cites = [planted.file("shop/slots.py", 15, 22)]
    words = ("Changing `shop/slots.py`: `tests/test_slots.py::test_label` failed; the passing "
             "fix used `SAME_DAY_CUTOFF`, in `is_same_day`.")
    before = planted.memory("failure", words, [planted.session("b1"), *cites], 3,
                            tags=("rewritten:8f45c201e72a@2024-01-10T07:05:00Z",))
    after = planted.memory("failure", words, [planted.session("b2"), *cites], 12)
    assert len(run("dedupe", make_bank(before, after), context).bank.active) == 2
    # Without the rewrite between them they are one lesson.
    plain = before.model_copy(update={"tags": ()})
    assert len(run("dedupe", make_bank(plain, after), context).bank.active) == 1


def test_guards_of_different_files_or_tests_and_failures_of_different_files_stay_apart(
        planted, context, run, make_bank) -> None:
    """A test that several changes can break ties nothing together: a guard's fact is the file it
    guards and the tests it names, and a failure's the file whose change failed."""
    from dreamer.models import Citation, CitationKind, Lineage

    def test(ref: str) -> Citation:
        return Citation(kind=CitationKind.TEST, ref=ref)

    night = "tests/test_engine.py::test_cap_covers_night_bus"

    def guard(path: str, tests: list[str], day: int):  # type: ignore[no-untyped-def]
        return planted.memory(
            "procedural", f"Changing {path} can break " + ", ".join(f"`{t}`" for t in tests)
            + ", which are not named after it: run tests/test_engine.py before touching it.",
            [planted.session(f"g{day}"), *map(test, tests)], day,
            conditions=(f"when changing {path}",), lineage=Lineage(reason="guard rule"))

    caps = guard("fare_engine/caps.py", [night], 3)
    fares = guard("data/fares.csv", ["tests/test_engine.py::test_daily_cap", night], 5)
    refunds = guard("fare_engine/caps.py", ["tests/test_refunds.py::test_refund_next_day"], 7)
    again = guard("fare_engine/caps.py", [night], 9)
    result = run("dedupe", make_bank(caps, fares, refunds, again), context,
                 shared_span_threshold=0.05)
    merged = [m for m in result.bank.active if len(m.lineage.parents) > 1]
    assert [set(m.lineage.parents) for m in merged] == [{caps.id, again.id}]
