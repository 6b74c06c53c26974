"""Appointment reminders sent to patients by SMS."""
