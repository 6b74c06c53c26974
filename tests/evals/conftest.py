"""Fixtures of the harness's tests: real git repositories built in tmp folders at test time."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.examples.demo import DemoSuite, build_demo
from evals.examples.gitrepo import diff_for, init_repo
from evals.tasks import Candidate, RepoSource, Task

CALC = {
    "calc/__init__.py": "",
    "calc/ops.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
    "tests/test_ops.py":
        "from calc.ops import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
}
CALC_FIX = {"calc/ops.py": CALC["calc/ops.py"].replace("a - b", "a + b")}
CALC_TEST = {
    "tests/test_add.py":
        "from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}


@pytest.fixture(autouse=True)
def _lexical_router(monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25 and graph retrieval only: the harness's tests need a router, not its embedding model
    (the router's own tests cover that); saves loading the model in every test session. Per
    test: a session-wide setting outlived these tests and reached every later test of the same
    worker (the stack test's servers ran without vectors)."""
    monkeypatch.setenv("DREAMER_ROUTER_EMBEDDINGS", "0")


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSuite:
    """The demo suite (three memory-decided tasks on two real repositories)."""
    return build_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def calc_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A tiny real repository whose ``add`` subtracts; returns (path, base commit)."""
    path = tmp_path_factory.mktemp("calc") / "calc"
    return path, init_repo(path, CALC, "calc")


def calc_task(calc_repo: tuple[Path, str], **changes: object) -> Task:
    """A task on ``calc_repo``: fix ``add``; gold patch, test patch, one F2P and one P2P test."""
    path, base = calc_repo
    gold = diff_for(path, CALC_FIX)
    fields: dict[str, object] = {
        "instance_id": "calc-1", "repo": "acme/calc", "base_commit": base, "patch": gold,
        "test_patch": diff_for(path, CALC_TEST), "problem_statement": "add subtracts",
        "FAIL_TO_PASS": ["tests/test_add.py::test_add"],
        "PASS_TO_PASS": ["tests/test_ops.py::test_mul"],
        "source": RepoSource(kind="git", location=str(path)),
        "candidates": [Candidate(id="gold", patch=gold)],
    }
    fields.update(changes)
    return Task.model_validate(fields)
