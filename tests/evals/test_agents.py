"""The agents' choices: none (smallest), selector (evidence), oracle (gold), llm (DSPy)."""

from __future__ import annotations

import pytest

from dreamer.models import (
    Citation,
    CitationKind,
    Memory,
    MemoryPack,
    MemoryType,
    PackedMemory,
    Scope,
)
from evals.agents import AgentInput, make_agent
from evals.agents.llm import LlmAgent, LlmConfig
from evals.agents.selector import split_failure
from evals.errors import AgentError
from evals.examples.demo import FACTS, DemoSuite
from evals.tasks import Candidate, Task


def _diff(path: str, removed: list[str], added: list[str]) -> str:
    body = "".join(f"-{line}\n" for line in removed) + "".join(f"+{line}\n" for line in added)
    return f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n{body}"


def _memory(kind: MemoryType, summary: str) -> Memory:
    return Memory(type=kind, scope=Scope(repo="acme/x"), summary=summary,
                  citations=(Citation(kind=CitationKind.SESSION, ref="ses_1:2"),))


def _input(candidates: list[Candidate], memories: list[Memory] = ()) -> AgentInput:  # type: ignore[assignment]
    pack = MemoryPack(items=tuple(PackedMemory(memory=m) for m in memories),
                      text="\n".join(m.summary for m in memories))
    return AgentInput(instance_id="t", repo="acme/x", problem_statement="it breaks",
                      candidates=tuple(candidates), pack=pack)


SMALL = Candidate(id="b", patch=_diff("app/cache.py", ["x = 1"], ["x = load()"]))
TIED = Candidate(id="a", patch=_diff("app/cache.py", ["x = 1"], ["x = reload()"]))
BIG = Candidate(id="c", patch=_diff(
    "app/cache.py", ["x = 1"], ["from app.store import CONFIG_CACHE", "x = CONFIG_CACHE.get()"]))
LRU = Candidate(id="d", patch=_diff("app/cache.py", ["x = 1"], ["x = functools.lru_cache(load)"]))
HUGE = Candidate(id="e", patch=_diff("app/cache.py", ["x = 1"], [
    "import os", "from app import settings", "CACHE_DIR = os.environ.get('CACHE_DIR', '/tmp')",
    "x = settings.load(CACHE_DIR, retries=3, timeout=10)"]))


def test_size_controls_choose_by_changed_lines_and_abstain_on_ties() -> None:
    assert make_agent("none").attempt(_input([BIG, SMALL])).chosen == "b"
    assert make_agent("smallest").attempt(_input([HUGE, SMALL])).chosen == "b"
    assert make_agent("largest").attempt(_input([BIG, SMALL, HUGE])).chosen == "e"
    tie = make_agent("none").attempt(_input([BIG, SMALL, TIED]))  # a and b: 2 lines each
    assert tie.abstained and tie.patch == "" and set(tie.tied) == {"a", "b"}
    assert make_agent("none").attempt(_input([])).patch == ""


def test_random_control_is_seeded_and_follows_the_ids_it_is_shown() -> None:
    agent = make_agent("random", {"seed": 7})
    picks = [agent.attempt(_input([BIG, SMALL, LRU, HUGE])).chosen for _ in range(3)]
    assert len(set(picks)) == 1  # the same view, the same draw
    relabelled = [Candidate(id=f"x{i}-{c.id}", patch=c.patch) for i, c in
                  enumerate([BIG, SMALL, LRU, HUGE])]
    draws = {make_agent("random", {"seed": s}).attempt(_input(relabelled)).chosen
             for s in range(40)}
    assert len(draws) == 4  # every candidate is drawn under some seed


def test_selector_abstains_without_evidence_and_follows_it_when_there_is() -> None:
    selector = make_agent("selector")
    empty = selector.attempt(_input([BIG, SMALL]))
    assert empty.abstained and empty.patch == "" and "empty pack" in empty.rationale
    fact = _memory(MemoryType.DOMAIN, "Config values come from app.store.CONFIG_CACHE.")
    assert selector.attempt(_input([BIG, SMALL], [fact])).chosen == "c"
    unrelated = _memory(MemoryType.DOMAIN, "Deploys need the VPN_TOKEN=1 variable set.")
    blind = selector.attempt(_input([BIG, SMALL], [unrelated]))
    assert blind.abstained and blind.chosen is None


def test_selector_never_breaks_a_tie_by_id_or_order() -> None:
    both = _memory(MemoryType.DOMAIN, "Loading goes through load() or reload(), both fine.")
    for order in ([SMALL, TIED], [TIED, SMALL]):
        attempt = make_agent("selector").attempt(_input(order, [both]))
        assert attempt.abstained and set(attempt.tied) == {"a", "b"}


def test_selector_is_not_drawn_to_the_longer_patch() -> None:
    # A memory that names one identifier each of two candidates holds: the long patch holds many
    # more words, yet one memory lifts a candidate by one term at most, so this is a tie.
    fact = _memory(MemoryType.DOMAIN, "Use CONFIG_CACHE and settings for cached values.")
    attempt = make_agent("selector").attempt(_input([BIG, HUGE], [fact]))
    assert attempt.abstained
    named = _memory(MemoryType.DOMAIN, "Cached config comes from CONFIG_CACHE, never settings.")
    assert make_agent("selector").attempt(_input([HUGE, BIG], [named])).chosen == "c"


def test_failure_memory_split_and_its_weight_against_the_warned_approach() -> None:
    summary = ("Caching load_config with functools.lru_cache broke test_reload; "
               "use app.store.CONFIG_CACHE instead.")
    warned, fix = split_failure(summary)
    assert "lru_cache" in warned and "CONFIG_CACHE" in fix and "lru_cache" not in fix
    assert split_failure("Never use round() for money; use round_cents.") == (
        " use round() for money", "; use round_cents.")
    assert split_failure("Caching with lru_cache broke it; the passing fix used CONFIG_CACHE.")[1] \
        == "used CONFIG_CACHE."
    assert split_failure("Use fold_ascii instead of str.encode('ascii').") == (
        " str.encode('ascii')", "Use fold_ascii .")
    assert split_failure("round() drifted") == ("round() drifted", "")
    failure = _memory(MemoryType.FAILURE, summary)
    assert make_agent("selector").attempt(_input([LRU, BIG], [failure])).chosen == "c"


def test_a_module_scoped_memory_speaks_only_of_its_module() -> None:
    other = Candidate(id="f", patch=_diff("lib/cache.py", ["x = 1"],
                                          ["from app.store import CONFIG_CACHE", "x = 2"]))
    scoped = Memory(type=MemoryType.DOMAIN, scope=Scope(repo="acme/x", module="app"),
                    summary="Config values come from app.store.CONFIG_CACHE.",
                    citations=(Citation(kind=CitationKind.SESSION, ref="ses_1:2"),))
    assert make_agent("selector").attempt(_input([other, SMALL], [scoped])).abstained
    assert make_agent("selector").attempt(_input([BIG, SMALL], [scoped])).chosen == "c"


def test_oracle_is_the_only_agent_bound_to_the_answer() -> None:
    oracle = make_agent("oracle")
    with pytest.raises(AgentError, match="not bound"):
        oracle.attempt(_input([SMALL, BIG]))
    task = Task(instance_id="t", repo="acme/x", base_commit="abc", patch=BIG.patch,
                candidates=(SMALL, BIG))
    assert oracle.for_task(task).attempt(_input([SMALL, BIG])).chosen == "c"
    selector = make_agent("selector")
    assert selector.for_task(task) is selector


def test_selector_and_embedding_on_the_demo_facts_prefer_gold(demo: DemoSuite) -> None:
    for task in demo.tasks:
        memory = FACTS[task.family or ""]
        inp = AgentInput(instance_id=task.instance_id, repo=task.repo,
                         problem_statement=task.problem_statement, candidates=task.candidates,
                         pack=MemoryPack(items=(PackedMemory(memory=memory),)))
        gold = next(c.id for c in task.candidates if c.patch == task.patch)
        assert make_agent("selector").attempt(inp).chosen == gold, task.instance_id
        assert make_agent("embedding").attempt(inp).chosen == gold, task.instance_id
        blind = inp.model_copy(update={"pack": MemoryPack()})
        assert make_agent("embedding").attempt(blind).abstained


class CannedEngine:
    """A DSPy engine that answers every request with fixed output fields."""

    def __init__(self, fields: dict[str, str]) -> None:
        self.fields = fields
        self.prompts: list[str] = []

    def complete(self, request):  # type: ignore[no-untyped-def]
        from dspy.lm15 import Message, Response, TextPart, Usage

        self.prompts.append("\n".join(m.text or "" for m in request.messages))
        text = "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in self.fields.items())
        text += "[[ ## completed ## ]]\n"
        return Response(id=None, model="canned", message=Message.assistant([TextPart(text)]),
                        finish_reason="stop", usage=Usage(input_tokens=0, output_tokens=0,
                                                          total_tokens=0))

    def stream(self, request):  # type: ignore[no-untyped-def]
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass


def _llm(fields: dict[str, str]) -> tuple[LlmAgent, CannedEngine]:
    import dspy

    engine = CannedEngine(fields)
    lm = dspy.LM("openai/canned", engine=engine, cache=False)
    return LlmAgent(LlmConfig(model="openai/canned"), lm=lm), engine


def test_llm_agent_reads_the_pack_and_returns_its_choice() -> None:
    agent, engine = _llm({"choice": "c", "patch": ""})
    fact = _memory(MemoryType.DOMAIN, "Config values come from app.store.CONFIG_CACHE.")
    attempt = agent.attempt(_input([BIG, SMALL], [fact]))
    assert (attempt.chosen, attempt.patch) == ("c", BIG.patch)
    assert "app.store.CONFIG_CACHE" in engine.prompts[0] and "### b" in engine.prompts[0]


def test_llm_agent_may_write_a_patch_and_rejects_nonsense() -> None:
    written = _diff("app/cache.py", ["x = 1"], ["x = 2"])
    agent, _ = _llm({"choice": "new", "patch": f"```diff\n{written}```"})
    attempt = agent.attempt(_input([SMALL]))
    assert attempt.chosen is None and attempt.patch == written
    agent, _ = _llm({"choice": "zzz", "patch": ""})
    with pytest.raises(AgentError, match="expected one of b"):
        agent.attempt(_input([SMALL]))
