"""Billing: procedure codes, fees and invoices."""
