"""The error for a policy driven out of order (a misuse of its state, not a bad value)."""

from __future__ import annotations

__all__ = ["TaccStateError"]


class TaccStateError(RuntimeError):
    """A step-form call made in the wrong state: ``select()`` twice without ``update()``, ``update()`` with no
    selected action, or after the run is over.

    Bad values (a NaN observation, an arm that is not the selected one) are :class:`bounds.TaccInputError`;
    this error means the calls came in an order the protocol ``select() -> update() -> select() ...`` forbids.

    Attributes:
        call: the method called (``select``, ``update``).
        state: what the policy was waiting for.
    """

    def __init__(self, call: str, state: str):
        self.call = call
        self.state = state
        super().__init__(f"{call}() called out of order: {state}")
