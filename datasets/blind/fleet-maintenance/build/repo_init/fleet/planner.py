"""Workshop planner: upcoming inspection slots."""
from datetime import timedelta

_INTERVAL_DAYS = 365


def next_inspections(vclass, last_inspection, count=3):
    """The next ``count`` inspection dates after ``last_inspection``."""
    slots = []
    current = last_inspection
    for _ in range(count):
        current = current + timedelta(days=_INTERVAL_DAYS)
        slots.append(current)
    return slots
