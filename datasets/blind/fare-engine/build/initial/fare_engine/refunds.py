from datetime import datetime, timedelta

from .caps import CapTracker
from .ledger import Entry, Ledger

REFUND_WINDOW = timedelta(hours=48)


class RefundError(Exception):
    pass


class RefundDesk:
    def __init__(self, ledger: Ledger, caps: CapTracker):
        self.ledger = ledger
        self.caps = caps

    def refund(self, entry_id: int, now: datetime) -> Entry:
        entry = self.ledger.get(entry_id)
        if entry.kind != "ride":
            raise RefundError(f"entry {entry_id} is a {entry.kind}, only rides can be refunded")
        if self.ledger.refunds_of(entry_id):
            raise RefundError(f"entry {entry_id} was already refunded")
        if now - entry.at > REFUND_WINDOW:
            raise RefundError(f"entry {entry_id} is outside the refund window")
        amount = entry.fare_cents
        return self.ledger.add(card_id=entry.card_id, at=now, stop=entry.stop, kind="refund",
                               fare_cents=entry.fare_cents, charged_cents=-amount,
                               concession=entry.concession, refund_of=entry_id)
