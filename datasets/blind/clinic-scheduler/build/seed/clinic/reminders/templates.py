"""Texts of the reminders, by visit type."""

from __future__ import annotations

REMINDER_TEMPLATES: dict[str, str] = {
    "new-patient": (
        "Hi {first_name}, this is a reminder of your new patient visit with {practitioner} "
        "on {day} at {time}. Please arrive 15 minutes early."
    ),
    "follow-up": "Hi {first_name}, reminder: your follow-up visit with {practitioner} is on {day} at {time}.",
    "annual-physical": (
        "Hi {first_name}, reminder: your annual physical with {practitioner} is on {day} at {time}. "
        "Please do not eat for 8 hours before."
    ),
}

VIDEO_SUFFIX = " Join by video: {link}"


def render(visit_type: str, **fields: str) -> str | None:
    """The reminder text for ``visit_type``, or None when it has no reminder."""
    template = REMINDER_TEMPLATES.get(visit_type)
    if template is None:
        return None
    return template.format(**fields)
