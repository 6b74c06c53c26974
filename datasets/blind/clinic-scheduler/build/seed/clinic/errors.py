"""Errors raised by the scheduling service."""


class ClinicError(Exception):
    """Base class of the service's errors."""


class NotFound(ClinicError):
    """No patient, practitioner or booking with that id."""


class SlotUnavailable(ClinicError):
    """The requested time is taken, blocked or outside working hours."""


class UnknownVisitType(ClinicError):
    """The visit type is not offered."""


class PolicyError(ClinicError):
    """The request breaks a clinic policy (e.g. video for an in-person-only visit)."""
