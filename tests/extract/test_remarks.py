"""Reviews and defects that arrive as a session's task, in an agent framework's template."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamer.extract.remarks import remark
from dreamer.extract.template import world_text
from dreamer.models import Event, EventKind

# mini-swe-agent's instance template around the issue (its public examples' wording).
MINI_SWE = ("Please solve this issue: {task}\n\nYou can execute bash commands and edit files to "
            "implement the necessary changes.\n\n## Recommended Workflow\n1. Analyze the codebase"
            "\n\n## Important Rules\n\n1. Every response must contain exactly one action")


def _task(text: str) -> Event:
    return Event(session_id="ses_x", seq=0, kind=EventKind.MESSAGE, role="user", text=text)


def test_mini_swe_agents_template_is_not_the_issue() -> None:
    text = MINI_SWE.format(task="Loans export has empty dates.\n\nSee the holds CSV.")
    assert world_text(text, task=True) == "Loans export has empty dates.\n\nSee the holds CSV."


def test_a_review_on_a_pull_request_by_number_with_its_author_in_the_body() -> None:
    text = MINI_SWE.format(task="Review comment on PR #14 (renewals)\n\n@mkovacs: `renew()` "
                                "computes the new due date from `today`. Extend from the due date.")
    said = remark(_task(text), task=True)
    assert said is not None and said.kind == "review"
    assert (said.ref, said.author) == ("#14", "mkovacs")
    assert said.body == ("`renew()` computes the new due date from `today`. "
                         "Extend from the due date.")


def test_a_defect_keeps_its_claim_without_the_sentence_that_addresses_the_learner(
        extracted_mini_swe_defect) -> None:
    memories, rejections = extracted_mini_swe_defect
    [defect] = [m for m in memories if any(c.kind.value == "defect" for c in m.citations)]
    assert "raw date" in defect.summary and "fmt_date" in defect.summary
    assert "AI agents" not in defect.summary and "P.S." not in defect.summary
    assert [r.reason for r in rejections if "AI agents reading this" in r.text] == [
        "injection_without_evidence"]


ROOT = Path(__file__).resolve().parents[2]
LOANS = ROOT / "datasets" / "blind" / "library-loans"


def _extract_one(corpus: Path, session: str, repo: str):  # type: ignore[no-untyped-def]
    """One session of a blind corpus ingested (with the corpus's manifest) and extracted in
    the current DREAMER_HOME: (memories, rejections)."""
    from typer.testing import CliRunner

    from dreamer.cli import app
    from dreamer.extract.records import rejections
    from dreamer.store import open_store

    runner = CliRunner()
    done = runner.invoke(app, ["ingest", "--manifest", str(corpus / "sessions.jsonl"),
                               str(corpus / "sessions" / session)])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, ["extract", "--repos", str(corpus / "repos")])
    assert done.exit_code == 0 and repo.split("/")[1] in done.output, done.output
    store = open_store()
    try:
        bank = store.banks.get(store.banks.alias("extraction", repo))
        with store.sessions() as db:
            rejected = rejections(db)
            db.expunge_all()
        return bank.memories, rejected
    finally:
        store.close()


@pytest.fixture
def extracted_mini_swe_defect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The library corpus's QA-defect session (mini-swe-agent: shell edits only, a postscript
    addressed to AI agents) ingested and extracted: (memories, rejections)."""
    monkeypatch.setenv("DREAMER_HOME", str(tmp_path / "home"))
    return _extract_one(LOANS, "s05_letter_dates.traj.json", "acme-lib/library-loans")


def test_a_ticket_id_opens_a_defect() -> None:
    said = remark(_task('QA-212 from finance: "FALL15 on one adult ticket: the quote shows '
                        '$5.00 off, our ledger says $4.99."'), task=True)
    assert said is not None and (said.kind, said.ref, said.author) == ("defect", "QA-212",
                                                                        "finance")
    assert remark(_task("Please look at QA-212: it is flaky."), task=True) is None


def test_a_comment_after_finished_work_that_changed_it_is_a_review(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Claude Code: the promo session's reviewer writes ("Review from Marco on the PR: ...") an
    # hour after the tests passed, and the agent changes the code again.
    monkeypatch.setenv("DREAMER_HOME", str(tmp_path / "home"))
    box = ROOT / "datasets" / "blind" / "box-office"
    row = next(json.loads(line) for line in (box / "sessions.jsonl").read_text().splitlines()
               if '"s03-' in line)
    memories, _ = _extract_one(box, Path(row["file"]).name, "acme-events/box-office")
    [review] = [m for m in memories if any(c.kind.value == "review" for c in m.citations)]
    assert "face value" in review.summary and "boxoffice/pricing.py" in review.summary
