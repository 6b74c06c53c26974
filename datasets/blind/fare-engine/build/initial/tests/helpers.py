from datetime import datetime, timezone


def at(day: int, hour: int, minute: int = 0, month: int = 3) -> datetime:
    return datetime(2024, month, day, hour, minute, tzinfo=timezone.utc)
