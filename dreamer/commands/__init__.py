"""One module per subsystem, each with ``register(app: typer.Typer)`` adding its commands."""
