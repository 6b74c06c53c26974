"""Run a repository's tests at a commit with patches applied: how the builder validates tasks.

This is the builder's own check that each task behaves as designed (the bug is caught, the gold
fixes it, every decoy fails a hidden test) and the source of the real pytest output that the
recorded sessions show. Certification itself goes through the harness (``evals.runner``).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from evals.corpus.errors import CorpusError

_SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(\S+::\S+?)(?:\s+-\s+.*)?$")
_OUTCOME = {"PASSED": "passed", "FAILED": "failed", "ERROR": "error", "XFAIL": "xfailed",
            "XPASS": "xpassed", "SKIPPED": "skipped"}
_DURATION = re.compile(r" in \d+\.\d+s")
_ADDRESS = re.compile(r"0x[0-9a-f]{8,}")


@dataclass(frozen=True)
class TestJob:
    """One test run: a repository at ``base`` plus ``patches``, running ``test_files``."""

    __test__ = False

    key: str
    repo_path: str
    slug: str
    base: str
    patches: tuple[str, ...]
    test_files: tuple[str, ...]


@dataclass(frozen=True)
class TestRun:
    """What a run gave: each test's outcome and the (normalised) pytest output."""

    __test__ = False

    key: str
    outcomes: dict[str, str]
    output: str
    returncode: int


def parse_outcomes(output: str) -> dict[str, str]:
    """Test id -> outcome from pytest's ``-rA`` short summary."""
    outcomes: dict[str, str] = {}
    for line in output.splitlines():
        match = _SUMMARY.match(line.strip())
        if match:
            outcomes[match.group(2)] = _OUTCOME[match.group(1)]
    return outcomes


def normalise(output: str, workdir: str, slug: str) -> str:
    """Make pytest output deterministic: no temp paths, durations derived from the content."""
    text = output.replace(workdir, f"/{slug}")
    text = "\n".join(line for line in text.splitlines()
                     if not line.startswith(("cachedir:", "hypothesis profile")))
    addresses: dict[str, str] = {}
    text = _ADDRESS.sub(lambda m: addresses.setdefault(
        m.group(0), f"0x7f3a1c{len(addresses) + 0x2d10:04x}"), text)
    seed = int(hashlib.sha256(_DURATION.sub("", text).encode()).hexdigest()[:6], 16)
    return _DURATION.sub(f" in {0.05 + (seed % 40) / 100:.2f}s", text) + "\n"


def _checkout(job: TestJob, target: Path) -> None:
    archive = subprocess.run(["git", "-C", job.repo_path, "archive", job.base],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise CorpusError(f"git archive {job.base} failed in {job.repo_path}: "
                          f"{archive.stderr.decode(errors='replace')}")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    for index, patch in enumerate(job.patches):
        if not patch.strip():
            continue
        proc = subprocess.run(["git", "apply", "--whitespace=nowarn", "-"], cwd=target,
                              input=patch, text=True, capture_output=True)
        if proc.returncode != 0:
            raise CorpusError(f"{job.key}: patch {index} does not apply at {job.base[:10]}: "
                              f"{proc.stderr.strip()}")


def run_job(job: TestJob, timeout: float = 120.0) -> TestRun:
    """Check out, patch and run pytest with ``-rA``; never raises on test failures."""
    with tempfile.TemporaryDirectory(prefix="corpus-run-") as tmp:
        workdir = os.path.realpath(tmp)
        _checkout(job, Path(workdir))
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
               "PYTHONHASHSEED": "0", "COLUMNS": "120"}
        env.pop("BILLING_INTEGRATION", None)
        cmd = [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider",
               *job.test_files]
        try:
            proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise CorpusError(f"{job.key}: tests timed out after {timeout}s") from exc
        output = normalise(proc.stdout + proc.stderr, workdir, job.slug)
        return TestRun(job.key, parse_outcomes(output), output, proc.returncode)


def run_jobs(jobs: list[TestJob], workers: int) -> dict[str, TestRun]:
    """Run ``jobs`` on ``workers`` processes; results by job key."""
    if workers <= 1:
        return {job.key: run_job(job) for job in jobs}
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        return {run.key: run for run in pool.map(run_job, jobs, chunksize=2)}
