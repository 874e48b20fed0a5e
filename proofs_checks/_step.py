"""A proof step, how it is checked, and its result: PROVED, REFUTED (with a counterexample a reader can plug
in) or UNKNOWN (with the reason)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Outcome", "StepResult", "Step", "step", "steps_of"]


class Outcome(enum.Enum):
    PROVED = "PROVED"
    REFUTED = "REFUTED"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class StepResult:
    """The outcome of one step.

    ``counterexample`` holds numbers that make the stated step false (REFUTED); ``corrected`` the corrected
    statement and ``corrected_outcome`` how the same machinery judged it; ``consistency`` what comparing the
    ``bounds`` counterpart with the checked expression found (on the counterexample and on random points)."""

    outcome: Outcome
    detail: str = ""
    counterexample: dict | None = None
    corrected: str | None = None
    corrected_outcome: Outcome | None = None
    consistency: str | None = None


@dataclass(frozen=True)
class Step:
    """One link of a proof: ``sid`` (unique id), the paper ``label``, the ``statement`` quoting the paper's
    formula, its ``hypotheses``, the ``method`` (sympy / z3) and ``check() -> StepResult``."""

    sid: str
    label: str
    statement: str
    hypotheses: str
    method: str
    check: Callable[[], StepResult] = field(repr=False)


def step(sid: str, label: str, statement: str, hypotheses: str, method: str):
    """Turn the decorated ``check`` function into a :class:`Step` (the name then holds the Step)."""
    def make(fn: Callable[[], StepResult]) -> Step:
        return Step(sid, label, statement, hypotheses, method, fn)
    return make


def steps_of(namespace: dict) -> tuple:
    """The Steps defined in a module, in definition order (``steps_of(globals())`` at the module's end)."""
    return tuple(v for v in list(namespace.values()) if isinstance(v, Step))
