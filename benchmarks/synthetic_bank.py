"""Synthetic extraction banks for the dream benchmarks, shaped like the corpus's extractions.

``synthetic_bank(n)`` returns a ``Bank`` of about ``n`` memories over several repositories,
written the way the extractor writes them:

- episodes (``Task: ... -> changed shop/orders.py (4 commands, 2 test runs) -> submitted; last
  test run failed.``), some of which name a failing test and the exception (abstraction
  clusters them), many routine ones (forgetting puts them to sleep);
- lessons (failure, domain, procedural) drawn from a per-repository pool of facts, each fact
  restated in several phrasings by several sessions (dedupe merges them), some citing the same
  lines of one file;
- settings (``PAGE_SIZE = 50 in shop/config.py``, tagged ``setting:<path>:<KEY>=<value>``) whose
  value changes over time, with the changing commits witnessed by episodes (conflicts supersede
  the older values, citing the commit);
- citations of sessions, files (line spans, commit, hash of the lines) and tests.

Everything comes from a seeded ``random.Random``: the same ``n`` and seed give the same bank.

    .venv/bin/python benchmarks/synthetic_bank.py 1000     # prints what a bank of 1K holds
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

DOMAINS = ("orders", "invoices", "shipping", "payments", "users", "catalog", "search", "auth",
           "reports", "inventory", "notifications", "refunds", "pricing", "webhooks", "exports")
NOUNS = ("status", "timeout", "cursor", "token", "schema", "migration", "queue", "worker",
         "currency", "rounding", "discount", "locale", "cache", "lock", "retry", "batch",
         "header", "template", "address", "label", "session", "page", "index", "audit")
VERBS = ("persist", "serialise", "validate", "round", "retry", "lock", "paginate", "encode",
         "normalise", "cache", "format", "parse", "map", "sign", "refresh", "escape")
ERRORS = ("ImportError", "KeyError", "TypeError", "ValueError", "AssertionError",
          "TimeoutError", "IntegrityError", "UnicodeDecodeError")
SETTINGS = ("PAGE_SIZE", "REQUEST_TIMEOUT", "MAX_RETRIES", "BATCH_SIZE", "CACHE_TTL",
            "LOCK_TIMEOUT", "ROUNDING_DIGITS", "EXPORT_LIMIT")
ORGS = ("acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class _Repo:
    """One repository's vocabulary: files, functions, constants, tests and facts."""

    def __init__(self, name: str, rng: random.Random, facts: int) -> None:
        self.name = name
        self.package = name.split("/")[1].replace("-", "_")
        domains = rng.sample(DOMAINS, 8)
        self.files = [f"{self.package}/{d}.py" for d in domains] + \
            [f"{self.package}/{d}/{n}.py" for d in domains[:4] for n in rng.sample(NOUNS, 3)]
        self.config = f"{self.package}/config.py"
        self.functions = [f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}" for _ in range(40)]
        self.constants = [f"{rng.choice(NOUNS).upper()}_{rng.choice(NOUNS).upper()}"
                          for _ in range(20)]
        self.tests = {f: [f"tests/test_{f.split('/')[-1][:-3]}.py::test_{rng.choice(VERBS)}_"
                          f"{rng.choice(NOUNS)}" for _ in range(4)] for f in self.files}
        self.settings = {key: rng.choice((10, 20, 30, 50, 100, 250)) for key in
                         rng.sample(SETTINGS, 4)}
        self.setting_line = {key: 3 + i for i, key in enumerate(self.settings)}
        self.facts = [self._fact(rng, i) for i in range(max(4, facts))]
        self.causes = [(rng.choice(ERRORS), rng.choice(self.files), rng.choice(self.constants),
                        rng.choice(self.functions)) for _ in range(max(3, facts // 4))]

    def _fact(self, rng: random.Random, i: int) -> dict[str, Any]:
        path = rng.choice(self.files)
        const, func = rng.choice(self.constants), rng.choice(self.functions)
        noun, verb = rng.choice(NOUNS), rng.choice(VERBS)
        phrasings = (
            f"{func}() must {verb} the {noun} via {const}, never the raw value: the nightly "
            f"import reads it back (see {path}).",
            f"Do not {verb} the raw {noun} in {func}(); go through {const} before saving, or "
            f"the nightly import breaks ({path}).",
            f"When {func}() handles the {noun}, {verb} it with {const} rather than the raw "
            f"value; {path} documents why.",
        )
        start = rng.randrange(5, 300)
        return {"path": path, "phrasings": phrasings, "start": start,
                "end": start + rng.randrange(0, 12), "type": rng.choice(
                    ("failure", "domain", "procedural")), "test": rng.choice(self.tests[path])}


def synthetic_bank(n: int, seed: int = 7, repos: int | None = None) -> Any:
    """A bank of about ``n`` memories (see the module's docstring)."""
    from dreamer.models import (
        Bank,
        BankOrigin,
        Citation,
        CitationKind,
        Memory,
        MemoryType,
        Scope,
    )

    rng = random.Random(seed)
    count = repos if repos is not None else max(3, n // 4000)
    names = [f"{ORGS[i % len(ORGS)]}/{DOMAINS[i % len(DOMAINS)]}-service"
             + (f"-{i // len(DOMAINS)}" if i >= len(DOMAINS) else "") for i in range(count)]
    per_repo = max(1, n // count)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    memories: dict[str, Memory] = {}

    def session(repo: str, s: int, seq: int) -> Citation:
        return Citation(kind=CitationKind.SESSION, ref=f"ses_{_sha(f'{repo}:{s}')[:24]}:{seq}")

    def cite_file(path: str, a: int, b: int, commit: str, text: str) -> Citation:
        return Citation(kind=CitationKind.FILE, ref=path, path=path, start_line=a, end_line=b,
                        lines_sha256=_sha(text), commit=commit)

    def add(memory: Memory) -> None:
        memories.setdefault(memory.id, memory)

    for r, name in enumerate(names):
        repo = _Repo(name, rng, facts=per_repo // 8)
        values = dict(repo.settings)
        s = 0
        made = 0
        while made < per_repo:
            s += 1
            when = start + timedelta(hours=3 * s + rng.random(), days=r)
            commit = _sha(f"{name}:commit:{s}")[:40]
            own = [session(name, s, seq) for seq in (rng.randrange(3, 9), rng.randrange(10, 30))]
            path = rng.choice(repo.files)
            a = rng.randrange(1, 400)
            roll = rng.random()
            if roll < 0.06:  # a setting changes: the episode that changed it, then the lesson
                key = rng.choice(sorted(values))
                old, new = values[key], rng.choice((10, 20, 30, 50, 100, 250, 500))
                if new == old:
                    continue
                values[key] = new
                line = repo.setting_line[key]
                text = f"{key} = {new}"
                add(Memory(
                    type=MemoryType.EPISODIC, scope=Scope(repo=name),
                    summary=f"Task: change {key} from {old} to {new} -> changed {repo.config} "
                    f"(2 commands, 1 test runs) -> submitted; last test run passed.",
                    conditions=(f"when working on {repo.config}",),
                    citations=(own[0], cite_file(repo.config, line, line, commit, text)),
                    created_at=when, confidence=0.5))
                add(Memory(
                    type=MemoryType.DOMAIN, scope=Scope(repo=name),
                    summary=f"{key.replace('_', ' ').lower().capitalize()} is {new} ({key} = "
                    f"{new} in {repo.config}); callers rely on it, keep it that way.",
                    citations=(own[1], cite_file(repo.config, line, line,
                                                 _sha(f"{commit}+1")[:40], text)),
                    created_at=when + timedelta(minutes=30), confidence=0.6,
                    tags=(f"setting:{repo.config}:{key}={new}",)))
                made += 2
                continue
            if roll < 0.45:  # a lesson restating a fact of the repository
                fact = rng.choice(repo.facts)
                summary = rng.choice(fact["phrasings"])
                cites = [own[0], cite_file(fact["path"], fact["start"], fact["end"], commit,
                                           summary[:20])]
                if rng.random() < 0.5:
                    cites.append(Citation(kind=CitationKind.TEST, ref=fact["test"]))
                add(Memory(
                    type=MemoryType(fact["type"]), scope=Scope(repo=name, phase="edit"),
                    summary=summary, conditions=(f"when changing {fact['path']}",),
                    citations=tuple(cites), created_at=when, confidence=0.6))
                made += 1
            if roll < 0.7:  # a failing episode with a recurring cause
                error, cpath, const, func = rng.choice(repo.causes)
                test = rng.choice(repo.tests[cpath])
                add(Memory(
                    type=MemoryType.FAILURE if rng.random() < 0.3 else MemoryType.EPISODIC,
                    scope=Scope(repo=name),
                    summary=f"Task: fix {func} for the {rng.choice(NOUNS)} {rng.choice(NOUNS)} "
                    f"-> `{test}` failed with {error} until {cpath} used {const} -> submitted; "
                    f"last test run passed.",
                    conditions=(f"when working on {cpath}",),
                    citations=(own[1], cite_file(cpath, a, a + 6, commit, f"{s}"),
                               Citation(kind=CitationKind.TEST, ref=test)),
                    created_at=when + timedelta(minutes=5), confidence=0.5))
            else:  # a routine episode
                add(Memory(
                    type=MemoryType.EPISODIC, scope=Scope(repo=name),
                    summary=f"Task: {rng.choice(VERBS)} the {rng.choice(NOUNS)} "
                    f"{rng.choice(NOUNS)} in {rng.choice(repo.functions)} -> changed {path} "
                    f"({rng.randrange(2, 9)} commands, {rng.randrange(1, 4)} test runs) -> "
                    f"submitted.",
                    conditions=(f"when working on {path}",),
                    citations=(own[1], cite_file(path, a, a + rng.randrange(0, 9), commit,
                                                 f"{s}")),
                    created_at=when + timedelta(minutes=5), confidence=0.5))
            made += 1
    ordered = tuple(sorted(memories.values(), key=lambda m: m.id))
    return Bank(origin=BankOrigin(kind="extraction", note=f"synthetic bank of {n}, seed {seed}"),
                memories=ordered)


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 1000
    bank = synthetic_bank(n)
    kinds = Counter(m.type.value for m in bank.memories)
    repos = Counter(m.scope.repo for m in bank.memories)
    texts = Counter(m.summary for m in bank.memories)
    settings = sum(any(t.startswith("setting:") for t in m.tags) for m in bank.memories)
    print(f"{len(bank.memories)} memories over {len(repos)} repositories: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
          + f"; {len(texts)} distinct summaries; {settings} setting memories")


if __name__ == "__main__":
    main(sys.argv[1:])
