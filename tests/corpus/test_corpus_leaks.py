"""The leak check passes on the committed sample and catches leaks planted in it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dreamer.models import Citation, CitationKind, Memory, MemoryType, Scope
from evals.corpus.audit import audit_corpus, load_corpus_tasks, source_index
from evals.corpus.certify import oracle_pack
from evals.corpus.gitrepo import added_lines
from evals.corpus.info import SAMPLE
from evals.corpus.memories import pack_of
from evals.leaks import MIN_LINE, MIN_RUN, check_pack, find_gold_run, gold_runs, tokens

pytestmark = pytest.mark.skipif(not (SAMPLE / "tasks.jsonl").exists(), reason="no sample built")


@pytest.fixture(scope="module")
def tasks():  # type: ignore[no-untyped-def]
    return load_corpus_tasks(SAMPLE)


@pytest.fixture(scope="module")
def times():  # type: ignore[no-untyped-def]
    return source_index(SAMPLE)


def _memory(task, summary: str, cite: Citation) -> Memory:  # type: ignore[no-untyped-def]
    return Memory(type=MemoryType.DOMAIN, scope=Scope(repo=task.repo), summary=summary,
                  citations=(cite,))


def test_sample_oracle_packs_do_not_leak():
    assert audit_corpus(SAMPLE) == []


def test_oracle_memories_name_the_fix_without_carrying_it(tasks):
    for task in tasks:
        pack = oracle_pack(task)
        assert pack.items, task.instance_id
        assert find_gold_run(pack.text, gold_runs(task.patch)) is None


def test_planted_gold_run_is_caught(tasks, times):
    task = tasks[0]
    earlier = oracle_pack(task).memories[0].citations[0]
    stolen = " ".join(max(added_lines(task.patch), key=lambda line: len(tokens(line))).split())
    assert len(tokens(stolen)) >= MIN_RUN
    planted = _memory(task, f"Fix it like this: {stolen}", earlier)
    findings = check_pack(task, pack_of([planted], task.problem_statement), times)
    assert [f.rule for f in findings] == ["gold", "gold"]  # the memory, and the pack text
    assert findings[0].memory == planted.id


def test_seven_gold_words_are_allowed(tasks, times):
    task = tasks[0]
    longest = max((tokens(line) for line in added_lines(task.patch)), key=len)
    assert len(longest) >= MIN_RUN
    earlier = oracle_pack(task).memories[0].citations[0]
    short = _memory(task, "see " + " ".join(longest[: MIN_RUN - 1]), earlier)
    assert check_pack(task, pack_of([short], ""), times) == []


def test_a_whole_short_gold_line_is_a_leak(tasks, times):
    task = tasks[0]
    line = min((tokens(line) for line in added_lines(task.patch)
                if len(tokens(line)) >= MIN_LINE), key=len)
    assert len(line) < MIN_RUN
    earlier = oracle_pack(task).memories[0].citations[0]
    carried = _memory(task, "the fix: " + " ".join(line), earlier)
    findings = check_pack(task, pack_of([carried], ""), times)
    assert findings and {f.rule for f in findings} == {"gold"}


def test_memory_from_a_session_at_or_after_the_task_is_caught(tasks, times):
    task = tasks[0]
    later = sorted(ref for ref, when in times.items()
                   if when >= task.created_at and ref.startswith(task.repo.replace("/", "__")))
    assert later, "the sample should hold sessions after its first task"
    planted = _memory(task, "Something learned later.",
                      Citation(kind=CitationKind.SESSION, ref=later[0]))
    findings = check_pack(task, pack_of([planted], ""), times)
    assert [f.rule for f in findings] == ["time"]
    assert later[0] in findings[0].detail


def test_memory_created_at_the_task_time_is_caught(tasks, times):
    task = tasks[0]
    memory = oracle_pack(task).memories[0]
    same_time = memory.model_copy(update={"created_at": task.created_at})
    findings = check_pack(task, pack_of([same_time], ""), times)
    assert findings and findings[0].rule == "time"
    just_before = memory.model_copy(update={"created_at": task.created_at - timedelta(seconds=1)})
    assert check_pack(task, pack_of([just_before], ""), times) == []


def test_audit_reports_planted_leak_for_that_task_only(tasks):
    task = tasks[-1]
    stolen = " ".join(max(added_lines(task.patch), key=lambda line: len(tokens(line))).split())
    packs = {t.instance_id: oracle_pack(t) for t in tasks}
    bad = _memory(task, stolen, oracle_pack(task).memories[0].citations[0])
    packs[task.instance_id] = pack_of([*packs[task.instance_id].memories, bad], "")
    findings = audit_corpus(SAMPLE, packs)
    assert {f.task for f in findings} == {task.instance_id}
