"""The outcome of a proof step: PROVED, REFUTED (with a counterexample a reader can plug in) or UNKNOWN (with
the reason)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Outcome", "StepResult"]


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
