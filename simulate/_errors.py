"""The error for a policy driven out of order (a misuse of its state, not a bad value), and the end of a run
stopped from another thread."""

from __future__ import annotations

import numpy as np

__all__ = ["TaccStateError", "RunStopped", "stop_flag"]


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


def stop_flag() -> np.ndarray:
    """A new stop flag for :func:`simulate.run` (``stop=``): a one-element int8 array, 0 until another thread sets
    ``flag[0] = 1`` to end the run."""
    return np.zeros(1, dtype=np.int8)


class RunStopped(Exception):
    """A run ended early because its stop flag was set (``simulate.run(..., stop=flag)``): it is unfinished, so
    there is no record of it (none is returned, none stored).

    Attributes:
        policy: the policy of the run.
        seed: the seed of the run.
        rounds: the rounds it had made when it stopped.
    """

    def __init__(self, policy: str, seed: int, rounds: int):
        self.policy, self.seed, self.rounds = policy, seed, rounds
        super().__init__(f"the run of {policy} on seed {seed} was stopped after {rounds} rounds (no record)")
