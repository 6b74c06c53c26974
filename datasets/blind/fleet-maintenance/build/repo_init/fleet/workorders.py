"""Work orders: parts lines, odometer at close, downtime."""
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class WorkOrder:
    order_id: str
    unit_no: str
    opened: datetime
    lines: list = field(default_factory=list)  # (part_no, quantity)
    closed: datetime = None
    odometer_km: float = None

    def add_part(self, part_no, quantity):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.lines.append((part_no.strip().upper(), quantity))

    def close(self, when):
        if when < self.opened:
            raise ValueError("cannot close before opening")
        self.closed = when

    def downtime_hours(self):
        if self.closed is None:
            return 0.0
        return (self.closed - self.opened).total_seconds() / 3600
