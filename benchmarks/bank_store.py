"""How long the store takes to write and read a bank version (a benchmark, not a test).

A nightly dream reads the extraction bank, writes the candidate, and the gate reads candidate
and production again: at 100K memories each of these is a bank-sized transfer. For each size
(10K and 100K synthetic memories by default, ``benchmarks/synthetic_bank.py``) this stores the
bank in SQLite (a temporary file) and in PostgreSQL (a temporary database on the local server,
skipped when none answers), then a next version with 1% of its memories changed (what a dream
writes: most records are shared with the parent), then reads both back with their integrity
check. Prints seconds and microseconds per memory.

    .venv/bin/python benchmarks/bank_store.py
    .venv/bin/python benchmarks/bank_store.py --sizes 20000 --no-postgres
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


@contextmanager
def _databases(postgres: bool) -> Iterator[list[tuple[str, str]]]:
    """(label, URL) of a fresh SQLite file and, when asked and a server answers, a fresh
    PostgreSQL database; both removed afterwards."""
    from sqlalchemy import create_engine, text

    with tempfile.TemporaryDirectory(prefix="dreamer-bench-") as tmp:
        found = [("sqlite", f"sqlite:///{tmp}/store.db")]
        admin, name = None, f"dreamer_bench_{uuid.uuid4().hex[:12]}"
        if postgres:
            admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
            try:
                with admin.connect() as conn:
                    conn.execute(text(f'CREATE DATABASE "{name}"'))
                found.append(("postgresql", PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"))
            except Exception as exc:  # no server: SQLite alone
                print(f"postgresql: skipped ({type(exc).__name__})")
                admin.dispose()
                admin = None
        try:
            yield found
        finally:
            if admin is not None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()


def _timed(label: str, count: int, call: Callable[..., Any], *args: Any) -> Any:
    started = time.perf_counter()
    value = call(*args)
    took = time.perf_counter() - started
    print(f"  {label}: {took:.2f}s ({took / count * 1e6:.0f} us per memory)", flush=True)
    return value


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)

    from synthetic_bank import synthetic_bank

    from dreamer.models import Bank, MemoryStatus, forget_shared
    from dreamer.store import open_store

    for size in args.sizes:
        bank = synthetic_bank(size)
        changed = {m.id for m in bank.memories[::100]}
        after = Bank(repo=bank.repo, parent_id=bank.id, origin=bank.origin, memories=tuple(
            m.model_copy(update={"status": MemoryStatus.DORMANT}) if m.id in changed else m
            for m in bank.memories))
        for bank_ in (bank, after):
            bank_.id  # noqa: B018  (hashed before the clock starts: a dream hands it over so)
        print(f"{len(bank.memories)} memories, {len(changed)} changed in the next version")
        with _databases(not args.no_postgres) as databases:
            for label, url in databases:
                print(f"{label}:")
                store = open_store(url)
                try:
                    _timed("put", len(bank.memories), store.banks.put, bank)
                    _timed("put next version", len(after.memories), store.banks.put, after)
                    for name, version in (("get", bank), ("get next version", after)):
                        forget_shared()
                        back = _timed(name, len(version.memories), store.banks.get, version.id)
                        assert back.id == version.id
                        del back
                finally:
                    store.close()


if __name__ == "__main__":
    main(sys.argv[1:])
