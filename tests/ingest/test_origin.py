"""Where and when a session ran, with no hand conversion: SWE-agent 1.x ``replay_config`` (a JSON
string) in each of its shapes, SWE-smith instance ids, what the session's own output shows, and
the sessions that stay without a time or a repository listed by ``sessions --problems``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.ingest import Defaults, parse_file
from dreamer.ingest.origin import instance_origin, parse_shown_time
from dreamer.models import EventKind


def swe_agent_v1(replay: dict[str, Any] | None, *, info: dict[str, Any] | None = None,
                 steps: list[dict[str, Any]] | None = None) -> bytes:
    """A SWE-agent 1.x trajectory as ``sweagent run`` saves it: ``replay_config`` is the run's
    config dumped to a JSON string; edits are ``str_replace_editor`` calls; ``state`` a dict."""
    steps = steps if steps is not None else [
        {"action": "str_replace_editor view /testbed/src/shop/orders.py",
         "observation": "Here's the result of running `cat -n`:\n     1\tSTATUS = {}\n",
         "response": "Look at the orders module.", "thought": "Look at the orders module.",
         "execution_time": 0.2, "state": {"working_dir": "/testbed", "open_file": "n/a"},
         "query": [], "extra_info": {}},
        {"action": "str_replace_editor str_replace /testbed/src/shop/orders.py "
                   "--old_str 'STATUS = {}' --new_str 'STATUS = LEGACY_STATUS_CODES'",
         "observation": "The file /testbed/src/shop/orders.py has been edited.",
         "response": "Use the legacy codes.", "thought": "Use the legacy codes.",
         "execution_time": 0.1, "state": {"working_dir": "/testbed", "open_file": "n/a"},
         "query": [], "extra_info": {}},
        {"action": "cd /testbed && python -m pytest tests/test_orders.py -q",
         "observation": "...\n3 passed in 0.12s", "response": "Run the tests.",
         "thought": "Run the tests.", "execution_time": 1.2,
         "state": {"working_dir": "/testbed", "open_file": "n/a"}, "query": [],
         "extra_info": {}},
        {"action": "submit", "observation": "diff --git a/src/shop/orders.py ...",
         "response": "Submit.", "thought": "Submit.", "execution_time": 0.1,
         "state": {"working_dir": "/testbed", "open_file": "n/a"}, "query": [],
         "extra_info": {}},
    ]
    doc = {
        "trajectory": steps,
        "history": [
            {"role": "system", "content": "You are a helpful assistant.", "agent": "main",
             "message_type": "system_prompt"},
            {"role": "user", "content": [{"type": "text", "text": "Order status must go "
                                          "through the legacy codes."}],
             "agent": "main", "message_type": "observation"},
        ],
        "info": info if info is not None else {
            "swe_agent_hash": "abc", "swe_agent_version": "1.1.0", "swe_rex_version": "1.2.0",
            "exit_status": "submitted", "submission": "diff --git a/src/shop/orders.py ...",
            "edited_files30": "src/shop/orders.py", "model_stats": {"instance_cost": 0.4,
                                                                    "api_calls": 4}},
        "replay_config": json.dumps(replay) if replay is not None else None,
        "environment": "main",
    }
    return json.dumps(doc, indent=2).encode()


def _one(data: bytes, name: str = "run.traj", **defaults: str):  # type: ignore[no-untyped-def]
    _, (session,) = parse_file(data, name, Defaults(**defaults),
                               mtime=datetime(2025, 6, 1, tzinfo=UTC))
    return session


@pytest.mark.parametrize(("replay", "repo", "source"), [
    ({"env": {"repo": {"github_url": "https://github.com/acme/shop-orders",
                       "base_commit": "4f2c0e1", "type": "github"}},
      "problem_statement": {"id": "ORD-7", "type": "text"}, "created_at": "2025-05-01T08:00:00Z"},
     "acme/shop-orders", "replay_config.env.repo.github_url"),
    ({"repo_name": "acme/shop-orders", "created_at": "2025-05-01T08:00:00+00:00",
      "problem_statement": {"id": "ORD-7"}},
     "acme/shop-orders", "replay_config.repo_name"),
    ({"env": {"repo": {"path": "/home/dev/src/shop-orders", "base_commit": "HEAD",
                       "type": "local"}}, "created_at": 1746086400},
     "shop-orders", "replay_config.env.repo.path"),
    ({"env": {"repo": {"repo_name": "testbed", "base_commit": "4f2c0e1",
                       "type": "preexisting"}},
      "problem_statement": {"id": "acme__shop-orders-7"}, "created_at": "2025-05-01T08:00:00Z"},
     "acme/shop-orders", "task-id"),
])
def test_swe_agent_1x_replay_config_gives_repository_and_time(
    replay: dict[str, Any], repo: str, source: str
) -> None:
    session = _one(swe_agent_v1(replay))
    assert (session.repo, session.metadata["repo_source"]) == (repo, source)
    assert session.started_at == datetime(2025, 5, 1, 8, 0, tzinfo=UTC)
    assert session.metadata["time_source"] == "replay_config.created_at"
    assert "warnings" not in session.metadata
    (edit,) = [e for e in session.events if e.kind is EventKind.EDIT]
    assert edit.data["paths"] == ["src/shop/orders.py"]
    assert [e.kind for e in session.events].count(EventKind.TEST_RESULT) == 1


def test_command_line_repository_wins() -> None:
    replay = {"repo_name": "acme/shop-orders", "created_at": "2025-05-01T08:00:00Z"}
    session = _one(swe_agent_v1(replay), repo="acme/renamed")
    assert (session.repo, session.metadata["repo_source"]) == ("acme/renamed", "--repo")


def test_swe_smith_instance_id_gives_repository_and_commit() -> None:
    assert instance_origin("getmoto__moto.694ce1f4.pr_5420") is not None
    found = instance_origin("pandas-dev__pandas.95280573.func_pm_remove_cond__abc1")
    assert found is not None and (found.repo, found.commit) == ("pandas-dev/pandas", "95280573")
    session = _one(swe_agent_v1(None), name="getmoto__moto.694ce1f4.pr_5420.traj")
    assert (session.repo, session.commit_start, session.task_id) == (
        "getmoto/moto", "694ce1f4", "getmoto__moto.694ce1f4.pr_5420")


def test_time_and_repository_from_what_the_session_printed() -> None:
    steps = [
        {"action": "git log -1", "observation": "commit 4f2c0e1\nAuthor: Dev <d@x>\n"
                                                "Date:   Tue Mar 4 10:15:00 2025 +0100\n\n    fix",
         "response": "", "thought": "", "state": {"working_dir": "/testbed"}},
        {"action": "git remote -v",
         "observation": "origin\tgit@github.com:acme/billing-api.git (fetch)\n",
         "response": "", "thought": "", "state": {"working_dir": "/testbed"}},
    ]
    session = _one(swe_agent_v1(None, info={}, steps=steps), name="run-17.traj")
    assert session.started_at == datetime(2025, 3, 4, 9, 15, tzinfo=UTC)
    assert session.metadata["time_source"] == "git-log"
    assert (session.repo, session.metadata["repo_source"]) == ("acme/billing-api", "git-remote")
    assert parse_shown_time("Tue Mar  4 09:15:00 UTC 2025") == datetime(2025, 3, 4, 9, 15,
                                                                          tzinfo=UTC)


def test_nothing_known_is_a_warning_with_a_stated_fallback() -> None:
    steps = [{"action": "ls", "observation": "README.md", "response": "", "thought": "",
              "state": {"working_dir": "/testbed"}}]
    session = _one(swe_agent_v1(None, info={}, steps=steps), name="run-18.traj")
    codes = {w["code"]: w["message"] for w in session.metadata["warnings"]}
    assert set(codes) == {"no_time", "no_repo"}
    assert "modification time 2025-06-01T00:00:00+00:00" in codes["no_time"]
    assert session.metadata["time_source"] == "file-mtime"
    assert session.started_at == datetime(2025, 6, 1, tzinfo=UTC)
    assert session.repo is None


def test_sessions_problems_and_ingest_json_list_them(tmp_path: Path) -> None:
    steps = [{"action": "ls", "observation": "README.md", "response": "", "thought": "",
              "state": {"working_dir": "/testbed"}}]
    (tmp_path / "lost.traj").write_bytes(swe_agent_v1(None, info={}, steps=steps))
    (tmp_path / "fine.traj").write_bytes(swe_agent_v1(
        {"repo_name": "acme/shop-orders", "created_at": "2025-05-01T08:00:00Z"}))
    runner = CliRunner()
    ingested = json.loads(runner.invoke(app, ["ingest", str(tmp_path), "--json"]).stdout)
    assert sorted(w["code"] for w in ingested["warnings"]) == ["no_repo", "no_time"]
    assert {Path(w["path"]).name for w in ingested["warnings"]} == {"lost.traj"}
    listed = json.loads(runner.invoke(app, ["sessions", "--problems", "--json"]).stdout)
    assert [(Path(s["source_path"]).name, sorted(p["code"] for p in s["problems"]))
            for s in listed] == [("lost.traj", ["no_repo", "no_time"])]
    shown = runner.invoke(app, ["sessions", "--problems"])
    assert "1 of 2 sessions with problems" in shown.stdout
