"""Long steps report progress: events to listeners, a Rich bar on a terminal, log lines in a
Prefect run."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from dreamer import progress
from dreamer.models import Bank, Citation, Memory, Scope


def _bank() -> Bank:
    return Bank(repo="acme/shop", memories=tuple(
        Memory(type="domain", scope=Scope(repo="acme/shop"), summary=f"fact number {i} of shop",
               citations=(Citation(kind="session", ref=f"ses_{i}:1"),)) for i in range(4)))


def test_a_dream_reports_each_stage(tmp_path: Path) -> None:
    from dreamer.pipeline import dream
    from dreamer.strategy import load_strategy

    quick = tmp_path / "quick.yaml"  # all eight stages, on TF-IDF rather than the MiniLM model
    quick.write_text((Path(__file__).resolve().parents[1] / "configs" / "strategies"
                      / "default.yaml").read_text().replace("embedding: minilm",
                                                            "embedding: tfidf"))
    events: list[progress.Event] = []
    plan = load_strategy(str(quick))
    with progress.listen(events.append):
        dream(_bank(), plan)
    stages = [name for name, _ in plan.stage_configs()]
    assert len(stages) == 8
    mine = [e for e in events if e.step == f"dream ({plan.name})"]
    assert [e.completed for e in mine] == list(range(len(stages) + 1))
    assert [e.detail for e in mine[1:]] == stages and mine[-1].done


def test_an_evaluation_reports_each_attempt(tmp_path: Path) -> None:
    from evals.suite import SuiteConfig, run_suite
    from evals.tasks import load_tasks

    sample = Path(__file__).resolve().parents[1] / "datasets" / "sample"
    if not sample.is_dir():
        pytest.skip("the committed sample is absent")
    tasks = [t for t in load_tasks(sample) if t.certified is not False][:1]
    events: list[progress.Event] = []
    config = SuiteConfig(suite=str(sample), agent="selector", budgets=(0,), permutations=1,
                         controls=False, workers=1)
    with progress.listen(events.append):
        result = run_suite(tasks, _bank(), config, tmp_path / "run")
    steps = [e for e in events if e.step == "evaluate"]
    assert steps[0].completed == 0 and steps[-1].done
    assert steps[-1].completed == steps[-1].total == len(result.table)
    assert {e.detail for e in steps[1:]} == {tasks[0].instance_id}


def test_on_a_terminal_a_rich_bar_and_in_a_prefect_run_log_lines(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr(progress, "_terminal", lambda: True)
    monkeypatch.setattr("rich.console.Console", lambda **_: Console(
        file=screen, force_terminal=True, width=100))
    step = progress.start("certify", 3)
    for _ in range(3):
        step.advance(detail="task-1")
    assert "certify" in screen.getvalue() and progress._progress is None  # bar closed

    logger = logging.getLogger("test.progress")
    monkeypatch.setattr(progress, "_run_logger", lambda: logger)
    with caplog.at_level(logging.INFO, logger="test.progress"):
        step = progress.start("evaluate", 40)
        monkeypatch.setattr(progress, "_run_logger", lambda: None)  # attempts on other threads
        for _ in range(40):
            step.advance()
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "evaluate: 0/40" and lines[-1] == "evaluate: 40/40"
    assert 10 <= len(lines) <= 12  # about every tenth of the way, not every attempt
