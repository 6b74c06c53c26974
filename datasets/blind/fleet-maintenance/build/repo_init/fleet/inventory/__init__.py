"""Parts inventory."""
