"""Clinic appointment scheduling service (patients, practitioners, slots, bookings)."""

__version__ = "0.4.0"
