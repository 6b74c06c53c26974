"""The router's error family."""

from dreamer.errors import DreamerError


class RouterError(DreamerError):
    """A recall or a feedback report could not be served: the message says why and what to do."""
