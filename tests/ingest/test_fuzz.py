"""Property-based fuzzing of ingest: generated hostile variants of every format, on SQLite and
PostgreSQL. Whatever the file, it ends ingested, duplicate, quarantined or skipped (never lost,
never a crash), stored verbatim when it is stored, and nothing stored breaks the store's rules."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamer.ingest import Defaults
from dreamer.ingest.driver import IngestReport, ingest_file
from dreamer.models import sha256_bytes
from dreamer.store import Store


def _hostile() -> ModuleType:
    """The hostile set's generator (``hostile.py`` beside this file), for its formats and values."""
    import importlib.util
    import sys

    name = "hostile_set"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("hostile.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


HOSTILE = _hostile()

_JSON_SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**80), max_value=10**80),
    st.floats(allow_nan=True, allow_infinity=True),
    # Any code point, lone surrogates and NUL included: json.dumps writes them as \u escapes.
    st.text(alphabet=st.characters(codec=None), max_size=40),
    st.sampled_from(["../../etc/passwd", "~/.ssh/id_rsa", "/etc/shadow", "acme/[s]hop",
                     "getmoto__moto.694ce1f4.pr_5420", "17000000000", "\x00", "\ud800"]),
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
RAW = st.one_of(
    st.sampled_from(sorted(HOSTILE.RAW_VALUES.values(), key=len)[:-3]),  # leave out the largest
    _JSON_VALUES.map(json.dumps),
    st.integers(min_value=1, max_value=6000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=6000).map(lambda n: '{"k":' * n + "0" + "}" * n),
    st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
)


@st.composite
def hostile_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """(suffix, bytes): a format's document with a hostile value in one slot, then perhaps cut
    short or with bytes flipped."""
    fmt = draw(st.sampled_from(sorted(HOSTILE.FORMATS)))
    slot = draw(st.sampled_from(HOSTILE.SLOTS))
    suffix, data = HOSTILE.render(fmt, slot, draw(RAW))
    damage = draw(st.sampled_from(["none", "none", "cut", "flip"]))
    if damage == "cut" and data:
        data = data[: draw(st.integers(min_value=0, max_value=len(data) - 1))]
    elif damage == "flip" and data:
        at = draw(st.integers(min_value=0, max_value=len(data) - 1))
        data = data[:at] + bytes([draw(st.integers(min_value=0, max_value=255))]) + data[at + 1:]
    return suffix, data


@pytest.mark.parametrize("examples", [int(os.environ.get("DREAMER_FUZZ_EXAMPLES", "60"))])
def test_generated_hostile_files_are_never_lost(
    store: Store, tmp_path_factory: pytest.TempPathFactory, examples: int
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(case=hostile_files())
    def check(case: tuple[str, bytes]) -> None:
        suffix, data = case
        path = folder / f"input{suffix}"
        path.write_bytes(data)
        report = IngestReport()
        ingest_file(store, path, Defaults(), "auto", report)
        buckets = {name: len(getattr(report, name))
                   for name in ("ingested", "duplicates", "quarantined", "skipped", "failed")}
        assert sum(buckets.values()) == 1 and buckets["failed"] == 0, buckets
        if not buckets["skipped"]:
            assert store.evidence.raw(sha256_bytes(data)) == data
            record = store.evidence.ingestion(sha256_bytes(data))
            assert record is not None and record.status in {"ingested", "quarantined"}
            assert record.status == "ingested" or record.reason
        for item in report.ingested:
            for session_id in item["sessions"]:  # type: ignore[attr-defined]
                _check_session(store, session_id)

    check()


def _check_session(store: Store, session_id: str) -> None:
    session = store.evidence.session(session_id)
    for name in (session.repo, session.branch, session.task_id):
        assert name is None or ("\x00" not in name and len(name) <= 255)
    for event in session.events:
        assert "\x00" not in event.text
        for path in event.data.get("paths") or []:
            assert not path.startswith(("/", "~")) and ".." not in Path(path).parts
