from .fare_table import FARES
from .zones import zone_of


def single_fare(stop: str) -> int:
    """List price in cents of a single ride boarding at `stop`."""
    return FARES[zone_of(stop)]
