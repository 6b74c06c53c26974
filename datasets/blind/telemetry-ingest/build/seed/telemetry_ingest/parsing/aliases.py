"""Field names used by device firmwares, mapped to our metric names."""

FIELD_ALIASES: dict[str, str] = {
    "temperature": "temperature",
    "temp": "temperature",
    "t": "temperature",
    "humidity": "humidity",
    "hum": "humidity",
    "rh": "humidity",
    "pressure": "pressure",
    "press": "pressure",
    "baro": "pressure",
    "battery": "battery",
    "bat": "battery",
    "vbat": "battery",
}


def metric_for_field(field: str) -> str | None:
    return FIELD_ALIASES.get(field.strip().lower())
