from datetime import date, datetime

DAILY_CAP_CENTS = 900


class CapTracker:
    def __init__(self, daily_cap_cents: int = DAILY_CAP_CENTS):
        self.daily_cap_cents = daily_cap_cents
        self._spent: dict[tuple[str, date], int] = {}

    def _day(self, at: datetime) -> date:
        return at.date()

    def spent(self, card_id: str, day: date) -> int:
        return self._spent.get((card_id, day), 0)

    def charge(self, card_id: str, at: datetime, cents: int) -> int:
        """Record a charge and return how much of it the rider actually pays."""
        key = (card_id, self._day(at))
        spent = self._spent.get(key, 0)
        allowed = max(0, min(cents, self.daily_cap_cents - spent))
        self._spent[key] = spent + allowed
        return allowed
