from datetime import date

RESOLUTION = 10


class Ledger:
    def __init__(self):
        self._rows = []

    def record(self, zone_id, day, liters):
        if liters < 0:
            raise ValueError("negative volume")
        if not isinstance(day, date):
            raise TypeError("day must be a date")
        self._rows.append((zone_id, day, int(round(liters * RESOLUTION))))

    def rows(self, zone_id=None):
        return [row for row in self._rows if zone_id is None or row[0] == zone_id]

    def total(self, zone_id, start, end):
        return sum(amount for zid, day, amount in self._rows if zid == zone_id and start <= day <= end)

    def used_liters(self, zone_id, day):
        return self.total(zone_id, day, day) / RESOLUTION

    def zones(self):
        return sorted({row[0] for row in self._rows})
