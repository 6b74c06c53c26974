"""Code rewritten by a later commit: the lines a memory cites are followed through the
repository's history; the commit that rewrote their logic becomes a memory naming it, and the
older memory that states what it changed is superseded, naming the commit."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from dreamer.extract import extract
from dreamer.extract.rewrites import rewrite_of, rewritten_by
from dreamer.models import Bank, BankOrigin, Memory
from dreamer.stages import STAGES, Similarity, StageContext
from dreamer.store import Store

from .conftest import FIXED, ShopRepo, add, make_session, shop_events

V2 = FIXED.replace("from shop.codes import LEGACY_STATUS_CODES",
                   "from shop.codes import STATUS_CODES_V2").replace(
    "row.status = LEGACY_STATUS_CODES[order.status]", "row.status = STATUS_CODES_V2[order.status]")


def _commit(repo: Path, text: str, message: str, when: str) -> str:
    (repo / "src" / "shop" / "orders.py").write_text(text)
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", message], check=True, env=env,
                   capture_output=True)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def _extract(store: Store, shop_repo: ShopRepo) -> list[Memory]:
    add(store, *make_session(shop_events("", shop_repo.fix_diff), start=shop_repo.start,
                             end=shop_repo.end))
    return extract(store, repos={"acme/shop": shop_repo.path}).memories


def test_a_later_commit_that_rewrote_the_cited_code_is_named_and_supersedes_the_old_lesson(
        store: Store, shop_repo: ShopRepo, tmp_path: Path) -> None:
    changed = _commit(shop_repo.path, V2, "Status codes v2 for the new warehouse",
                      "2026-11-20T09:00:00+00:00")
    memories = _extract(store, shop_repo)
    [history] = [m for m in memories if rewrite_of(m) is not None]
    assert history.summary.startswith(f"Commit {changed[:12]} (2026-11-20, Status codes v2 for "
                                      "the new warehouse) rewrote `store_status` in "
                                      "`src/shop/orders.py`")
    assert "brought in `STATUS_CODES_V2`" in history.summary
    assert "took out `LEGACY_STATUS_CODES`" in history.summary
    assert "row.status" not in history.summary  # names, never the code line
    assert history.created_at is not None and history.created_at.isoformat().startswith(
        "2026-11-20")
    assert {c.commit for c in history.citations if c.kind.value == "file"} >= {
        changed, shop_repo.end}
    # The lesson of the session names LEGACY_STATUS_CODES: it describes the code before.
    [lesson] = [m for m in memories if m.type.value == "failure"
                and "LEGACY_STATUS_CODES" in m.summary]
    assert changed[:12] in rewritten_by(lesson)

    bank = Bank(origin=BankOrigin(kind="extraction"), memories=tuple(memories))
    conflicts = STAGES.get("conflicts")
    result = conflicts(conflicts.Config()).run(
        bank, StageContext(similarity=Similarity("tfidf"), skills_dir=tmp_path / "skills"))
    after = result.bank
    was = after.get(lesson.id)
    assert not was.is_active
    assert {(link.relation, link.target) for link in was.links} >= {
        ("superseded_by", history.id), ("changed_in", f"commit:{changed}")}
    assert after.get(history.id).is_active
    assert result.metrics["code_rewritten"] >= 1
    assert any(f"changed in commit {changed}" in p.reason for p in result.provenance)


def test_a_change_of_data_only_or_a_sessions_own_commit_is_no_rewrite(
        store: Store, shop_repo: ShopRepo) -> None:
    # A docstring and a comment changed: no name, operator or keyword came or went.
    _commit(shop_repo.path, FIXED.replace('"""Orders and how their status is stored."""',
                                          '"""Orders, and the codes their status is stored as."""')
            .replace("    return row", "    return row  # the caller saves it"),
            "Docs", "2026-11-10T09:00:00+00:00")
    # A later session made this one: that session's own memories tell it.
    before = subprocess.run(["git", "-C", str(shop_repo.path), "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    made = _commit(shop_repo.path, V2, "Status codes v2", "2026-11-20T09:00:00+00:00")
    add(store, *make_session([shop_events("", shop_repo.fix_diff)[0]], name="s2", day=20,
                             start=before, end=made))
    memories = _extract(store, shop_repo)
    assert not [m for m in memories if rewrite_of(m) is not None]
    assert not [m for m in memories if rewritten_by(m)]


def test_the_definitions_a_memory_names_are_followed_with_the_constants_they_read(
        tmp_path: Path) -> None:
    """A memory that names ``service_day`` (not citing its lines) still learns that the start
    hour its rule reads changed; a name defined in two files is not guessed at."""
    from dreamer.extract.rewrites import history_memories
    from dreamer.models import Citation, CitationKind, MemoryType, Scope

    repo = tmp_path / "fares"
    (repo / "fares").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    day = ("START_HOUR = 3\n\n\ndef service_day(at):\n    shifted = at.hour < START_HOUR\n"
           "    return at.date() if not shifted else at.date() - 1\n")
    (repo / "fares" / "day.py").write_text(day)
    (repo / "fares" / "caps.py").write_text("from fares.day import service_day\n\n\n"
                                            "def cap(rides):\n    return len(rides)\n")
    (repo / "fares" / "other.py").write_text("def cap(x):\n    return x\n")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "GIT_AUTHOR_DATE": "2024-03-01T09:00:00+00:00",
           "GIT_COMMITTER_DATE": "2024-03-01T09:00:00+00:00"}
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "fares"], check=True, env=env)
    base = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    (repo / "fares" / "day.py").write_text(day.replace("START_HOUR = 3", "START_HOUR = 4"))
    env.update(GIT_AUTHOR_DATE="2024-03-25T09:30:00+00:00",
               GIT_COMMITTER_DATE="2024-03-25T09:30:00+00:00")
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "Service day starts at 04:00"],
                   check=True, env=env)
    memory = Memory(type=MemoryType.FAILURE, scope=Scope(repo="acme/fares"),
                    summary="Changing `fares/caps.py`: the cap test failed; the passing fix used "
                            "`fares.day.service_day`, in `cap`.",
                    citations=(Citation(kind=CitationKind.SESSION, ref="ses_1:4"),
                               Citation(kind=CitationKind.FILE, ref="fares/caps.py",
                                        path="fares/caps.py", start_line=4, end_line=5,
                                        commit=base)))
    tagged, found = history_memories(memory, repo, (), "ses_1")
    [setting] = found
    assert setting.summary.startswith("START_HOUR in `fares/day.py` is 4 since commit ")
    assert "it was 3 before" in setting.summary
    assert any(t.startswith("rewritten:") for t in tagged.tags)
    # ``cap`` is defined in two files: neither is followed.
    assert all(c.path == "fares/day.py" for c in setting.citations if c.kind.value == "file")
