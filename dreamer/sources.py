"""When each citable source existed: sessions and commits, for the leak check of replays."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path

from dreamer.store import Store


class SourceTimes(Mapping[str, datetime]):
    """When each citable source existed, by citation ref (``<id>`` or ``<id>:<seq>``).

    Sessions come from the evidence store, else from the corpus's manifest (trajectory formats
    such as SWE-agent's carry no times); commits from the corpus's repositories.
    """

    def __init__(self, store: Store, corpus: Path | None = None) -> None:
        from evals.corpus.info import commit_times, session_times

        times: dict[str, datetime] = {}
        if corpus is not None and (corpus / "repos").is_dir():
            times.update(commit_times(corpus))
        if corpus is not None and (corpus / "sessions.jsonl").is_file():
            times.update(session_times(corpus))
        for s in store.evidence.sessions():
            if s.ended_at or s.started_at:
                times[s.id] = s.ended_at or s.started_at  # type: ignore[assignment]
        self._times = times

    def __getitem__(self, ref: str) -> datetime:
        return self._times[ref.split(":", 1)[0]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._times)

    def __len__(self) -> int:
        return len(self._times)
