"""Working copies: isolation, SWE-bench's patch fallbacks, and timeouts that kill the group."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from evals.errors import PatchApplyError, TestTimeoutError
from evals.examples.gitrepo import commit, diff_for, init_repo
from evals.tasks import RepoSource, Task
from evals.workspace import Workspace

BASE = ("".join(f"x{i} = {i}\n" for i in range(10)) + "def add(a, b):\n    return a - b\n"
        + "".join(f"y{i} = {i}\n" for i in range(10)))


@pytest.fixture
def drifted(tmp_path: Path) -> tuple[Task, str]:
    """A task at a base commit, and a patch written against a later commit of the same file."""
    repo = tmp_path / "r"
    base = init_repo(repo, {"m.py": BASE})
    later = BASE.replace("x8 = 8\n", "x8 = 88\n")
    commit(repo, {"m.py": later}, "drift")
    patch = diff_for(repo, {"m.py": later.replace("a - b", "a + b")})
    task = Task(instance_id="drift-1", repo="acme/m", base_commit=base,
                source=RepoSource(kind="git", location=str(repo)))
    return task, patch


def test_copy_is_at_base_commit_and_leaves_the_source_alone(drifted) -> None:
    task, _ = drifted
    source = Path(task.source.location)
    with Workspace.create(task) as ws:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws.path, capture_output=True,
                              text=True).stdout.strip()
        assert head == task.base_commit
        (ws.path / "m.py").write_text("changed\n")
        root = ws.root
    assert not root.exists()
    assert "x8 = 88" in (source / "m.py").read_text()  # the source's checkout is untouched


@pytest.fixture
def reverted(tmp_path: Path) -> tuple[Task, str]:
    """A task whose base undid an earlier change, and a patch written against that earlier
    version (its preimage blob is in the base's history)."""
    repo = tmp_path / "old"
    earlier = BASE.replace("x8 = 8\n", "x8 = 88\n")
    init_repo(repo, {"m.py": earlier})
    patch = diff_for(repo, {"m.py": earlier.replace("a - b", "a + b")})
    base = commit(repo, {"m.py": BASE}, "revert x8")
    task = Task(instance_id="revert-1", repo="acme/m", base_commit=base,
                source=RepoSource(kind="git", location=str(repo)))
    return task, patch


def test_the_copy_holds_no_history_after_the_base(drifted) -> None:
    task, patch = drifted
    source = Path(task.source.location)
    later = subprocess.run(["git", "rev-parse", "HEAD"], cwd=source, capture_output=True,
                           text=True).stdout.strip()
    with Workspace.create(task) as ws:
        def git(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(["git", *args], cwd=ws.path, capture_output=True, text=True)

        assert git("cat-file", "-e", later).returncode != 0  # not even as a loose object
        assert git("rev-list", "--all").stdout.split() == [task.base_commit]
        assert git("remote").stdout.strip() == ""
        # The later blob a patch against the future would need is not there either: no 3-way.
        assert ws.apply(patch).method == "patch --fuzz"


def test_fallbacks_three_way_then_fuzz(reverted, drifted) -> None:
    task, patch = reverted
    with Workspace.create(task) as ws:
        assert ws.apply(patch).method == "git apply --3way"  # the preimage blob is reachable
        assert "return a + b" in (ws.path / "m.py").read_text()
    task, patch = drifted
    no_index = re.sub(r"^index .*\n", "", patch, flags=re.MULTILINE)
    with Workspace.create(task) as ws:
        result = ws.apply(no_index)
        assert result.method == "patch --fuzz"
        assert "$ git apply --reject (exit 1)" in result.log
        assert "return a + b" in (ws.path / "m.py").read_text()
        assert not list(ws.path.glob("*.rej")) and not list(ws.path.glob("*.orig"))


def test_a_patch_that_fits_nowhere_raises_and_leaves_a_clean_tree(drifted) -> None:
    task, _ = drifted
    alien = "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n-nothing\n-like\n-this\n+a\n+b\n+c\n"
    with Workspace.create(task) as ws:
        with pytest.raises(PatchApplyError) as err:
            ws.apply(alien)
        assert err.value.reason == "patch did not apply"
        assert all(step in err.value.detail for step in ("git apply --3way", "patch --fuzz"))
        assert (ws.path / "m.py").read_text() == BASE
        status = subprocess.run(["git", "status", "--porcelain"], cwd=ws.path,
                                capture_output=True, text=True).stdout
        assert status == ""


def test_timeout_kills_the_whole_process_group(drifted, tmp_path: Path) -> None:
    task, _ = drifted
    pidfile = tmp_path / "child.pid"
    script = (f"import subprocess, time; p = subprocess.Popen(['sleep', '1000']); "
              f"open({str(pidfile)!r}, 'w').write(str(p.pid)); time.sleep(1000)")
    with Workspace.create(task) as ws:
        start = time.monotonic()
        with pytest.raises(TestTimeoutError, match="timeout after 2s"):
            ws.run(["python3", "-c", script], timeout=2)
        assert time.monotonic() - start < 10
    child = int(pidfile.read_text())
    status = Path(f"/proc/{child}/status")
    assert not status.exists() or "\nState:\tZ" in status.read_text()  # gone, or a dead zombie


def test_a_pooled_copy_is_reused_and_restarted_at_the_base_commit(drifted) -> None:
    """One copy per task and concurrent worker: the next attempt gets the same folder, back at
    the base commit with no applied patch, no change and no untracked or ignored file."""
    from evals.workspace_pool import WorkspacePool

    task, patch = drifted
    with WorkspacePool() as pool:
        with pool.checkout(task) as ws:
            first = ws.path
            ws.apply(patch)
            (ws.path / "m.py").write_text("broken\n")
            (ws.path / "__pycache__").mkdir()
            (ws.path / "__pycache__" / "m.pyc").write_bytes(b"x")
            (ws.path / "debris.txt").write_text("left by a test\n")
            with pool.checkout(task) as other:  # a second worker meanwhile: its own copy
                assert other.path != first
        with pool.checkout(task) as again:
            assert again.path in (first, other.path) and len(pool) == 2
            head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=again.path,
                                  capture_output=True, text=True).stdout.strip()
            assert head == task.base_commit
            assert (again.path / "m.py").read_text() == BASE
            assert sorted(p.name for p in again.path.iterdir()) == [".git", "m.py"]
    assert not first.exists() and not other.path.exists()


def _copies_made(monkeypatch) -> list[str]:  # noqa: ANN001
    """The ids of the tasks ``Workspace.create`` makes copies of, in order, from now on."""
    made: list[str] = []
    real = Workspace.create.__func__  # type: ignore[attr-defined]

    def counting(cls, task, *args, **kwargs):  # noqa: ANN001
        made.append(task.instance_id)
        return real(cls, task, *args, **kwargs)

    monkeypatch.setattr(Workspace, "create", classmethod(counting))
    return made


def test_a_copy_is_restarted_in_the_background_and_waited_for_or_deleted_if_it_fails(
    drifted, monkeypatch
) -> None:
    """The attempt that returns a copy does not wait for its restart; the next one to ask waits
    for the restart instead of cloning, and a copy that cannot be restarted is replaced."""
    from evals.workspace_pool import WorkspacePool

    task, patch = drifted
    real_restart = Workspace.restart
    slow = threading.Event()

    def restart(ws: Workspace) -> None:
        slow.wait(0.5)
        real_restart(ws)

    monkeypatch.setattr(Workspace, "restart", restart)
    with WorkspacePool() as pool:
        with pool.checkout(task) as ws:
            first = ws.path
            ws.apply(patch)
        returned = time.monotonic()
        with pool.checkout(task) as again:  # waited for the restart: the same copy, clean
            waited = time.monotonic() - returned
            assert again.path == first and len(pool) == 1 and waited >= 0.3
            assert (again.path / "m.py").read_text() == BASE

        def broken(ws: Workspace) -> None:
            raise OSError("disk gone")

        monkeypatch.setattr(Workspace, "restart", broken)
        with pool.checkout(task) as ws:
            pass
        with pool.checkout(task) as fresh:  # the broken copy was deleted, a new one made
            assert fresh.path != first and not first.exists() and len(pool) == 1
            assert (fresh.path / "m.py").read_text() == BASE


def test_prefetched_copies_are_made_ahead_and_taken_by_the_attempts(
    drifted, tmp_path: Path, monkeypatch
) -> None:
    """The first copy of each task is made in the background, at most AHEAD before the
    attempts take them; an attempt takes the prefetched copy instead of cloning again."""
    from evals.workspace_pool import WorkspacePool

    task, _ = drifted
    tasks = [task.model_copy(update={"instance_id": f"drift-{i}"}) for i in range(4)]
    made = _copies_made(monkeypatch)
    restarted: list[str] = []
    real_restart = Workspace.restart
    monkeypatch.setattr(Workspace, "restart",
                        lambda ws: restarted.append(ws.task.instance_id) or real_restart(ws))
    pool = WorkspacePool()
    pool.prefetch(tasks)
    deadline = time.monotonic() + 30
    while len(made) < WorkspacePool.AHEAD and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # it must stop there: nothing has taken a copy yet
    assert made == ["drift-0", "drift-1"] and len(pool) == 2
    with pool.checkout(tasks[0]) as ws:
        assert (ws.path / "m.py").read_text() == BASE
    with pool.checkout(tasks[1]):
        pass
    while len(made) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    with pool.checkout(tasks[3]), pool.checkout(tasks[2]):
        pass
    assert made == ["drift-0", "drift-1", "drift-2", "drift-3"]  # never cloned twice
    # A new copy is clean: not restarted before its first use, only once it comes back.
    while len(restarted) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sorted(restarted) == ["drift-0", "drift-1", "drift-2", "drift-3"]
    with pool.checkout(tasks[0]):
        assert sorted(restarted) == ["drift-0", "drift-1", "drift-2", "drift-3"]
    folders = [ws.root for ws in pool._all]
    pool.close()
    assert len(folders) == 4 and not any(f.exists() for f in folders)


def test_a_task_no_attempt_needs_is_not_prefetched_and_does_not_hold_the_others_back(
    drifted, monkeypatch
) -> None:
    from evals.workspace_pool import WorkspacePool

    task, _ = drifted
    tasks = [task.model_copy(update={"instance_id": f"drift-{i}"}) for i in range(4)]
    made = _copies_made(monkeypatch)
    with WorkspacePool() as pool:
        pool.unneeded([tasks[1]])
        pool.prefetch(tasks)
        deadline = time.monotonic() + 30
        while len(made) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        assert made == ["drift-0", "drift-2"]  # the unneeded one skipped, two ahead
        pool.unneeded([tasks[0]])  # made already, but no attempt will take it: not ahead
        while len(made) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert made == ["drift-0", "drift-2", "drift-3"]


def test_prefetching_on_two_threads_makes_two_copies_at_once_and_no_more_ahead(
    drifted, monkeypatch
) -> None:
    from evals.workspace_pool import WorkspacePool

    task, _ = drifted
    tasks = [task.model_copy(update={"instance_id": f"drift-{i}"}) for i in range(5)]
    guard = threading.Lock()
    now, most, made = [0], [0], []
    real = Workspace.create.__func__  # type: ignore[attr-defined]

    def counting(cls, task, *args, **kwargs):  # noqa: ANN001
        with guard:
            now[0] += 1
            most[0] = max(most[0], now[0])
        try:
            time.sleep(0.2)  # long enough for the other thread to start its own
            return real(cls, task, *args, **kwargs)
        finally:
            with guard:
                now[0] -= 1
                made.append(task.instance_id)

    monkeypatch.setattr(Workspace, "create", classmethod(counting))
    with WorkspacePool() as pool:
        pool.prefetch(tasks, threads=3)
        deadline = time.monotonic() + 30
        while len(made) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.4)
        assert most[0] == 3 and sorted(made) == ["drift-0", "drift-1", "drift-2"]
        for t in tasks:  # every attempt finds its copy made (or being made): none cloned twice
            with pool.checkout(t):
                pass
        assert sorted(made) == [f"drift-{i}" for i in range(5)] and len(pool) == 5


def test_a_pool_of_two_workers_prefetches_two_copies_per_worker(drifted, monkeypatch) -> None:
    """A suite's first tests may need copies of any of its tasks: a pool prefetches as many as
    its workers hold (two each), not only as many as it has threads."""
    from evals.workspace_pool import WorkspacePool

    task, _ = drifted
    tasks = [task.model_copy(update={"instance_id": f"drift-{i}"}) for i in range(6)]
    made = _copies_made(monkeypatch)
    with WorkspacePool(workers=2) as pool:
        pool.prefetch(tasks, threads=2)
        deadline = time.monotonic() + 30
        while len(made) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # it must stop there: nothing has taken a copy yet
        assert sorted(made) == [f"drift-{i}" for i in range(4)] and len(pool) == 4
        with pool.checkout(tasks[3]):
            pass
        while len(made) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sorted(made) == [f"drift-{i}" for i in range(5)]
