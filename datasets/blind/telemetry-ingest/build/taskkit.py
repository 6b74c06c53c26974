"""Building blocks of the evaluation tasks: file operations, candidates, and the task builder."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field

from common import CHECKOUT, REPO, at, base_env, git, head, replace_once


def write(path: str, content: str) -> tuple:
    return ("write", path, content)


def edit(path: str, old: str, new: str) -> tuple:
    return ("edit", path, old, new)


def run(command: str) -> tuple:
    """A real command run in the checkout (e.g. the schema generator)."""
    return ("run", command)


SCHEMAGEN = run("python -m telemetry_ingest.tools.schemagen --write")


@dataclass
class Cand:
    id: str
    ops: list
    patch: str = ""
    description: str = ""
    size: int = 0


@dataclass
class TaskDef:
    n: int
    family: str
    position: int
    created_at: str
    target: str  # where the gold should rank by size: smallest / largest / middle
    problem: str
    tests: list
    f2p: list[str]
    p2p: list[str]
    gold: Cand
    decoys: list[Cand]
    branch: str | None = None
    base: list = field(default_factory=list)
    base_who: str = "marco"
    base_when: str = ""
    base_message: str = ""
    base_commit: str = ""
    test_patch: str = ""

    @property
    def instance_id(self) -> str:
        return f"{REPO.replace('/', '__')}-{self.n}"


def apply_ops(ops: list) -> None:
    for op in ops:
        if op[0] == "write":
            target = CHECKOUT / op[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(op[2])
        elif op[0] == "edit":
            replace_once(CHECKOUT / op[1], op[2], op[3])
        elif op[0] == "run":
            proc = subprocess.run(["bash", "-c", op[1]], cwd=CHECKOUT, env=base_env(), capture_output=True, text=True)
            if proc.returncode:
                raise RuntimeError(f"{op[1]} failed: {proc.stderr}")
        else:
            raise ValueError(op)


def raw_git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=CHECKOUT, env=base_env(), capture_output=True, text=True, check=True)
    return proc.stdout


def diff_of(ops: list) -> str:
    """The unified diff that ``ops`` make against HEAD (the checkout is restored afterwards)."""
    apply_ops(ops)
    raw_git("add", "-A")
    patch = raw_git("diff", "--cached", "--no-color", "--no-ext-diff")
    raw_git("reset", "-q", "--hard")
    raw_git("clean", "-fdq")
    return patch


def describe(patch: str) -> tuple[str, int]:
    """Neutral description (files and line counts) and the number of changed lines."""
    stats: dict[str, list[int]] = {}
    current = None
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            current = line.split(" b/", 1)[1]
            stats[current] = [0, 0]
        elif line.startswith("+++") or line.startswith("---"):
            continue
        elif current and line.startswith("+"):
            stats[current][0] += 1
        elif current and line.startswith("-"):
            stats[current][1] += 1
    parts = [f"{path} (+{a} -{d})" for path, (a, d) in stats.items()]
    return "edits " + ", ".join(parts), sum(a + d for a, d in stats.values())


def build_task(task: TaskDef, main_tip: str) -> None:
    git("checkout", "-q", main_tip)
    if task.branch:
        git("checkout", "-q", "-b", task.branch)
        apply_ops(task.base)
        git("add", "-A", who=task.base_who, when=at(task.base_when))
        git("commit", "-q", "-m", task.base_message, who=task.base_who, when=at(task.base_when))
    task.base_commit = head()
    task.test_patch = diff_of(task.tests)
    for cand in [task.gold, *task.decoys]:
        cand.patch = diff_of(cand.ops)
        cand.description, cand.size = describe(cand.patch)
        if not cand.patch.strip():
            raise RuntimeError(f"task {task.n}: candidate {cand.id} changes nothing")
    git("checkout", "-q", "main")


def gold_rank(task: TaskDef) -> str:
    sizes = [d.size for d in task.decoys]
    g = task.gold.size
    if all(g < s for s in sizes):
        return "smallest"
    if all(g > s for s in sizes):
        return "largest"
    if any(g < s for s in sizes) and any(g > s for s in sizes):
        return "middle"
    return "tied"
