from dataclasses import dataclass
from datetime import datetime
from typing import Iterator, Optional


@dataclass
class Entry:
    entry_id: int
    card_id: str
    at: datetime
    stop: str
    kind: str  # "ride", "transfer" or "refund"
    fare_cents: int
    charged_cents: int
    concession: str = "adult"
    device_id: Optional[str] = None
    seq: Optional[int] = None
    refund_of: Optional[int] = None


class Ledger:
    def __init__(self) -> None:
        self._entries: list[Entry] = []

    def add(self, **fields) -> Entry:
        entry = Entry(entry_id=len(self._entries) + 1, **fields)
        self._entries.append(entry)
        return entry

    def get(self, entry_id: int) -> Entry:
        return self._entries[entry_id - 1]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def for_card(self, card_id: str) -> list[Entry]:
        return [e for e in self._entries if e.card_id == card_id]

    def refunds_of(self, entry_id: int) -> list[Entry]:
        return [e for e in self._entries if e.refund_of == entry_id]

    def export_rows(self) -> list[dict]:
        """Rows as the backend ledger export writes them."""
        return [
            {
                "ts": str(int(e.at.timestamp())),
                "card_id": e.card_id,
                "stop": e.stop,
                "kind": e.kind,
                "charged_cents": str(e.charged_cents),
            }
            for e in self._entries
        ]
