"""Trips derived from telematics rows."""
from fleet.telematics.importer import rows_for_unit


def trip_distance_km(rows, unit_no):
    """Distance covered by ``unit_no`` over the given rows."""
    unit_rows = rows_for_unit(rows, unit_no)
    if len(unit_rows) < 2:
        return 0.0
    return float(unit_rows[-1]["odo"] - unit_rows[0]["odo"])


def odometer_rollbacks(rows, unit_no, tolerance_km=1.0):
    """Timestamps where the odometer went backwards by more than ``tolerance_km``."""
    unit_rows = rows_for_unit(rows, unit_no)
    hits = []
    for prev, cur in zip(unit_rows, unit_rows[1:]):
        if prev["odo"] - cur["odo"] > tolerance_km:
            hits.append(cur["ts"])
    return hits
