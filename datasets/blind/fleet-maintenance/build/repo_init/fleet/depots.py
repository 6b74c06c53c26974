"""Depots and how units are assigned to them."""

DEPOT_PREFIXES = {
    "N": "NORTH",
    "S": "SOUTH",
    "W": "WEST",
}


def depot_for(unit_no):
    """Return the depot code a unit number belongs to."""
    prefix = unit_no.split("-", 1)[0].upper()
    try:
        return DEPOT_PREFIXES[prefix]
    except KeyError:
        raise ValueError(f"no depot for unit {unit_no}") from None
