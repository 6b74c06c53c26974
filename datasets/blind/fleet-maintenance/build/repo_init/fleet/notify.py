"""Reminders sent to depot managers."""
from datetime import timedelta

REMINDER_LEAD_DAYS = 14


def reminder_date(vclass, last_inspection, lead_days=REMINDER_LEAD_DAYS):
    """The day a reminder for the next inspection goes out."""
    due = last_inspection + timedelta(days=365)
    return due - timedelta(days=lead_days)


def reminder_text(unit_no, vclass, last_inspection):
    due = reminder_date(vclass, last_inspection) + timedelta(days=REMINDER_LEAD_DAYS)
    return f"Unit {unit_no}: inspection due {due.isoformat()}"
