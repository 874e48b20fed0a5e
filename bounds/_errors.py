"""The one error type for invalid arguments and configuration values."""

from __future__ import annotations

from typing import Any

__all__ = ["TaccInputError"]


class TaccInputError(ValueError):
    """An argument or configuration value is invalid.

    The message always names the field (``budget``, ``instance.low.zeta``, ``mu_high[3]``...) and the
    offending value, so a command line can print it as is and exit with status 2.

    Attributes:
        field: dotted name of the offending argument or configuration key.
        value: the offending value, as given.
        reason: what is wrong with it.
        shown: the value as the message prints it (None: its ``repr``).

    ``shown`` is the value as the message prints it, when its Python ``repr`` is not how the user wrote it (a
    configuration's ``true``, TOML's spelling of Python's ``True``); by default the ``repr``.
    """

    def __init__(self, field: str, value: Any, reason: str, *, shown: str | None = None):
        self.field = field
        self.value = value
        self.reason = reason
        self.shown = shown
        super().__init__(f"{field} = {repr(value) if shown is None else shown}: {reason}")
