"""The LM side as DSPy programs: one module per stage, one program per strategy, saved and
loaded with DSPy's own ``save``/``load``, and named by the strategy YAML."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from dreamer.errors import ConfigError
from dreamer.lm import canned_lm
from dreamer.pipeline import dream, make_context
from dreamer.strategy import load_strategy, modify

dspy = pytest.importorskip("dspy")
from dreamer.programs import (  # noqa: E402
    STAGE_MODULES,
    DreamProgram,
    load_dream_program,
    save_program,
)

_spec = importlib.util.spec_from_file_location(
    "planted_bank", Path(__file__).parent / "stages" / "conftest.py"
)
planted = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(planted)  # type: ignore[union-attr]

ANSWERS = {"same": False, "relation": "unrelated", "rule": "unused", "module": "any",
           "summary": "unused", "related": True, "generic": False,
           "steps": ["INTEGRATION=1 make test-integration"]}


def _respond(prompt: str) -> dict[str, object]:
    wanted = [f for f in ANSWERS if f"[[ ## {f} ## ]]" in prompt.split("Respond with")[-1]]
    return {f: ANSWERS[f] for f in wanted[:1]}


def test_a_strategy_has_one_program_with_a_module_per_lm_stage() -> None:
    strategy = load_strategy("default")
    program = DreamProgram(strategy=strategy)
    assert program.stage_names == [s.name for s in strategy.stages if s.name in STAGE_MODULES]
    assert all(isinstance(program.module(n), dspy.Module) for n in program.stage_names)
    # every predictor is a typed signature's
    names = [name for name, _ in program.named_predictors()]
    assert "dedupe.judge" in names and "promotion.write" in names


def test_a_saved_program_is_loaded_by_the_strategy_that_names_it(tmp_path: Path) -> None:
    program = DreamProgram(strategy=load_strategy("default"))
    program.dedupe.judge.demos = [dspy.Example(a="x", b="y", same=False).with_inputs("a", "b")]
    program.dedupe.judge.signature = program.dedupe.judge.signature.with_instructions(
        "Compiled: merge only memories naming the same identifiers.")
    path = save_program(program, tmp_path / "programs" / "default.json")
    saved = json.loads(path.read_text())
    assert "dedupe.judge" in saved and saved["dedupe.judge"]["demos"]
    folder = tmp_path / "strategies"
    folder.mkdir()
    (folder / "compiled.yaml").write_text(
        "embedding: tfidf\nprogram: ../programs/default.json\n"
        "lm: {model: openai/gemma3, base_url: 'http://127.0.0.1:8080/v1', max_failures: 0.1}\n"
        "stages:\n  - name: dedupe\n  - name: linking\n")
    strategy = load_strategy(str(folder / "compiled.yaml"))
    assert strategy.program_path() == folder / "../programs/default.json"
    assert strategy.lm is not None and strategy.lm.max_failures == 0.1
    lm, engine = canned_lm(_respond)
    context = make_context(strategy, lm, skills_dir=tmp_path)
    loaded = context.program
    assert loaded.dedupe.judge.demos[0]["a"] == "x"
    assert "Compiled: merge only" in loaded.dedupe.judge.signature.instructions
    result = dream(planted.extraction_bank(), strategy, context)
    assert result.metrics["lm_usage"]["calls"] > 0
    # the compiled instructions and the demonstration reach the model
    assert any("Compiled: merge only" in p for p in engine.prompts)
    assert load_dream_program(path).stage_names[:1] == ["dedupe"]
    with pytest.raises(ConfigError, match="no saved program"):
        load_dream_program(tmp_path / "missing.json")


def test_the_program_dreams_a_bank_with_its_own_modules(tmp_path: Path) -> None:
    strategy = modify(load_strategy("default"), sets=["embedding=tfidf"])
    program = DreamProgram(strategy=strategy)
    lm, engine = canned_lm(_respond)
    with dspy.context(lm=lm):
        out = program(bank=planted.extraction_bank(), skills_dir=str(tmp_path))
    assert out.bank.origin.kind == "dream" and out.metrics["lm_usage"]["failures"] == 0
    assert out.metrics["lm_usage"]["calls"] == len(engine.prompts) > 0


def test_the_agent_and_extraction_programs_are_modules_that_save_and_load(tmp_path: Path) -> None:
    from dreamer.extract.lm import session_to_memories
    from evals.agents.llm import patch_program

    for make in (session_to_memories, patch_program):
        program = make()
        assert isinstance(program, dspy.Module)
        path = tmp_path / f"{make.__name__}.json"
        program.save(str(path))
        assert json.loads(path.read_text())
    agent = patch_program(path=str(tmp_path / "patch_program.json"))
    assert [n for n, _ in agent.named_predictors()] == ["choose"]
