"""Exports of stored readings for customers and the data warehouse."""
