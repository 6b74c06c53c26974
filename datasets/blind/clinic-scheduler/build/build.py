"""Rebuild the whole corpus: repository, sessions, tasks, facts, memories, bundle.

    python3 build/build.py          (from the corpus folder; needs git and network access to PyPI once)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
sys.path.insert(0, str(BUILD))

from history import build_history  # noqa: E402

REPO = BUILD / "work" / "acme-health__clinic-scheduler"


def ensure_venv() -> None:
    venv = BUILD / ".venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pytest==8.3.5"], check=True)


def main(argv: list[str]) -> None:
    started = time.time()
    ensure_venv()
    shutil.rmtree(CORPUS / "sessions", ignore_errors=True)
    ctx = build_history(REPO, CORPUS)
    print(f"main built: {ctx['main_head']} ({len(ctx['sessions'])} sessions)")
    if "--history-only" in argv:
        return
    from tasks_build import build_tasks  # noqa: E402

    build_tasks(REPO, CORPUS, ctx)
    if "--keep-work" not in argv:
        shutil.rmtree(BUILD / "work", ignore_errors=True)
    print(f"done in {time.time() - started:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
