from datetime import datetime, timedelta

TRANSFER_WINDOW = timedelta(minutes=90)


class TransferTracker:
    """Remembers when each card started its current journey."""

    def __init__(self, window: timedelta = TRANSFER_WINDOW):
        self.window = window
        self._journey_start: dict[str, datetime] = {}

    def is_transfer(self, card_id: str, at: datetime) -> bool:
        start = self._journey_start.get(card_id)
        return start is not None and at - start <= self.window

    def start_journey(self, card_id: str, at: datetime) -> None:
        self._journey_start[card_id] = at
