STOP_ZONES = {
    "CEN": 1,
    "MKT": 1,
    "UNI": 2,
    "PARK": 2,
    "HARB": 3,
    "AIRP": 3,
}


class UnknownStop(KeyError):
    pass


def zone_of(stop: str) -> int:
    try:
        return STOP_ZONES[stop]
    except KeyError:
        raise UnknownStop(stop) from None
