from datetime import datetime
from typing import Optional

from .caps import CapTracker
from .concessions import concession_fare
from .ledger import Entry, Ledger
from .products import single_fare
from .transfers import TransferTracker


class FareEngine:
    def __init__(self, ledger: Optional[Ledger] = None, caps: Optional[CapTracker] = None,
                 transfers: Optional[TransferTracker] = None):
        self.ledger = ledger if ledger is not None else Ledger()
        self.caps = caps if caps is not None else CapTracker()
        self.transfers = transfers if transfers is not None else TransferTracker()

    def tap(self, card_id: str, stop: str, at: datetime, concession: str = "adult",
            device_id: Optional[str] = None, seq: Optional[int] = None) -> Entry:
        fare = single_fare(stop)
        if self.transfers.is_transfer(card_id, at):
            kind, charged = "transfer", 0
        else:
            kind = "ride"
            self.transfers.start_journey(card_id, at)
            charged = self.caps.charge(card_id, at, concession_fare(fare, concession))
        return self.ledger.add(card_id=card_id, at=at, stop=stop, kind=kind, fare_cents=fare,
                               charged_cents=charged, concession=concession,
                               device_id=device_id, seq=seq)
