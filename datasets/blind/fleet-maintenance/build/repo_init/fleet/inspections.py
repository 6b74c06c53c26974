"""Statutory inspections."""
from datetime import timedelta

INSPECTION_DAYS = {"light": 365, "heavy": 365}


def next_inspection(vclass, last_inspection):
    return last_inspection + timedelta(days=INSPECTION_DAYS[vclass])
