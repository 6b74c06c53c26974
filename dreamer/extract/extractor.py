"""Extraction runs: sessions not yet extracted -> candidates -> write gate -> a new bank version.

For each repository, the new bank is the previous extraction bank (alias ``extraction``) plus the
memories kept from the new sessions, with the previous one as parent. Evidence is only read.
Memories take their time from the evidence, so the same sessions always give the same bank id.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dreamer.extract import (
    episodes,
    history,
    line_history,
    procedures,
    rewrites,
    rules,
    settings,
    statements,
    versions,
)
from dreamer.extract import lm as lm_backend
from dreamer.extract.candidate import Candidate, to_memory
from dreamer.extract.citations import CodeCiter
from dreamer.extract.evidence import SessionView
from dreamer.extract.gate import Gate, Reason
from dreamer.extract.git_reader import GitReader
from dreamer.extract.records import ExtractionRow, RejectionRow, extracted
from dreamer.extract.secrets import redact
from dreamer.lm import DEFAULT_MAX_FAILURES, LMUsage, lm_name, make_lm, usage_for
from dreamer.models import Bank, BankOrigin, Memory, Session, content_hash
from dreamer.store import Store

ALIAS = "extraction"
"""The per-repository alias that points at the latest extraction bank."""
GATE_VERSION = 2
"""Bumped whenever the gate's rules change, so a bank's config says which gate wrote it."""


@dataclass(frozen=True)
class Rejection:
    """One candidate the gate refused, as recorded (its text redacted)."""

    session_id: str
    event_seq: int | None
    memory_type: str
    rule: str
    reason: str
    detail: str
    text: str


@dataclass
class ExtractionResult:
    """What an extraction run did: counts, the banks written, the rejections with reasons."""

    sessions: int = 0
    candidates: int = 0
    kept: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    redacted: Counter[str] = field(default_factory=Counter)
    banks: dict[str, str] = field(default_factory=dict)
    """Repository (``*`` for sessions without one) -> the new extraction bank id."""
    memories: list[Memory] = field(default_factory=list)
    """The memories kept in this run."""
    rejections: list[Rejection] = field(default_factory=list)
    lm_usage: dict[str, Any] | None = None
    """The LM's calls, failures and fallbacks (None: the offline rules ran)."""

    @property
    def bank(self) -> str | None:
        """The new bank's id when the run wrote one bank (the usual case, one repository)."""
        return next(iter(self.banks.values())) if len(self.banks) == 1 else None

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sessions": self.sessions,
            "candidates": self.candidates,
            "kept": self.kept,
            "rejected": dict(sorted(self.rejected.items())),
            "redacted": sum(self.redacted.values()),
            "redacted_by_type": dict(sorted(self.redacted.items())),
            "bank": self.bank,
            "banks": self.banks,
            "lm_usage": self.lm_usage,
        }
        if explain:
            out["rejections"] = [r.__dict__ for r in self.rejections]
        return out


Proposer = Callable[[SessionView, CodeCiter], list[Candidate]]


def rule_candidates(view: SessionView, citer: CodeCiter) -> list[Candidate]:
    """Every rule of the offline backend over one session, in a fixed order."""
    found = [
        *rules.failures(view, citer),
        *procedures.commands(view),
        *procedures.guards(view, citer),
        *statements.remarks(view, citer),
        *statements.lessons(view, citer),
        *settings.settings(view, citer),
        *settings.relied(view, citer),
        *episodes.episode(view, citer),
    ]
    return found + statements.instructions(view, found)


def extract(
    store: Store,
    repo: str | None = None,
    since: datetime | None = None,
    lm: Any = None,
    repos: dict[str, Path] | None = None,
    repo_roots: list[Path] | None = None,
    max_failures: float = DEFAULT_MAX_FAILURES,
    program: Any = None,
) -> ExtractionResult:
    """Extract the sessions of ``store`` not extracted yet (of ``repo``, ingested since ``since``).

    ``lm`` is a litellm model string, an ``LMConfig`` or a ``dspy.LM`` (built by
    ``dreamer.lm.make_lm``); None uses the offline rules. A call that fails falls back to the
    rules for its session; when more than ``max_failures`` of the calls fail, the run raises
    ``LMRunError`` before moving the alias. ``program`` is the extraction program (a
    ``dspy.Module``, or the path of one DSPy saved); None: a fresh one. ``repos``
    maps repository names to local git repositories and ``repo_roots`` are folders holding them
    (``DREAMER_REPOS`` adds more), from which cited lines are read and hashed.
    """
    result = ExtractionResult()
    listed = store.evidence.sessions(repo=repo, since=since)
    with store.sessions() as db:
        done = extracted(db, [s.id for s in listed])
    todo = [s for s in listed if s.id not in done]
    result.sessions = len(todo)
    if not todo:
        return result
    model = make_lm(lm)
    backend = f"lm:{lm_name(model)}" if model is not None else "rules"
    config = {"backend": backend, "gate_version": GATE_VERSION}
    usage = usage_for(model, max_failures) if model is not None else None
    if model is not None and not hasattr(program, "forward"):
        program = lm_backend.session_to_memories(program)
    reader = GitReader(roots=repo_roots, repos=repos)
    groups: dict[str | None, list[Session]] = defaultdict(list)
    for s in todo:
        groups[s.repo].append(s)
    try:
        for group_repo, sessions in groups.items():
            _extract_repo(store, group_repo, sessions, model, reader, config, result, usage,
                          program)
    finally:
        reader.close()
        if usage is not None:
            result.lm_usage = usage.as_dict()
    return result


def _extract_repo(
    store: Store,
    repo: str | None,
    sessions: list[Session],
    model: Any,
    reader: GitReader,
    config: dict[str, Any],
    result: ExtractionResult,
    usage: LMUsage | None = None,
    program: Any = None,
) -> None:
    previous_id = store.banks.alias(ALIAS, repo)
    previous = store.banks.get(previous_id) if previous_id else None
    gate = Gate(known_ids={m.id for m in previous.memories} if previous else set())
    kept: list[Memory] = []
    rows: list[ExtractionRow] = []
    rejected_rows: list[RejectionRow] = []
    now = datetime.now(UTC)
    with store.sessions() as db:
        reread = {sid: set[str]() for sid in versions.read_before(db, [s.id for s in sessions])}
    # Commits the repository's sessions made: their own memories tell those changes.
    all_sessions = store.evidence.sessions(repo=repo) if repo else sessions
    made: dict[Path, frozenset[str]] = {}
    for listed in sessions:
        session = store.evidence.session(listed.id)
        view = SessionView(session)
        citer = CodeCiter(
            reader,
            reader.locate(session.repo, session.metadata.get("repo_path"), view.commits),
            view.commits,
        )
        candidates, failure = _propose(view, citer, model, usage, program)
        if failure:
            rejected_rows.append(
                _rejection_row(session.id, None, "-", "lm", Reason.LM_ERROR, failure, "", now)
            )
        vocabulary = statements.vocabulary(view)
        mine = 0
        queue = list(candidates)
        while queue:
            cand = queue.pop(0)
            # A candidate without citations cannot even become a Memory; the gate says why.
            written = to_memory(cand) if cand.citations else None
            if written is not None:
                result.redacted.update(written.redacted)
                reread.get(session.id, set()).add(written.memory.id)
            verdict = gate.judge(cand, vocabulary, written.memory.id if written else None,
                                 code=citer)
            if verdict.kept and written is not None:
                memory, later = written.memory, []
                if cand.rule != "history" and citer.git_dir is not None:
                    # A setting it states may have changed since, and the code it cites may
                    # have been rewritten: the repository's history says.
                    later = history.changed_settings(memory, reader, citer.git_dir, session.id)
                    if citer.git_dir not in made:
                        made[citer.git_dir] = line_history.session_commits(citer.git_dir,
                                                                       all_sessions)
                    memory, rewritten = rewrites.history_memories(
                        memory, citer.git_dir, made[citer.git_dir], session.id)
                    later += rewritten
                kept.append(memory)
                mine += 1
                queue.extend(later)
                candidates.extend(later)
                continue
            if written is not None:
                text = written.memory.summary
            else:
                redaction = redact(cand.summary)
                result.redacted.update(redaction.found)
                text = redaction.text
            rejected_rows.append(
                _rejection_row(
                    session.id,
                    cand.source_seq,
                    cand.type.value,
                    cand.rule,
                    verdict.reason or Reason.NO_EVIDENCE,
                    verdict.detail,
                    text,
                    now,
                )
            )
        result.candidates += len(candidates)
        rows.append(
            ExtractionRow(
                session_id=session.id,
                bank_id=None,
                backend=config["backend"],
                candidates=len(candidates),
                kept=mine,
                at=now,
                session_version=int(session.metadata.get("version") or 1),
            )
        )
    bank_id = previous.id if previous else None
    before = tuple(previous.memories) if previous else ()
    carried = versions.supersede_unwritten(before, reread) if reread else list(before)

    def record(db: Any) -> None:  # the run's rows, in the transaction that moves the alias
        for extraction in rows:
            extraction.bank_id = bank_id
            db.merge(extraction)  # a session read again replaces its row
        db.add_all(rejected_rows)

    if usage is not None:  # too many failed calls: stop before any alias moves
        usage.check(f"the extraction of {repo or 'sessions without a repository'}")
    if kept or carried != list(before):
        recorded = {**config, "lm_usage": usage.as_dict() if usage is not None else
                    {"model": None, "calls": 0, "failures": 0, "fallbacks": 0}}
        bank = Bank(
            repo=repo,
            parent_id=previous.id if previous else None,
            origin=BankOrigin(kind="extraction", config=recorded,
                              config_hash=content_hash(config)),
            created_at=now,
            memories=(*carried, *kept),
        )
        bank_id = bank.id
        store.banks.put_and_move(bank, ALIAS, repo, reason=f"extracted {len(sessions)} sessions",
                                 actor="dreamer extract", also=record)
        result.banks[repo or "*"] = bank_id
    else:
        with store.sessions.begin() as db:
            record(db)
    result.kept += len(kept)
    result.memories.extend(kept)
    for row in rejected_rows:
        result.rejected[row.reason] += 1
        result.rejections.append(
            Rejection(
                row.session_id,
                row.event_seq,
                row.memory_type,
                row.rule,
                row.reason,
                row.detail,
                row.text,
            )
        )


def _propose(view: SessionView, citer: CodeCiter, model: Any, usage: LMUsage | None = None,
             program: Any = None) -> tuple[list[Candidate], str | None]:
    """The backend's candidates; if the model fails, exactly the offline rules' candidates and
    why it failed (counted in ``usage``, which stops the run after too many failures)."""
    if model is None:
        return rule_candidates(view, citer), None
    from dspy.utils.exceptions import DSPyError

    try:
        with usage.metered() if usage is not None else nullcontext():
            found = lm_backend.propose(view, citer, model, program)
    except (DSPyError, ValueError, TypeError) as exc:  # provider error, malformed answer
        if usage is not None:
            usage.failed("extract", exc)
        return rule_candidates(view, citer), redact(f"{type(exc).__name__}: {exc}").text[:500]
    if usage is not None:
        usage.ok()
    return found, None


def _rejection_row(
    session_id: str,
    seq: int | None,
    memory_type: str,
    rule: str,
    reason: str,
    detail: str,
    text: str,
    at: datetime,
) -> RejectionRow:
    return RejectionRow(
        session_id=session_id,
        event_seq=seq,
        memory_type=memory_type,
        rule=rule,
        reason=str(reason),
        detail=redact(detail).text,
        text=text,
        at=at,
    )
