"""Staff-facing reports."""
