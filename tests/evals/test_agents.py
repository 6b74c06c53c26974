"""The agents' choices: none (smallest), selector (evidence), oracle (gold), llm (DSPy)."""

from __future__ import annotations

from pathlib import Path

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
    gold = candidates[-1].patch if candidates else ""
    task = Task(instance_id="t", repo="acme/x", base_commit="abc", patch=gold,
                candidates=tuple(candidates))
    pack = MemoryPack(items=tuple(PackedMemory(memory=m) for m in memories),
                      text="\n".join(m.summary for m in memories))
    return AgentInput(task=task, problem_statement="it breaks", workdir=Path("."), pack=pack,
                      candidates=task.candidates)


SMALL = Candidate(id="b", patch=_diff("app/cache.py", ["x = 1"], ["x = load()"]))
TIED = Candidate(id="a", patch=_diff("app/cache.py", ["x = 1"], ["x = reload()"]))
BIG = Candidate(id="c", patch=_diff(
    "app/cache.py", ["x = 1"], ["from app.store import CONFIG_CACHE", "x = CONFIG_CACHE.get()"]))
LRU = Candidate(id="d", patch=_diff("app/cache.py", ["x = 1"], ["x = functools.lru_cache(load)"]))


def test_none_takes_the_fewest_changed_lines_ties_by_id() -> None:
    attempt = make_agent("none").attempt(_input([BIG, SMALL, TIED]))
    assert attempt.chosen == "a"  # a and b change 2 lines each; a sorts first
    assert make_agent("none").attempt(_input([])).patch == ""


def test_selector_without_memory_is_none_and_with_evidence_switches() -> None:
    selector = make_agent("selector")
    assert selector.attempt(_input([BIG, SMALL])).chosen == "b"
    fact = _memory(MemoryType.DOMAIN, "Config values come from app.store.CONFIG_CACHE.")
    assert selector.attempt(_input([BIG, SMALL], [fact])).chosen == "c"
    unrelated = _memory(MemoryType.DOMAIN, "Deploys need the VPN_TOKEN=1 variable set.")
    assert selector.attempt(_input([BIG, SMALL], [unrelated])).chosen == "b"


def test_failure_memory_split_and_its_weight_against_the_warned_approach() -> None:
    summary = ("Caching load_config with functools.lru_cache broke test_reload; "
               "use app.store.CONFIG_CACHE instead.")
    warned, fix = split_failure(summary)
    assert "lru_cache" in warned and "CONFIG_CACHE" in fix and "lru_cache" not in fix
    assert split_failure("Never use round() for money; use round_cents.")[1] == "use round_cents."
    assert split_failure("Use fold_ascii instead of str.encode('ascii').") == (
        " str.encode('ascii')", "Use fold_ascii .")
    assert split_failure("round() drifted") == ("round() drifted", "")
    failure = _memory(MemoryType.FAILURE, summary)
    # LRU is smallest and would be the none choice; the warning drives the choice away from it.
    assert make_agent("none").attempt(_input([LRU, BIG])).chosen == "d"
    assert make_agent("selector").attempt(_input([LRU, BIG], [failure])).chosen == "c"


def test_selector_on_the_demo_facts_prefers_gold(demo: DemoSuite) -> None:
    for task in demo.tasks:
        memory = FACTS[task.family or ""]
        inp = AgentInput(task=task, problem_statement=task.problem_statement, workdir=demo.path,
                         pack=MemoryPack(items=(PackedMemory(memory=memory),)),
                         candidates=task.candidates)
        chosen = make_agent("selector").attempt(inp).chosen
        gold = next(c.id for c in task.candidates if c.patch == task.patch)
        assert chosen == gold, task.instance_id
        assert make_agent("oracle").attempt(inp).patch == task.patch


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
