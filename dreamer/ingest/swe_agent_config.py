"""What SWE-agent's ``replay_config`` says about a run: its repository, commit, task and time.

SWE-agent 1.x writes the run's whole config into the trajectory, as a dict or, usually, as its
JSON text (``replay_config``); recorders of other corpora add ``repo_name`` and ``created_at``
to it. The repository is the first of its fields that names one (see ``origin``).
"""

from __future__ import annotations

import ast
import json
from datetime import datetime
from pathlib import PurePath
from typing import Any

from dreamer.ingest.building import to_utc
from dreamer.ingest.origin import instance_origin, repo_from_dir, repo_from_url
from dreamer.ingest.values import repo_name_problem


def as_dict(value: Any) -> dict[str, Any]:
    """A field that versions write either as a dict or as its JSON (or Python repr) text."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{"):
        for load in (json.loads, ast.literal_eval):
            try:
                loaded = load(value)
            except (ValueError, SyntaxError):
                continue
            if isinstance(loaded, dict):
                return loaded
    return {}


def named_repo(value: Any) -> str | None:
    """A repository from one of ``replay_config``'s fields: a URL, ``owner/name``, a local path
    (its last part) or an instance id; None for a container's default (``testbed``)."""
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    if "://" in value or value.startswith("git@"):
        return repo_from_url(value)
    if value.startswith(("/", "~", ".")):
        return repo_from_dir(value)
    if "/" in value:
        return value.removesuffix(".git") if repo_name_problem(value) is None else None
    return repo_from_dir(value)


def origin(replay_config: Any, environment: Any, path: str) -> dict[str, Any]:
    """Repository, base commit and task id: from ``replay_config`` (``repo_name``,
    ``env.repo.repo_name``/``github_url``/``path``), ``environment``, the task id (a SWE-bench or
    SWE-smith instance id, or the file's name); ``repo_source`` says which."""
    config = as_dict(replay_config)
    env = as_dict(config.get("env")) or as_dict(environment)
    repo_cfg = as_dict(env.get("repo"))
    problem = as_dict(config.get("problem_statement"))
    stem = PurePath(path).name.split(".traj")[0]
    task_id = problem.get("id") or config.get("instance_id")
    named_task = str(task_id) if task_id else None
    instance = instance_origin(named_task) or instance_origin(stem)
    if task_id is None and instance_origin(stem):
        task_id = stem
    choices = [
        ("replay_config.repo_name", config.get("repo_name")),
        ("replay_config.env.repo.repo_name", repo_cfg.get("repo_name")),
        ("replay_config.env.repo.github_url", repo_cfg.get("github_url")),
        ("replay_config.github_url", config.get("github_url")),
        ("replay_config.env.repo.path", repo_cfg.get("path")),
        ("replay_config.env.repo", env.get("repo") if isinstance(env.get("repo"), str) else None),
        ("environment", environment if isinstance(environment, str)
         and ("/" in environment or "__" in environment) else None),
    ]
    repo, source = None, None
    for where, value in choices:
        repo = named_repo(value)
        if repo:
            source = where
            break
    if repo is None and instance is not None:
        repo, source = instance.repo, "task-id"
    commit = repo_cfg.get("base_commit")
    if not isinstance(commit, str) or not commit.strip() or commit.strip() == "HEAD":
        commit = instance.commit if instance else None
    return {"repo": repo, "task_id": task_id, "commit_start": commit, "repo_source": source}


def config_time(replay_config: Any) -> datetime | None:
    """``replay_config.created_at`` (the run's start, where a recorder writes it)."""
    config = as_dict(replay_config)
    for value in (config.get("created_at"), as_dict(config.get("env")).get("created_at")):
        when = to_utc(value)
        if when is not None:
            return when
    return None
