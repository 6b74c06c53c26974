"""Time helpers.

Every instant the service stores is an aware UTC ``datetime``.  Conversion to a
wall clock happens only when something is shown to a person.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

UTC = timezone.utc

# Summer-time offsets of the zones our patients live in.  The scheduling pilot
# runs April to October, so fixed offsets are enough for now (see OPS-12).
ZONES: dict[str, timezone] = {
    "America/New_York": timezone(timedelta(hours=-4), "EDT"),
    "America/Chicago": timezone(timedelta(hours=-5), "CDT"),
    "America/Denver": timezone(timedelta(hours=-6), "MDT"),
    "America/Los_Angeles": timezone(timedelta(hours=-7), "PDT"),
    "Europe/London": timezone(timedelta(hours=1), "BST"),
}

CLINIC_ZONE = "America/New_York"
CLINIC_TZ = ZONES[CLINIC_ZONE]


def zone(name: str) -> timezone:
    """The zone called ``name`` (an IANA name we support)."""
    try:
        return ZONES[name]
    except KeyError:
        raise ValueError(f"unknown time zone {name!r}") from None


def to_zone(instant: datetime, tz: str | timezone) -> datetime:
    """``instant`` on the wall clock of ``tz`` (a zone name or a ``timezone``)."""
    if instant.tzinfo is None:
        raise ValueError("naive datetime: store instants as aware UTC")
    return instant.astimezone(zone(tz) if isinstance(tz, str) else tz)


def clinic_datetime(day: date, hour: int, minute: int = 0) -> datetime:
    """The UTC instant of a clinic wall-clock time on ``day``."""
    return datetime.combine(day, time(hour, minute), CLINIC_TZ).astimezone(UTC)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def fmt_time(moment: datetime) -> str:
    return moment.strftime("%H:%M")


def fmt_day(moment: datetime) -> str:
    return moment.strftime("%a %d %b")
