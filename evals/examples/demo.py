"""The demo suite: three tasks on two small real repositories, each decided by a hidden fact.

``build_demo(dest)`` writes ``dest/repos/{pricing,textkit}`` (real git repositories),
``dest/tasks.jsonl`` (tasks whose ``source`` is relative to ``dest``) and ``dest/bank.json`` (a
bank holding the hidden facts among distractors). Each task has a gold candidate and a smaller
decoy, so the ``none`` agent picks the decoy and fails, while the hidden-fact memory makes the
``selector`` pick the gold patch. ``python -m evals.examples.demo [DEST]`` builds it (default
``$DREAMER_HOME/suites/demo``, which ``load_tasks("demo")`` finds) and stores the bank under the
global alias ``demo``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dreamer.models import Bank, BankOrigin, Citation, CitationKind, Memory, MemoryType, Scope
from evals.examples import demo_files as f
from evals.examples.gitrepo import commit, diff_for, init_repo
from evals.tasks import Candidate, RepoSource, Task, save_tasks

PRICING, TEXTKIT = "acme/pricing", "acme/textkit"


@dataclass(frozen=True)
class DemoSuite:
    """Where the demo suite was written, and what it holds."""

    path: Path
    tasks: list[Task]
    bank: Bank


def _memory(repo: str, kind: MemoryType, summary: str, cites: list[tuple[str, str]],
            confidence: float) -> Memory:
    citations = tuple(
        Citation(kind=CitationKind(k), ref=ref, path=ref.split("::")[0] if "/" in ref else None)
        for k, ref in cites
    )
    return Memory(type=kind, scope=Scope(repo=repo), summary=summary, citations=citations,
                  confidence=confidence, created_at=datetime(2023, 12, 1, tzinfo=UTC))


FACTS = {
    "rounding": _memory(PRICING, MemoryType.DOMAIN,
        "Money in acme/pricing is rounded half-up to cents with pricing.money.round_cents; "
        "the builtin round() on a Decimal rounds half-to-even (0.125 gives 0.12).",
        [("file", "pricing/money.py"), ("session", "ses_demo_pricing:14")], 0.6),
    "flags": _memory(PRICING, MemoryType.PROCEDURAL,
        "Feature flags are read with pricing.settings.flag(name), which reads the "
        "ACME_-prefixed variable (ACME_FREE_SHIPPING=1 turns on FREE_SHIPPING).",
        [("file", "pricing/settings.py"), ("session", "ses_demo_pricing:31")], 0.6),
    "accents": _memory(TEXTKIT, MemoryType.FAILURE,
        "Slugs built with str.encode('ascii', 'ignore') dropped accented letters (café became "
        "caf) and failed review; use textkit.unicode.fold_ascii instead.",
        [("file", "textkit/unicode.py"), ("review", "rev_demo_textkit_7"),
         ("session", "ses_demo_textkit:7")], 0.6),
}
DISTRACTORS = [
    _memory(PRICING, MemoryType.PROCEDURAL,
        "Run the pricing tests from the repository root with python -m pytest -q; the tests "
        "folder has no __init__.py, so plain pytest cannot import the package.",
        [("session", "ses_demo_pricing:3")], 0.9),
    _memory(PRICING, MemoryType.PREFERENCE,
        "Reviewers of acme/pricing want every public function to carry a one-line docstring "
        "in the imperative mood and type hints on all parameters.",
        [("review", "rev_demo_pricing_2"), ("session", "ses_demo_pricing:2")], 0.8),
    _memory(TEXTKIT, MemoryType.DOMAIN,
        "textkit targets Python 3.11 and keeps zero runtime dependencies; add nothing to "
        "install_requires without an issue approving it.",
        [("review", "rev_demo_textkit_1"), ("session", "ses_demo_textkit:1")], 0.9),
]


def build_demo(dest: Path) -> DemoSuite:
    """Write the demo suite's repositories, tasks and bank under ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    pricing, textkit = dest / "repos" / "pricing", dest / "repos" / "textkit"
    if (pricing / ".git").exists() or (textkit / ".git").exists():
        raise FileExistsError(f"{dest} already holds a demo suite; remove it or pick another")
    tasks: list[Task] = []

    base = init_repo(pricing, f.PRICING_BASE, "pricing: carts, money, settings")
    tasks.append(_task(pricing, "acme__pricing-1", PRICING, base, "rounding", 1,
        "line_total returns sub-cent amounts: line_total(Decimal('0.125'), Decimal('1')) gives "
        "Decimal('0.125'). Line totals must be whole cents.",
        gold=("p1", f.PRICING_ROUNDING_GOLD), decoy=("p2", f.PRICING_ROUNDING_DECOY),
        tests=f.PRICING_ROUNDING_TEST, p2p=["tests/test_cart.py::test_line_total_whole_units"]))
    base = commit(pricing, {**f.PRICING_ROUNDING_GOLD, **f.PRICING_ROUNDING_TEST}, "round lines")
    tasks.append(_task(pricing, "acme__pricing-2", PRICING, base, "flags", 2,
        "Free shipping cannot be switched on: with the free-shipping flag set in the "
        "environment, shipping_fee still charges 4.90.",
        gold=("p2", f.PRICING_SHIPPING_GOLD), decoy=("p1", f.PRICING_SHIPPING_DECOY),
        tests=f.PRICING_SHIPPING_TEST, p2p=["tests/test_cart.py::test_line_total_whole_units",
                                            "tests/test_rounding.py::test_half_cent_rounds_up"]))

    base = init_repo(textkit, f.TEXTKIT_BASE, "textkit: slugs")
    tasks.append(_task(textkit, "acme__textkit-1", TEXTKIT, base, "accents", 1,
        "slugify('Café Crème') returns 'café-crème'; slugs must be plain ASCII.",
        gold=("b", f.TEXTKIT_ACCENTS_GOLD), decoy=("a", f.TEXTKIT_ACCENTS_DECOY),
        tests=f.TEXTKIT_ACCENTS_TEST, p2p=["tests/test_slug.py::test_words_joined"]))

    save_tasks(tasks, dest / "tasks.jsonl")
    _write_sessions(dest / "sessions.jsonl")
    bank = Bank(origin=BankOrigin(kind="manual", note="dreamer demo suite"),
                memories=(*FACTS.values(), *DISTRACTORS))
    (dest / "bank.json").write_text(bank.model_dump_json(indent=2), encoding="utf-8")
    from evals.tasks import load_tasks

    return DemoSuite(path=dest, tasks=load_tasks(dest / "tasks.jsonl"), bank=bank)


SESSIONS = {"ses_demo_pricing": "acme/pricing", "ses_demo_textkit": "acme/textkit"}
"""The earlier sessions the demo bank's memories cite, all over before the first task opened."""


def _write_sessions(path: Path) -> None:
    """``sessions.jsonl``: when each cited session ended, for the harness's leak check."""
    import hashlib
    import json

    ended = datetime(2023, 12, 1, tzinfo=UTC).isoformat()
    rows = [{"instance_id": name, "repo": repo, "started_at": ended, "ended_at": ended,
             "sha256": hashlib.sha256(name.encode()).hexdigest()}
            for name, repo in SESSIONS.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _task(repo_path: Path, instance_id: str, repo: str, base: str, family: str, position: int,
          problem: str, *, gold: tuple[str, Mapping[str, str | None]],
          decoy: tuple[str, Mapping[str, str | None]], tests: Mapping[str, str | None],
          p2p: list[str]) -> Task:
    gold_patch = diff_for(repo_path, gold[1])
    test_module = next(iter(tests))
    f2p_names = [ln[4:].split("(")[0] for ln in (tests[test_module] or "").splitlines()
                 if ln.startswith("def test_")]
    return Task(
        instance_id=instance_id, repo=repo, base_commit=base, patch=gold_patch,
        test_patch=diff_for(repo_path, tests), problem_statement=problem,
        FAIL_TO_PASS=tuple(f"{test_module}::{name}" for name in f2p_names), PASS_TO_PASS=tuple(p2p),
        created_at=datetime(2024, 1, position, tzinfo=UTC), version="1",
        source=RepoSource(kind="git", location=str(repo_path.relative_to(repo_path.parent.parent))),
        family=family, position=position,
        candidates=tuple(sorted(
            (Candidate(id=gold[0], patch=gold_patch, description="from an earlier session"),
             Candidate(id=decoy[0], patch=diff_for(repo_path, decoy[1]),
                       description="from an earlier session")),
            key=lambda c: c.id)),
        oracle_memories=(FACTS[family].model_dump(mode="json"),),
    )


def main(argv: list[str]) -> None:
    from dreamer import settings
    from dreamer.store import open_store

    dest = Path(argv[0]) if argv else settings.home() / "suites" / "demo"
    suite = build_demo(dest)
    store = open_store()
    store.banks.put(suite.bank)
    store.banks.move_alias("demo", suite.bank.id, reason="demo suite built")
    print(f"demo suite: {suite.path} ({len(suite.tasks)} tasks); bank {suite.bank.id} alias 'demo'")


if __name__ == "__main__":
    main(sys.argv[1:])
