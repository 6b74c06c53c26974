"""The error families of dreamer's subsystems. Each message says what, where, and what to do."""


class DreamerError(Exception):
    """Base of every error dreamer raises on purpose."""


class ConfigError(DreamerError):
    """A setting or config file is invalid."""


class StoreError(DreamerError):
    """The store could not be opened, migrated or written."""


class NotFoundError(StoreError):
    """A session, bank or alias that was asked for does not exist."""


class AmbiguousIdError(StoreError):
    """An id prefix matches more than one record."""


class EvidenceImmutableError(StoreError):
    """Something tried to change evidence, which is append-only."""


class BankIntegrityError(StoreError):
    """A bank's content does not match its id, or a memory lacks evidence."""


class IngestError(DreamerError):
    """A trajectory file could not be parsed. ``where`` says where in the file the fault is."""

    def __init__(self, reason: str, where: str | None = None) -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"{reason} (at {where})" if where else reason)


class GateError(DreamerError):
    """A promotion was refused: the gate failed, or production moved while the gate ran."""

    def __init__(self, message: str, reasons: list[str] | None = None) -> None:
        self.reasons = reasons or []
        super().__init__(message + ("".join(f"\n  - {r}" for r in self.reasons)))


class DreamError(DreamerError):
    """A dream could not finish: a shard's worker process died (killed, out of memory)."""


class LMRunError(DreamerError):
    """A run that needs a language model cannot go on: the model is unreachable, refused the
    trial call, or failed on more calls than the run tolerates. Commands exit with
    ``LM_EXIT_CODE`` and move no alias."""


LM_EXIT_CODE = 4
"""The exit code of a command stopped by :class:`LMRunError` (distinct from usage errors, 2,
and an unopenable store, 3)."""


class RegistryError(DreamerError):
    """The MLflow tracking server or registry failed (unreachable, refused, misconfigured)."""
