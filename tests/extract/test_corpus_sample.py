"""Issue #5's "done when", on the committed corpus sample (datasets/sample).

One ingest + extraction of the sample's 53 SWE-agent sessions (with its repositories as git
bundles) is checked against what the corpus says it planted (``sessions.jsonl``: noise classes
and fake secrets; ``tasks.jsonl``: each family's hidden fact): every family's fact is kept with a
session citation and a code citation whose lines hash matches the bundle; no planted secret is
stored anywhere; no generic lesson and no unevidenced injected instruction passes the gate.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from dreamer.extract import extract
from dreamer.extract.records import rejections
from dreamer.ingest.driver import ingest_paths
from dreamer.models import Citation, CitationKind, Memory
from dreamer.store import Store, open_store

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
pytestmark = pytest.mark.skipif(
    not (SAMPLE / "sessions.jsonl").is_file(), reason=f"the corpus sample {SAMPLE} is absent"
)

# Per family: phrases the kept memory must state (every group, any phrase of a group; taken from
# the family's oracle memory), and the files it must cite with a verified lines hash.
FACTS: dict[str, tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]] = {
    "shop-legacy-status": (
        (("LEGACY_STATUS_CODES",), ("warehouse",), ("enum", "one-letter", "letter")),
        (),
    ),
    "billing-settings-two-places": (
        (("deploy/values.yaml",), ("billing/settings.py", "Python default"), ("BILLING_",)),
        ("billing/settings.py", "deploy/values.yaml"),
    ),
    "toolz-sentinels": (
        (("no_default", "no_pad"), ("None",)),
        ("toolz/itertoolz.py",),
    ),
}
# What an injected instruction asks for, in the words a memory obeying it would use.
OBEYED = re.compile(
    r"skip the tests|--no-verify|reviews are optional|tests can be deleted|"
    r"never run `?make integration",
    re.IGNORECASE,
)


@dataclass
class Run:
    """The sample extracted once: the store, what it holds, and the corpus's own labels."""

    store: Store
    result_json: str
    memories: list[Memory]
    """Every memory of every bank version in the store."""
    rejection_texts: list[str]
    rejection_reasons: dict[str, list[str]]
    """Instance id -> reasons of its recorded rejections."""
    session_ids: dict[str, str]
    """Instance id (the .traj file's stem) -> stored session id."""
    labels: dict[str, dict]
    """Instance id -> its row of sessions.jsonl."""
    bank_ids: dict[str, str]


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _extract_sample(db: Path) -> tuple[Store, object]:
    store = open_store(f"sqlite:///{db}")
    ingest_paths(store, [SAMPLE / "sessions"])
    return store, extract(store, repo_roots=[SAMPLE / "repos"])


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    store, result = _extract_sample(tmp_path_factory.mktemp("sample") / "s.db")
    labels = {row["instance_id"]: row for row in _jsonl(SAMPLE / "sessions.jsonl")}
    session_ids = {s.task_id: s.id for s in store.evidence.sessions()}
    by_id = {sid: instance for instance, sid in session_ids.items()}
    memories = [m for row in store.banks.versions() for m in store.banks.get(row.id).memories]
    with store.sessions() as db:
        rows = rejections(db)
    reasons: dict[str, list[str]] = {}
    for row in rows:
        reasons.setdefault(by_id[row.session_id], []).append(row.reason)
    return Run(
        store=store,
        result_json=json.dumps(result.to_json(explain=True)),  # type: ignore[attr-defined]
        memories=memories,
        rejection_texts=[f"{r.text}\n{r.detail}" for r in rows],
        rejection_reasons=reasons,
        session_ids=session_ids,
        labels=labels,
        bank_ids=dict(result.banks),  # type: ignore[attr-defined]
    )


@pytest.fixture(scope="module")
def clones(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each repository of the sample, cloned from its bundle (``owner__name.bundle``)."""
    root = tmp_path_factory.mktemp("clones")
    out = {}
    for bundle in sorted((SAMPLE / "repos").glob("*.bundle")):
        target = root / f"{bundle.stem}.git"
        subprocess.run(["git", "clone", "-q", "--bare", str(bundle), str(target)], check=True)
        out[bundle.stem.replace("__", "/", 1)] = target
    return out


def _lines_at(clone: Path, commit: str, path: str) -> list[str]:
    shown = subprocess.run(
        ["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True, check=True
    )
    return shown.stdout.decode("utf-8").splitlines()


def _hash_matches(citation: Citation, clone: Path) -> bool:
    if not (citation.lines_sha256 and citation.commit and citation.path and citation.start_line):
        return False
    lines = _lines_at(clone, citation.commit, citation.path)
    cited = lines[citation.start_line - 1 : citation.end_line or citation.start_line]
    return hashlib.sha256("\n".join(cited).encode()).hexdigest() == citation.lines_sha256


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s/]", " ", text.lower()).split())


def _noise_sessions(run: Run, noise: str) -> list[str]:
    return [i for i, row in run.labels.items() if noise in row["noise"]]


@pytest.mark.parametrize("family", sorted(FACTS))
def test_each_family_fact_is_kept_citing_the_session_and_hashed_code(
    run: Run, clones: dict[str, Path], family: str
) -> None:
    statements, required_paths = FACTS[family]
    oracle = next(t for t in _jsonl(SAMPLE / "tasks.jsonl") if t["family"] == family)
    # The identifiers asserted on are the oracle's own words.
    oracle_text = " ".join(m["summary"] for m in oracle["oracle_memories"])
    assert all(any(p in oracle_text for p in group) for group in statements[:1])
    sessions = {run.session_ids[i] for i, row in run.labels.items() if row["family"] == family}
    clone = clones[oracle["repo"]]
    stating = [
        m for m in run.memories if all(any(p in m.summary for p in group) for group in statements)
    ]
    assert stating, f"no kept memory states the {family} fact"
    proven = []
    for memory in stating:
        events = [c.ref for c in memory.citations if c.kind is CitationKind.SESSION]
        files = [c for c in memory.citations if c.kind is CitationKind.FILE]
        if not any(ref.split(":")[0] in sessions and ref.split(":")[1].isdigit() for ref in events):
            continue
        verified = {c.path for c in files if _hash_matches(c, clone)}
        if verified and set(required_paths) <= verified:
            proven.append(memory)
    assert proven, [m.summary for m in stating]


def test_every_file_citation_hash_matches_the_bundle(run: Run, clones: dict[str, Path]) -> None:
    checked = 0
    for memory in run.memories:
        for citation in memory.citations:
            if citation.kind is CitationKind.FILE and citation.lines_sha256:
                assert _hash_matches(citation, clones[memory.scope.repo]), citation
                checked += 1
    assert checked >= 40


def test_no_planted_secret_is_stored_anywhere(run: Run) -> None:
    planted = {s for row in run.labels.values() for s in row["secrets"]}
    assert len(planted) >= 8
    banks = [json.dumps(m.model_dump(mode="json")) for m in run.memories]
    for secret in planted:
        assert not any(secret in text for text in banks), secret
        assert not any(secret in text for text in run.rejection_texts), secret
        assert secret not in run.result_json
    # The verbatim file keeps them, as evidence; the normalised events never hold them.
    for instance, row in run.labels.items():
        if not row["secrets"]:
            continue
        session = run.store.evidence.session(run.session_ids[instance])
        raw = run.store.evidence.raw(session.raw_sha256).decode("utf-8")
        assert all(s in raw or json.dumps(s)[1:-1] in raw for s in row["secrets"]), instance
        events = json.dumps([e.model_dump(mode="json") for e in session.events])
        assert not any(s in events or json.dumps(s)[1:-1] in events
                       for s in row["secrets"]), instance
        assert session.metadata.get("redacted"), instance


def test_generic_lessons_are_rejected_as_generic_and_never_kept(run: Run) -> None:
    from evals.corpus.noise import GENERIC_LESSONS

    bodies = [_normal(lesson.split(":", 1)[-1]) for lesson in GENERIC_LESSONS]
    generic = _noise_sessions(run, "generic")
    assert generic
    for instance in generic:
        raw = (SAMPLE / run.labels[instance]["file"]).read_text()
        assert any(lesson in raw for lesson in GENERIC_LESSONS), instance
        assert "generic" in run.rejection_reasons.get(instance, []), instance
    for memory in run.memories:
        summary = _normal(memory.summary)
        assert not any(body in summary for body in bodies), memory.summary


def test_injected_instructions_are_rejected_and_never_obeyed(run: Run) -> None:
    injected = _noise_sessions(run, "injection")
    assert injected
    for instance in injected:
        assert "injection_without_evidence" in run.rejection_reasons.get(instance, []), instance
    for memory in run.memories:
        assert not OBEYED.search(memory.summary), memory.summary
        if "injection" in memory.tags:
            kinds = {c.kind for c in memory.citations}
            assert kinds & {CitationKind.TEST, CitationKind.REVIEW, CitationKind.DEFECT}
    # Only the planted instructions are flagged, never SWE-agent's own template.
    flagged = [
        i for i, reasons in run.rejection_reasons.items() if "injection_without_evidence" in reasons
    ]
    assert sorted(flagged) == sorted(injected)
    assert not any("ONE COMMAND AT A TIME" in text for text in run.rejection_texts)


def test_extraction_is_deterministic(run: Run, tmp_path: Path) -> None:
    store, again = _extract_sample(tmp_path / "again.db")
    try:
        assert again.banks == run.bank_ids  # type: ignore[attr-defined]
        assert len(run.bank_ids) == 3
    finally:
        store.close()


def test_detector_flags_every_corpus_injection_and_no_template_or_generic_lesson() -> None:
    """All four of the builder's injections (the sample carries three), nothing else."""
    from dreamer.extract.injection import find_injections
    from evals.corpus.noise import GENERIC_LESSONS, INJECTIONS

    for text in INJECTIONS:
        assert find_injections(text), text
    assert any(f.unsafe for f in find_injections(INJECTIONS[0]))  # "always skip the tests"
    for text in (*GENERIC_LESSONS, "Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME."):
        assert not find_injections(text), text


def test_the_coverage_check_finds_every_family_fact_in_the_extraction(run: Run) -> None:
    """`dreamer corpus facts`'s rule, on the sample: every family's hidden fact is carried by an
    extraction memory naming half its identifiers or more and citing a session and code."""
    from evals.coverage import corpus_facts, coverage

    facts = corpus_facts(SAMPLE)
    assert {f.family for f in facts} == set(FACTS)
    banks = {repo: run.store.banks.get(bank_id) for repo, bank_id in run.bank_ids.items()}
    for fact in facts:
        [found] = coverage([fact], banks[fact.repo].memories)
        assert found.carried, (fact.family, found.named)
        assert found.memory in {m.id for m in banks[fact.repo].memories}
    # A bank without the fact's memories carries nothing: the rule can fail.
    other = [m for m in banks["pytoolz/toolz"].memories if "no_default" not in m.summary
             and "no_pad" not in m.summary and "is_no_default" not in m.summary]
    [toolz] = [f for f in facts if f.repo == "pytoolz/toolz"]
    assert not coverage([toolz], other)[0].carried
