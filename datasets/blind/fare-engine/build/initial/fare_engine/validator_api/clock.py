from datetime import datetime, timezone, tzinfo


def device_time(ts: int, tz: tzinfo = timezone.utc) -> datetime:
    return datetime.fromtimestamp(ts / 1000, tz)
