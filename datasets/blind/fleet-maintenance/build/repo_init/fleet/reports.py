"""Depot reports."""
from datetime import timedelta


def overdue_inspections(records, today):
    """Unit numbers whose inspection is overdue.

    ``records`` is a list of ``(unit_no, vclass, last_inspection)``.
    """
    overdue = []
    for unit_no, vclass, last in records:
        if today > last + timedelta(days=365):
            overdue.append(unit_no)
    return sorted(overdue)
