"""Clinic policies on cancellations and no-shows."""

from __future__ import annotations

from datetime import datetime, timedelta

from .billing.fees import LATE_CANCEL_FEE_CENTS
from .models import Booking

LATE_CANCEL_HOURS = 24


def is_late_cancellation(booking: Booking, now: datetime) -> bool:
    return booking.start - now < timedelta(hours=LATE_CANCEL_HOURS)


def cancellation_fee(booking: Booking, now: datetime) -> int:
    """The fee in cents for cancelling ``booking`` at ``now``."""
    if booking.telehealth:
        return 0
    return LATE_CANCEL_FEE_CENTS if is_late_cancellation(booking, now) else 0
